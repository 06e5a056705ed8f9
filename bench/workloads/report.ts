/**
 * The report graph (6 node executions: collect, write_draft, check_draft, revise_draft, check_draft,
 * publish) on every engine, against a hand-written loop that does the same work with nothing else.
 */
import { isDeepStrictEqual } from "node:util";
import { append, type CompiledGraph } from "../../src/index.js";
import {
  buildReportGraph,
  createReportNodes,
  initialReportState,
  runReportPlain,
  type ReportNodeName,
  type ReportNodes,
  type ReportState,
  type ReportUpdate,
} from "../../src/examples/report/index.js";
import { verify, type Candidate, type Skipped, type VerifiedWorkload } from "../_workload.js";

/** The report run's bound: more than its 6 steps, as a caller would pass. */
export const MAX_STEPS = 30;
/** The report run's node executions. */
export const STEPS = 6;

/** Contender names, as the tables print them. */
export const REPORT = {
  loop: "hand-written loop",
  invoke: "mini engine invoke",
  stream: "mini engine stream([updates, values])",
  xstateActor: "XState actor (machine built once)",
  xstateRun: "XState runOnXState",
  langGraphInvoke: "LangGraph.js invoke",
  langGraphStream: "LangGraph.js stream([updates, values])",
} as const;

/** Which engines a report workload times. */
export type ReportEngines = "all" | "mini engine only";

/**
 * Builds the report graph, runs each engine once, checks its final state against the mini engine's
 * (and the mini engine's against `runReportPlain`, the example's reference), and returns what to time.
 * `"mini engine only"` leaves XState and LangGraph.js out, and never loads them: once LangGraph.js has
 * run, its AsyncLocalStorage keeps Node's promise hooks on for the rest of the process, which slows
 * every `await` of every contender.
 *
 * @throws Error when the mini engine itself disagrees with the reference: nothing can be compared then.
 */
export async function reportWorkload(engines: ReportEngines = "all"): Promise<VerifiedWorkload> {
  const graph = buildReportGraph();
  const nodes = createReportNodes();
  const input = initialReportState();

  const reference = await runReportPlain(input, nodes);
  const mini = await graph.invoke(input, { maxSteps: MAX_STEPS });
  if (!isDeepStrictEqual(mini.state, reference.state) || mini.trace.length !== STEPS) {
    throw new Error(
      `reportWorkload: the mini engine's run differs from runReportPlain (trace ${mini.trace.join(", ")}); fix the engine before timing it.`,
    );
  }

  const candidates: (Candidate<ReportState> | Skipped)[] = [
    { name: REPORT.loop, steps: STEPS, run: () => handWrittenLoop(input, nodes) },
    { name: REPORT.invoke, steps: STEPS, run: async () => (await graph.invoke(input, { maxSteps: MAX_STEPS })).state },
    { name: REPORT.stream, steps: STEPS, run: () => lastValues(graph, input) },
  ];
  if (engines === "all") candidates.push(...(await xstateCandidates(graph, input)), ...(await langGraphCandidates(graph, input)));
  const title =
    engines === "all"
      ? "report graph (6 node executions), every engine"
      : "report graph (6 node executions), before XState or LangGraph.js is loaded";
  return { title, baseline: REPORT.loop, ...(await verify(mini.state, candidates)) };
}

/**
 * The loop a user would write without a library: async like the engine (it awaits each node), the
 * same reducer for `events` (`append`), everything else replaced; no copies and no step history.
 */
export async function handWrittenLoop(input: ReportState, nodes: ReportNodes): Promise<ReportState> {
  let state = input;
  const run = async (name: ReportNodeName): Promise<void> => {
    state = merge(state, await nodes[name](state));
  };
  await run("collect");
  await run("write_draft");
  for (;;) {
    await run("check_draft");
    const route = nodes.routeAfterCheck(state);
    if (route !== "revise") {
      await run(route === "accept" ? "publish" : "hold");
      return state;
    }
    await run("revise_draft");
  }
}

function merge(state: ReportState, update: ReportUpdate): ReportState {
  return { ...state, ...update, events: update.events === undefined ? state.events : append(state.events, update.events) };
}

async function lastValues(graph: CompiledGraph<ReportState>, input: ReportState): Promise<ReportState> {
  let last: ReportState | undefined;
  for await (const chunk of graph.stream(input, { streamMode: ["updates", "values"], maxSteps: MAX_STEPS })) {
    if (chunk[0] === "values") last = chunk[1].state;
  }
  if (last === undefined) throw new Error("the stream yielded no values chunk");
  return last;
}

async function xstateCandidates(graph: CompiledGraph<ReportState>, input: ReportState): Promise<(Candidate<ReportState> | Skipped)[]> {
  let loaded;
  try {
    loaded = await Promise.all([import("xstate"), import("../../src/xstate/index.js")]);
  } catch (error) {
    const reason = `typed-state-graph/xstate did not load: ${error instanceof Error ? error.message : String(error)}`;
    return [
      { name: REPORT.xstateActor, reason },
      { name: REPORT.xstateRun, reason },
    ];
  }
  const [{ createActor, toPromise }, { toMachine, runOnXState }] = loaded;
  let actor: Candidate<ReportState> | Skipped;
  try {
    const machine = toMachine(graph);
    actor = {
      name: REPORT.xstateActor,
      steps: STEPS,
      run: async () => (await toPromise(createActor(machine, { input: { state: input, maxSteps: MAX_STEPS } }).start())).state,
    };
  } catch (error) {
    actor = { name: REPORT.xstateActor, reason: `toMachine failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return [
    actor,
    { name: REPORT.xstateRun, steps: STEPS, run: async () => (await runOnXState(graph, input, { maxSteps: MAX_STEPS })).state },
  ];
}

async function langGraphCandidates(graph: CompiledGraph<ReportState>, input: ReportState): Promise<(Candidate<ReportState> | Skipped)[]> {
  let exported;
  try {
    const { toLangGraph } = await import("../../src/langgraph/index.js");
    exported = await toLangGraph(graph);
  } catch (error) {
    const reason = `toLangGraph failed: ${error instanceof Error ? error.message : String(error)}`;
    return [
      { name: REPORT.langGraphInvoke, reason },
      { name: REPORT.langGraphStream, reason },
    ];
  }
  const lg = exported;
  return [
    { name: REPORT.langGraphInvoke, steps: STEPS, run: async () => (await lg.invoke(input, { recursionLimit: MAX_STEPS })) as ReportState },
    {
      name: REPORT.langGraphStream,
      steps: STEPS,
      run: async () => {
        let last: unknown;
        const stream = (await lg.stream(input, { streamMode: ["updates", "values"], recursionLimit: MAX_STEPS })) as AsyncIterable<
          readonly [string, unknown]
        >;
        for await (const [mode, payload] of stream) if (mode === "values") last = payload;
        return last as ReportState;
      },
    },
  ];
}
