/**
 * Property (issue 20): random graphs with random interrupt points, resumed with random values, give the
 * same final state on the mini engine, on XState where supported, and on LangGraph.js.
 *
 * - The random graphs are the equivalence property's sequential ones (cycles, routers driven by the
 *   state, built-in reducers, sync and async nodes, step limits), without failing nodes or routers.
 *   Some nodes call `interrupt()` once or twice before they compute their update, and the answers
 *   flow into the state (`n`, so they steer the routers, and `last`); some nodes are `interruptBefore`
 *   or `interruptAfter` points. A pause at `interrupt()` is resumed with the next random value, a
 *   static pause with `null`, until the run ends.
 * - Some nodes are goto points: their fixed edge becomes `ends: [to, other]` (another node or END),
 *   and they return `new Command({ update, goto })` to one of the two, by the state.
 * - Some other nodes are subgraphs: the node's function (its interrupts included) runs as the one node
 *   of a child graph (`START → inner → END`, the same fields and reducers), so their interrupts pause
 *   inside the child and resume there (the ids carry the child's path; `ns` is each engine's own and
 *   is not compared).
 * - The mini engine and LangGraph.js (`runOnLangGraph` on a `MemorySaver` thread) must agree after
 *   every call: status, state, next nodes, interrupt ids, nodes and payloads, trace, supersteps, steps,
 *   or the same error.
 * - XState has no waiting state for interrupts: the machine refuses a graph with `interruptBefore`/
 *   `interruptAfter` (`UNSUPPORTED_INTERRUPT`), and a node's `interrupt()` fails there with
 *   `INTERRUPT_OUTSIDE_THREAD`. Where it is supported, it runs the same graph whose nodes are handed
 *   the answers in order instead of asking, which must end in the same state and trace as the
 *   interrupted runs.
 *
 * LangGraph.js is slow (a few ms per superstep), so the runs are few and the graphs small; a failure
 * prints its seed (replay: see arbitraries.ts).
 */
import { MemorySaver } from "@langchain/langgraph";
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  Command,
  compileGraph,
  END,
  GraphExecutionError,
  interrupt,
  InterruptError,
  START,
  subgraph,
  type CompiledGraph,
  type GraphDefinition,
  type GraphSpec,
  type ThreadRunResult,
} from "../../src/index.js";
import { runOnLangGraph, type LangGraphThreadResult } from "../../src/langgraph/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState, XStateExportError } from "../../src/xstate/index.js";
import { threadOutcome, withoutNs } from "../langgraph/_helpers.js";
import { definitionOf, drive, exportablePlan, fieldNames, propertyParams, type GraphPlan } from "./arbitraries.js";

type State = Record<string, unknown>;

/** A random graph, where it asks, and the answers. */
interface InterruptPlan {
  readonly plan: GraphPlan;
  /** How many times each node calls `interrupt()` before computing its update (by node index). */
  readonly asks: readonly number[];
  readonly interruptBefore: readonly string[];
  readonly interruptAfter: readonly string[];
  /** The resume values, used in turn (cycling) for the pauses at `interrupt()`. */
  readonly answers: readonly number[];
  /** The nodes that return a Command whose goto replaces their fixed edge, by name. */
  readonly gotos: Readonly<Record<string, GotoPoint>>;
  /** The nodes (none of them a goto point) whose function runs inside a child graph. */
  readonly children: readonly string[];
}

/** Where a goto point may go: its edge's node, or another node (or END). */
interface GotoPoint {
  readonly to: string;
  readonly other: string;
}

/** The equivalence property's sequential graphs, with fields declared and nothing failing. */
const calmPlan = exportablePlan({ maxNodes: 4 }).map(
  (plan): GraphPlan => ({
    ...plan,
    nodes: plan.nodes.map(([name, node]) => [
      name,
      { ...node, failure: null, retry: null, writes: node.writes.map((write) => ({ ...write, wrong: false })) },
    ]),
    routers: plan.routers.map(([source, router]) => [source, { ...router, failure: null }]),
  }),
);

/**
 * The plan with some of its nodes' fixed edges turned into Command gotos: the node's only rule becomes
 * `ends: [to, other]` (`other` a random node or END), and its goto picks one of them by the state.
 */
const withGotos = (plan: GraphPlan): fc.Arbitrary<{ plan: GraphPlan; gotos: Record<string, GotoPoint> }> => {
  const fixed = plan.spec.edges.filter((edge) => plan.spec.nodes.includes(edge.from));
  const targets = [...plan.spec.nodes, END];
  return fc
    .subarray(fixed, { minLength: Math.min(1, fixed.length) })
    .chain((chosen) =>
      fc.tuple(fc.constant(chosen), fc.array(fc.constantFrom(...targets), { minLength: chosen.length, maxLength: chosen.length })),
    )
    .map(([chosen, others]) => {
      const gotos = Object.fromEntries(chosen.map((edge, i) => [edge.from, { to: edge.to, other: others[i] as string }]));
      const spec = {
        ...plan.spec,
        edges: plan.spec.edges.filter((edge) => !chosen.includes(edge)),
        ends: chosen.map((edge, i) => ({ from: edge.from, to: [...new Set([edge.to, others[i] as string])] })),
      };
      return { plan: { ...plan, spec }, gotos };
    });
};

