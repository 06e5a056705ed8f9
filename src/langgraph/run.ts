/**
 * Runs a compiled graph on LangGraph.js and reports it in the mini engine's shape: the same
 * `{ state, trace, steps, routes, supersteps }`, and the same errors (GraphLimitError naming the node
 * not started, GraphExecutionError, InvalidUpdateError), so a caller switches engines without changing
 * a line of its output code. Parallel supersteps included: steps come in declaration order within a
 * superstep, and the bounds are checked before a superstep's nodes start, as on the mini engine.
 */
import { GraphExecutionError } from "../errors.js";
import {
  graphView,
  runOptionsOf,
  type ExecutableGraph,
  type GraphView,
  superstepCeiling,
  threadRequired,
  type State,
} from "../engine/_kernel.js";
import { cloneState, Command, InterruptError, type CompiledGraph, type Interrupt, type RunResult, type Step } from "../engine/index.js";
import { loadLangGraph } from "./_load.js";
import { LangGraphRun, type RunGraph, type RunStart } from "./_run.js";
import { langGraphCommand, recordFinished, runSoFar, threadConfig, threadEnd, type LangGraphThread } from "./_thread.js";
import type { LangGraphGraph, LangGraphRunOptions } from "./_types.js";
import { childExport, toLangGraphForRun } from "./to-langgraph.js";
import type { BaseCheckpointSaver } from "@langchain/langgraph";

/**
 * The LangGraph `recursionLimit` a run passes: one superstep more than its bounds allow, which is what
 * LangGraph needs to let a run of that many supersteps finish (it raises after its last allowed
 * superstep even when the run would end there). `runOnLangGraph` itself stops the run where the mini
 * engine does: it sees the superstep LangGraph announces beyond the bounds and refuses it before any
 * of its nodes starts, so LangGraph's own GraphRecursionError is only a backstop.
 *
 * @example
 * ```ts
 * langGraphRecursionLimit({ maxSteps: 30 }); // 31
 * ```
 */
export function langGraphRecursionLimit(options: LangGraphRunOptions = {}): number {
  return superstepCeiling(runOptionsOf(options, "invoke").limits) + 1;
}

/** Options of a threaded run on LangGraph.js: the thread, and LangGraph's checkpointer that keeps it. */
export interface LangGraphThreadOptions extends LangGraphRunOptions {
  /** The thread (LangGraph's `thread_id`). */
  readonly threadId: string;
  /** LangGraph's checkpointer (`MemorySaver`, `PostgresSaver`…): the thread lives there. */
  readonly checkpointer: BaseCheckpointSaver;
}

/**
 * What a threaded run on LangGraph.js resolves with: the mini engine's `ThreadRunResult` without
 * `routes` (LangGraph's checkpoints do not keep which route a router took). `trace` and `supersteps`
 * count the thread's run since its input, across resumes; `steps` are this invocation's.
 */
export type LangGraphThreadResult<S> = Omit<RunResult<S>, "routes"> & {
  readonly threadId: string;
  /** LangGraph's id of the checkpoint the run stopped at. */
  readonly checkpointId: string;
  /** The nodes that run when the thread resumes; empty once the run reached END. */
  readonly next: readonly string[];
} & ({ readonly status: "done" } | { readonly status: "interrupted"; readonly interrupt: Interrupt });

/**
 * Runs `graph` on LangGraph.js to its end and resolves like `graph.invoke` does on the mini engine.
 *
 * With `{ threadId, checkpointer }` (LangGraph's checkpointer) it runs a thread, as
 * `graph.invoke(input, { threadId })` does: it pauses at `interruptBefore`/`interruptAfter` and at
 * in-node `interrupt()` calls (`status: "interrupted"`, each interrupt with the mini engine's id, node
 * and payload), `null` continues, and `new Command({ resume, update, goto })` resumes (the node runs
 * again from its start, as on both engines).
 *
 * @throws GraphLimitError when a bound is reached (its `node` is the node not started);
 * GraphExecutionError / InvalidUpdateError when a node, router or reducer fails, or two parallel
 * nodes write one field that has no reducer; InterruptError when a resume does not fit the pending
 * interrupts; InvalidOptionError for a graph with interrupts run without a thread;
 * LangGraphInteropError when the graph cannot be exported or LangGraph.js is not installed.
 * @example
 * ```ts
 * const { state, trace, steps } = await runOnLangGraph(buildResearchGraph(), initialResearchState("tides"));
 * const paused = await runOnLangGraph(graph, input, { threadId: "t1", checkpointer: new MemorySaver() });
 * ```
 */
export function runOnLangGraph<S extends object>(
  graph: CompiledGraph<S>,
  input: S | null | Command<unknown, S, string>,
  options: LangGraphThreadOptions,
): Promise<LangGraphThreadResult<S>>;
export function runOnLangGraph<S extends object>(graph: CompiledGraph<S>, input: S, options?: LangGraphRunOptions): Promise<RunResult<S>>;
export async function runOnLangGraph<S extends object>(
  graph: CompiledGraph<S>,
  input: S | null | Command<unknown, S, string>,
  options?: LangGraphRunOptions | LangGraphThreadOptions,
): Promise<RunResult<S> | LangGraphThreadResult<S>> {
  if (options !== undefined && "threadId" in options) return runThread(graph, input, options);
  const run = new LangGraphRun(runGraph(graph), plainStart(graph, input), options, "invoke");
  const steps: Step<State>[] = [];
  for await (const step of run.steps()) steps.push(step);
  return {
    state: cloneState(run.state),
    trace: [...run.trace],
    steps,
    routes: [...run.routes],
    supersteps: run.supersteps,
  } as unknown as RunResult<S>;
}

