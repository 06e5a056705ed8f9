/**
 * One explored run: the graph with its replaced nodes drawing their outcomes, run on a fresh memory
 * thread superstep by superstep (`streamMode: "values"`), every invariant checked after each superstep,
 * each pause answered from the drawn answers, until the run ends, fails or pauses too often.
 */
import { GraphError } from "../../errors.js";
import { CompiledGraph, Command, type NodeFunction, type RouteTaken, type SuperstepValues } from "../../engine/index.js";
import { graphView } from "../../engine/_kernel.js";
import type * as fc from "fast-check";
import { MemoryCheckpointer } from "../../persistence/index.js";
import type { ExploredRun, ExploreOptions, NodeOutcome } from "./types.js";

/**
 * Where one run's values come from: its input; for each source (a replaced node, an interrupt name),
 * a list taken in call order; past its end, `more` (fast-check's generator, drawing on demand, while
 * exploring; a coded error when replaying a recorded scenario). The lists let fast-check shrink a run
 * by dropping calls' values; the generator lets a run make more calls than a list holds.
 */
export interface RunDraw<S> {
  readonly input: S;
  readonly lists: Readonly<Record<string, readonly unknown[]>>;
  readonly more: <T>(key: string, factory: () => fc.Arbitrary<T>) => T;
}

/** The key of a source's list in {@link RunDraw.lists}. */
export const nodeSource = (node: string): string => `node:${node}`;
export const answerSource = (name: string): string => `answer:${name}`;

/** Takes each source's values in call order: its list first, then `more`. */
export class Draws<S> {
  readonly #taken = new Map<string, number>();
  constructor(readonly draw: RunDraw<S>) {}

  next<T>(key: string, factory: () => fc.Arbitrary<T>): T {
    const index = this.#taken.get(key) ?? 0;
    this.#taken.set(key, index + 1);
    const list = this.draw.lists[key] ?? [];
    // A list holds values of its source's arbitrary: fast-check drew it from that same arbitrary.
    return index < list.length ? (list[index] as T) : this.draw.more(key, factory);
  }
}

/** Each arbitrary behind a stable factory: fast-check's generator keys its draws by the factory. */
export interface DrawSources<S> {
  readonly nodes: ReadonlyMap<string, () => fc.Arbitrary<NodeOutcome<S>>>;
  /** By interrupt name; `"*"` for every other interrupt. */
  readonly answers: ReadonlyMap<string, () => fc.Arbitrary<unknown>>;
}

/** What a run is checked against: the exploration's invariants, expected errors and bounds. */
export type RunChecks<S extends object> = Pick<ExploreOptions<S>, "invariants" | "expectErrors" | "maxSteps" | "maxPauses">;

const DEFAULT_MAX_PAUSES = 20;

/**
 * Runs the graph once with what fast-check drew and says how the run went: its trace, routes, the
 * outcomes and answers it used, and why it fails the exploration, if it does.
 */
export async function runOnce<S extends object, N extends string>(
  graph: CompiledGraph<S, N>,
  draw: RunDraw<S>,
  sources: DrawSources<S>,
  options: RunChecks<S>,
): Promise<ExploredRun<S>> {
  const used: Record<string, NodeOutcome<S>[]> = {};
  const answered: unknown[] = [];
  const routes: RouteTaken[] = [];
  const trace: string[] = [];
  const draws = new Draws(draw);
  const variant = withDrawnOutcomes(graph, draws, sources.nodes, used);
  const checkpointer = new MemoryCheckpointer();
  const threadId = "explore";
  const observer = { run: () => ({ route: (route: RouteTaken) => void routes.push(route) }) };
  let state: S = draw.input;
  let paused = false;
  const report = (failure?: string, error?: string): ExploredRun<S> => ({
    input: draw.input,
    state,
    trace,
    routes,
    outcomes: used,
    answers: answered,
    paused,
    ...(error === undefined ? {} : { error }),
    ...(failure === undefined ? {} : { failure }),
  });

  let input: unknown = draw.input;
  const maxPauses = options.maxPauses ?? DEFAULT_MAX_PAUSES;
  for (let pauses = 0; ; pauses += 1) {
    try {
      const stream = variant.stream(input as S, {
        threadId,
        checkpointer,
        streamMode: "values",
        observer,
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      });
      for await (const values of stream as AsyncIterable<SuperstepValues<S>>) {
        if (values.superstep === 0) continue;
        trace.push(...values.nodes);
        state = values.state;
        const broken = brokenInvariant(options, values);
        if (broken !== undefined) return report(broken);
      }
    } catch (error) {
      const code = error instanceof GraphError ? error.code : undefined;
      if (code !== undefined && options.expectErrors?.includes(code)) return report(undefined, code);
      return report(`the run failed with ${describeError(error)}`);
    }
    const snapshot = await variant.getState(threadId, { checkpointer });
    if (snapshot === undefined || snapshot.next.length === 0) return report();
    paused = true;
    if (pauses >= maxPauses) {
      return report(
        `the run paused ${pauses + 1} times (at ${snapshot.next.join(", ")}) without ending; raise maxPauses or answer so it ends`,
      );
    }
    const pending = snapshot.interrupts ?? [];
    if (pending.length === 0) {
      input = null; // a pause before or after a node: resume as it stands
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const interrupt of pending) {
      const name = interrupt.name !== undefined && sources.answers.has(interrupt.name) ? interrupt.name : "*";
      const source = sources.answers.get(name);
      if (source === undefined) {
        return report(
          `the run paused at the interrupt ${interrupt.name === undefined ? "" : `"${interrupt.name}" `}in "${interrupt.node}" and no answers arbitrary covers it; pass answers`,
        );
      }
      const answer = draws.next(answerSource(name), source);
      answered.push(answer);
      values[interrupt.id] = answer;
    }
    const [only] = pending;
    input = new Command({ resume: pending.length === 1 && only !== undefined ? values[only.id] : values });
  }
}

/** The graph with each replaced node returning (or throwing) an outcome drawn at each call. */
export function withDrawnOutcomes<S extends object, N extends string>(
  graph: CompiledGraph<S, N>,
  draws: Draws<S>,
  sources: DrawSources<S>["nodes"],
  used: Record<string, NodeOutcome<S>[]>,
): CompiledGraph<S, N> {
  const executable = graphView(graph).executable;
  const nodes = new Map<string, NodeFunction<unknown>>(executable.nodes);
  for (const [node, source] of sources) {
    nodes.set(node, () => {
      const outcome = draws.next(nodeSource(node), source);
      (used[node] ??= []).push(outcome);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    });
  }
  return new CompiledGraph<S, N>(graph.spec, { ...executable, nodes }, graph.warnings, graphView(graph).settings);
}

/** The first invariant that does not hold after this superstep, as a sentence. */
function brokenInvariant<S extends object>(options: RunChecks<S>, values: SuperstepValues<S>): string | undefined {
  for (const [name, invariant] of Object.entries(options.invariants ?? {})) {
    let verdict: true | string;
    try {
      verdict = invariant(values.state, values);
    } catch (error) {
      verdict = `it threw ${describeError(error)}`;
    }
    if (verdict !== true)
      return `the invariant "${name}" does not hold after superstep ${values.superstep} (${values.nodes.join(", ")}): ${verdict}`;
  }
  return undefined;
}

function describeError(error: unknown): string {
  if (error instanceof GraphError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