const interruptPlan: fc.Arbitrary<InterruptPlan> = calmPlan.chain(withGotos).chain(({ plan, gotos }) => {
  const names = plan.spec.nodes;
  return fc.record({
    plan: fc.constant(plan),
    gotos: fc.constant(gotos),
    asks: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 2 }) }), {
      minLength: names.length,
      maxLength: names.length,
    }),
    interruptBefore: fc.subarray([...names], { maxLength: Math.min(1, names.length) }),
    interruptAfter: fc.subarray([...names], { maxLength: Math.min(1, names.length) }),
    answers: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
    children: ((plain) => fc.subarray(plain, { maxLength: Math.min(2, plain.length) }))(names.filter((name) => gotos[name] === undefined)),
  });
});

/**
 * The plan's graph. `ask` is what a node calls for each of its answers: `interrupt()` in the graph the
 * threads run, the next answer in the twin XState runs.
 */
function definitionWith(p: InterruptPlan, ask: (payload: { node: string; call: number; d: number }) => number): GraphDefinition {
  const definition = definitionOf(p.plan);
  const nodes = Object.fromEntries(
    p.plan.nodes.map(([name], index) => {
      const base = definition.nodes[name] as (state: State, context?: { readonly attempt: number }) => unknown;
      const asks = p.asks[index] ?? 0;
      const to = p.gotos[name];
      const node = (state: State, context?: { readonly attempt: number }) => {
        const d = drive(state);
        const answers: number[] = [];
        for (let call = 0; call < asks; call++) answers.push(ask({ node: name, call, d }));
        const update = base(state, context);
        const withAnswers = (computed: unknown) => {
          const written =
            asks === 0 ? (computed as State) : { ...(computed as State), n: answers[0], last: `${name}:${answers.join(",")}` };
          // A goto point goes on to its edge's node one time in three, elsewhere otherwise.
          return to === undefined ? written : new Command({ update: written, goto: d % 3 === 2 ? to.to : to.other });
        };
        return update instanceof Promise ? update.then(withAnswers) : withAnswers(update);
      };
      return [name, p.children.includes(name) ? subgraph(childGraph(node, p.plan.spec.reducers, definition.reducers)) : node];
    }),
  );
  return { ...definition, nodes };
}

/** A child graph whose one node, `inner`, is `node`: the same fields and reducers as the random graph. */
function childGraph(
  node: (state: State) => unknown,
  reducerSpecs: GraphSpec["reducers"],
  reducers: GraphDefinition["reducers"],
): CompiledGraph<State> {
  const spec: GraphSpec = {
    nodes: ["inner"],
    edges: [
      { from: START, to: "inner" },
      { from: "inner", to: END },
    ],
    routes: [],
    reducers: reducerSpecs,
    fields: [...fieldNames],
  };
  return compileGraph<State>({ spec, nodes: { inner: node }, routers: {}, reducers });
}

function failureOf(error: unknown) {
  if (!(error instanceof GraphExecutionError)) throw error;
  return { failed: error.code, node: error.node, state: error.state, trace: [...error.trace] };
}

type Invoke = (input: State | null | Command<unknown, State>) => Promise<ThreadRunResult<State> | LangGraphThreadResult<State>>;

/** Runs a thread to its end: each pause at `interrupt()` gets the next answer, a static pause `null`. */
async function runToEnd(p: InterruptPlan, invoke: Invoke) {
  const calls: unknown[] = [];
  let answered = 0;
  let input: State | null | Command<unknown, State> = structuredClone(p.plan.input);
  // Each node execution pauses at most four times (before it, at its two asks, after it).
  const callBound = 4 * (p.plan.maxSteps + 1) + 2;
  for (let guard = 0; guard < callBound; guard++) {
    let result: ThreadRunResult<State> | LangGraphThreadResult<State>;
    try {
      result = await invoke(input);
    } catch (error) {
      calls.push(failureOf(error));
      return { calls, answered };
    }
    calls.push(withoutNs(threadOutcome(result)));
    if (result.status === "done") return { calls, answered };
    if (result.interrupt.when === "during") {
      input = new Command({ resume: p.answers[answered % p.answers.length] as number });
      answered += 1;
    } else {
      input = null;
    }
  }
  throw new Error(`the run did not end within ${callBound} calls`);
}