/** A run without a thread: refused for a graph that pauses at interrupts, as `graph.invoke` refuses it. */
function plainStart(graph: CompiledGraph<object>, input: unknown): RunStart {
  const settings = graphView(graph).settings;
  if (settings.interruptBefore.size > 0 || settings.interruptAfter.size > 0) throw threadRequired("invoke", settings);
  return { input, checkInput: true, configurable: {}, trace: [], supersteps: 0 };
}

async function runThread<S extends object>(
  graph: CompiledGraph<S>,
  input: S | null | Command<unknown, S, string>,
  options: LangGraphThreadOptions,
): Promise<LangGraphThreadResult<S>> {
  const api = "invoke";
  const { threadId, checkpointer } = options;
  const [lg, langGraph] = await Promise.all([loadLangGraph(), langGraphOf(graph, checkpointer)]);
  const thread: LangGraphThread = {
    lg,
    graph: langGraph,
    checkpointer,
    threadId,
    ...tablesOf(graph),
    children: childExport(lg),
  };
  const fresh = input !== null && !(input instanceof Command);
  const before = fresh ? { trace: [], supersteps: 0 } : await runSoFar(thread, api);
  const langGraphInput = input instanceof Command ? await langGraphCommand(thread, input, api, before) : input;
  const run = new LangGraphRun(
    runGraph(graph, checkpointer),
    { input: langGraphInput, checkInput: fresh, configurable: threadConfig(thread).configurable, ...before },
    options,
    api,
  );
  if (!fresh) await recordFinished(thread, run.recorder);
  const steps: Step<State>[] = [];
  try {
    for await (const step of run.steps()) steps.push(step);
  } catch (error) {
    // A resume value its interrupt's schema refused: the InterruptError itself, as on the mini engine.
    if (error instanceof GraphExecutionError && error.cause instanceof InterruptError) throw error.cause;
    throw error;
  }
  const end = await threadEnd(thread, run.recorder, run);
  const common = {
    state: cloneState(end.state),
    trace: [...run.trace],
    steps,
    supersteps: run.supersteps,
    threadId,
    checkpointId: end.checkpointId,
    next: end.next,
  };
  return (end.interrupt === undefined
    ? { ...common, status: "done" }
    : { ...common, status: "interrupted", interrupt: end.interrupt }) as unknown as LangGraphThreadResult<S>;
}

/**
 * Runs `graph` on LangGraph.js and yields each step as its superstep commits, like `graph.stream` on
 * the mini engine: in declaration order within a superstep, each with the superstep's merged state.
 * One LangGraph `stream` call in `["tasks", "values"]` mode.
 *
 * @example
 * ```ts
 * for await (const step of streamOnLangGraph(graph, input, { maxSteps: 30 })) console.log(step.node, Object.keys(step.update));
 * ```
 */
export function streamOnLangGraph<S extends object>(
  graph: CompiledGraph<S>,
  input: S,
  options?: LangGraphRunOptions,
): AsyncGenerator<Step<S>> {
  return (async function* () {
    yield* new LangGraphRun(runGraph(graph), plainStart(graph, input), options, "stream").steps();
  })() as unknown as AsyncGenerator<Step<S>>;
}

/** The graph a run drives: its tables, and its export (shared by the runs on the same checkpointer). */
function runGraph(graph: CompiledGraph<object>, checkpointer?: BaseCheckpointSaver): RunGraph {
  return { executable: graphView(graph).executable, langGraph: () => langGraphOf(graph, checkpointer) };
}

/** The exports of a compiled graph, by checkpointer (`NO_CHECKPOINTER` without one). */
const langGraphs = new WeakMap<object, WeakMap<object, Promise<LangGraphGraph>>>();
const NO_CHECKPOINTER = {};

/** One export per compiled graph and checkpointer: the LangGraph graph keeps no run data, so runs can share it. */
function langGraphOf(graph: CompiledGraph<object>, checkpointer?: BaseCheckpointSaver): Promise<LangGraphGraph> {
  let byCheckpointer = langGraphs.get(graph);
  if (byCheckpointer === undefined) {
    byCheckpointer = new WeakMap();
    langGraphs.set(graph, byCheckpointer);
  }
  const key = checkpointer ?? NO_CHECKPOINTER;
  let exported = byCheckpointer.get(key);
  if (exported === undefined) {
    exported = toLangGraphForRun(graph as CompiledGraph<State>, checkpointer === undefined ? {} : { checkpointer });
    byCheckpointer.set(key, exported);
    const cache = byCheckpointer;
    exported.catch(() => cache.delete(key));
  }
  return exported;
}

/** The graph's tables and static-interrupt settings, as the thread reads them. */
function tablesOf(graph: object): { readonly executable: ExecutableGraph; readonly settings: GraphView["settings"] } {
  const { executable, settings } = graphView(graph);
  return { executable, settings };
}