/** How a run ends on XState: its state and trace, its failure, or the export's refusal. */
async function onXState(graph: CompiledGraph<State>, p: InterruptPlan) {
  try {
    const { state, trace } = await runOnXState(graph, structuredClone(p.plan.input), { maxSteps: p.plan.maxSteps });
    return { state, trace };
  } catch (error) {
    if (error instanceof XStateExportError) return { refused: error.code };
    const refused = interruptErrorOf(error);
    if (refused !== undefined) return { interruptFailed: refused.code };
    return failureOf(error);
  }
}

/** The InterruptError behind a run's failure, inside a child's failure too. */
function interruptErrorOf(error: unknown): InterruptError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) if (cause instanceof InterruptError) return cause;
  return undefined;
}

/** The graph whose nodes are handed the answers in order instead of asking (no interrupts): XState runs it. */
function twinOf(p: InterruptPlan): CompiledGraph<State> {
  let given = 0;
  return compileGraph<State>(definitionWith(p, () => p.answers[given++ % p.answers.length] as number));
}

/** The final state and trace of a thread's last call, in the twin's terms. */
function ending(last: unknown) {
  const outcome = last as { failed?: string; state: State; trace: string[]; node?: string };
  return outcome.failed === undefined ? { state: outcome.state, trace: outcome.trace } : outcome;
}

describe("interrupted random graphs: the mini engine, XState and LangGraph.js agree", () => {
  test.prop([interruptPlan], { ...propertyParams(30), seed: propertyParams(30).seed ?? 20_2026 })(
    "same pauses, payloads and final state on the mini engine and LangGraph.js; the same final state on XState where supported",
    async (p) => {
      const options = { interruptBefore: p.interruptBefore, interruptAfter: p.interruptAfter };
      const mini = compileGraph<State>(definitionWith(p, interrupt), options);
      const lang = compileGraph<State>(definitionWith(p, interrupt), options);
      const checkpointer = new MemoryCheckpointer();
      const saver = new MemorySaver();
      const maxSteps = p.plan.maxSteps;
      const onMini = await runToEnd(p, (input) => mini.invoke(input as State, { threadId: "t", checkpointer, maxSteps }));
      const onLangGraph = await runToEnd(p, (input) =>
        runOnLangGraph(lang, input as State, { threadId: "t", checkpointer: saver, maxSteps }),
      );
      expect(onLangGraph.calls).toEqual(onMini.calls);

      // XState: the twin ends where the interrupted runs ended; the graph itself is refused, never run through.
      const ended = ending(onMini.calls.at(-1));
      expect(await onXState(twinOf(p), p)).toEqual(ended);
      const itself = await onXState(mini, p);
      if (p.interruptBefore.length + p.interruptAfter.length > 0) expect(itself).toEqual({ refused: "UNSUPPORTED_INTERRUPT" });
      else if (onMini.answered > 0) expect(itself).toEqual({ interruptFailed: "INTERRUPT_OUTSIDE_THREAD" });
      else expect(itself).toEqual(ended);
    },
    120_000,
  );

  test("the random plans pause at interrupt(), before and after nodes, resume several times, and end both ways (the property is not vacuous)", async () => {
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    for (const p of fc.sample(interruptPlan, { numRuns: 150, seed: 42 })) {
      const graph = compileGraph<State>(definitionWith(p, interrupt), {
        interruptBefore: p.interruptBefore,
        interruptAfter: p.interruptAfter,
      });
      const checkpointer = new MemoryCheckpointer();
      const { calls, answered } = await runToEnd(p, (input) =>
        graph.invoke(input as State, { threadId: "t", checkpointer, maxSteps: p.plan.maxSteps }),
      );
      for (const call of calls) {
        const when = (call as { interrupt?: { when: string } }).interrupt?.when;
        if (when !== undefined) count(when);
      }
      if (answered > 1) count("resumed several times");
      if (Object.keys(p.gotos).length > 0) count("goto points");
      const ids = calls.flatMap((call) => (call as { interrupt?: { interrupts?: { id: string }[] } }).interrupt?.interrupts ?? []);
      if (ids.some(({ id }) => id.includes("/inner:"))) count("paused inside a child");
      const gotos = calls.flatMap((call) => (call as { steps?: { goto?: string[] }[] }).steps?.flatMap((step) => step.goto ?? []) ?? []);
      if (gotos.includes(END)) count("goto END");
      if (gotos.some((to) => to !== END)) count("goto a node");
      const last = calls.at(-1) as { failed?: string };
      count(last.failed ?? "done");
    }
    for (const what of [
      "during",
      "before",
      "after",
      "resumed several times",
      "done",
      "STEP_LIMIT",
      "goto points",
      "goto END",
      "goto a node",
      "paused inside a child",
    ]) {
      expect(seen.get(what) ?? 0, `${what} in ${JSON.stringify([...seen])}`).toBeGreaterThan(4);
    }
  }, 60_000);
});
