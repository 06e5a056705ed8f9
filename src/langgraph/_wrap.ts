/**
 * The graph's functions as LangGraph.js calls them. Each wrapper runs the engine's own step code
 * (runNode, successorsOf, mergeUpdate), so a node gets the same isolated copy (or its Send's input),
 * its update the same validation and copy, and a reducer the same detached `current` on both engines.
 */
import type { Command as LangGraphCommand, Send as LangGraphSend } from "@langchain/langgraph";
import { sendInputCodec, StepFailure, taskEntry, type ExecutableGraph, type State, type Successors, type Task } from "../engine/_kernel.js";
import { isThenable } from "../_thenable.js";
import { mergeUpdate, type Reducer } from "../engine/index.js";
import { END, START } from "../spec.js";
import type { ChildExport } from "./_types.js";
import { CHILD_UPDATE, GOTO_WRITE, ROUTE_WRITE, visibleState } from "./_hidden.js";
import { LangGraphInterruptFrame } from "./_interrupt.js";
import type { LangGraphModule } from "./_load.js";
import { mergeRank, rankValues, type MergeRank } from "./_order.js";
import { recorderOf, SuperstepRefused, taskIdOf, type RunRecorder, type TaskRecord } from "./_recorder.js";
import { LangGraphNodeError } from "./errors.js";

/**
 * A node as LangGraph.js calls it: `(state, config)`; a Send task gets the Send's input as `state`. It
 * returns its update, or LangGraph's `Command({ update, goto })` when the node's own Command had a goto.
 */
export type LangGraphNode = (state: State, config?: unknown) => LangGraphUpdate | Promise<LangGraphUpdate>;

/**
 * What a wrapped node hands LangGraph.js: an update, LangGraph's Command carrying one with its goto, or
 * a list of Commands (a node's list of Commands that wrote a field twice: each write, in order).
 */
export type LangGraphUpdate = State | LangGraphCommand | LangGraphCommand[];

/** What a conditional edge's path function returns: a route key, a LangGraph `Send`, or a list of them. */
export type LangGraphRoute = string | LangGraphSend | (string | LangGraphSend)[];

/** A conditional edge's path function as LangGraph.js calls it. */
export type LangGraphPath = (state: State, config?: unknown) => LangGraphRoute | Promise<LangGraphRoute>;

/**
 * Runs `node` as the mini engine does; a failure becomes a {@link LangGraphNodeError} naming the node.
 * Its `interrupt` calls go to LangGraph's `interrupt()` (see `_interrupt.ts`). In a run of
 * `runOnLangGraph` the node first waits for the run to admit its superstep, and reports its update,
 * failure or pause to the run's recorder.
 */
export function wrapNode(lg: LangGraphModule, graph: ExecutableGraph, node: string, exported: ExportedAs): LangGraphNode {
  const order = graph.order.get(node) ?? 0;
  return (state, config) => {
    const recorder = recorderOf(config);
    const taskId = taskIdOf(config);
    const task: WrappedTask = { lg, graph, node, exported, rank: mergeRank(order, config), record: undefined, recorder, taskId };
    const visible = visibleState(sendInputCodec.restored(state));
    if (recorder === undefined || taskId === undefined) return run(task, visible, config);
    const record = recorder.task(taskId, node);
    return recorder.admission(taskId, fieldOf(config, "writer")).then(() => run({ ...task, record }, visible, config));
  };
}

/** How the graph a node belongs to is exported: the top-level graph, or a subgraph node's child. */
export interface ExportedAs {
  /** Exports the children of the graph's subgraph nodes (see `_child.ts`). */
  readonly children: ChildExport;
  /** Whether the graph is a child: each node also writes its update to `CHILD_UPDATE`. */
  readonly child: boolean;
}

/** One call of a wrapped node. */
interface WrappedTask {
  readonly lg: LangGraphModule;
  readonly graph: ExecutableGraph;
  readonly node: string;
  readonly exported: ExportedAs;
  readonly rank: MergeRank;
  readonly record: TaskRecord | undefined;
  /** The run's recorder (none in a plain LangGraph `invoke`), and LangGraph's id of the task. */
  readonly recorder: RunRecorder | undefined;
  readonly taskId: string | undefined;
}

function run(
  { lg, graph, node, exported, rank, record, recorder, taskId }: WrappedTask,
  state: State,
  config: unknown,
): LangGraphUpdate | Promise<LangGraphUpdate> {
  const signal = signalOf(config);
  const context = taskEntry.context(node, { signal, superstep: stepOf(config), threadId: threadIdOf(config), writer: writerOf(config) });
  const interruptNames = recorder?.interruptNames ?? new Map<string, string>();
  const frame = new LangGraphInterruptFrame({ lg, children: exported.children, config, interruptNames });
  // A node that paused ends with LangGraph's GraphInterrupt, whatever it returned or threw after it.
  const paused = (): never => {
    if (frame.pausedName !== undefined && taskId !== undefined) interruptNames.set(taskId, frame.pausedName);
    if (record !== undefined) {
      record.paused = true;
      record.finish();
    }
    throw frame.interruption;
  };
  const succeeded = (output: State): LangGraphUpdate => {
    if (frame.paused) return paused();
    // A node's Command goto travels in its update under the engine's reserved key; LangGraph gets its own Command.
    const { update, parts, goto } = taskEntry.output(output);
    if (record !== undefined) {
      record.update = update;
      record.goto = goto;
      record.finish();
      // The last node of a superstep to return: a merged state the schema refuses fails the superstep here.
      const refused = taskId === undefined ? undefined : recorder?.refusal(taskId);
      if (refused !== undefined) throw refused;
    }
    if (goto !== undefined) sendOf(config)?.([[GOTO_WRITE, goto]]);
    // A child's node also folds its update into the child's hidden channel, which its parent reads: once,
    // with the last part, so that a list of Commands writes the channel once.
    const last = parts.length - 1;
    const written = parts.map((part, index) =>
      rankValues(exported.child && index === last ? { ...part, [CHILD_UPDATE]: Object.assign({}, ...parts) } : part, rank),
    );
    const withGoto = (part: State): LangGraphUpdate => (goto === undefined ? part : langGraphCommand(lg, graph, node, part, goto, config));
    if (written.length === 1) return withGoto(written[0] as State);
    // LangGraph writes a list of Commands' updates in order, as the kernel's commit merges the parts.
    return written.map((part, index) =>
      index === last ? langGraphCommand(lg, graph, node, part, goto ?? [], config) : new lg.Command({ update: part }),
    );
  };
  const failed = (error: unknown): never => {
    if (error instanceof SuperstepRefused) throw error;
    if (frame.paused) return paused();
    if (record !== undefined) {
      record.nodeFailure = { error };
      // LangGraph aborts the signal of a superstep's other tasks when one fails, as the mini engine does.
      record.cancelled = taskEntry.cancelled(context, signal);
      record.finish();
    }
    return rethrow(node, error);
  };
  try {
    // A Send task gets its input as `state` from LangGraph: it runs as a plain task on that input.
    // Without LangGraph's checkpointer nothing can pause: `interrupt()` fails as on a plain mini-engine run.
    const update = taskEntry.run(graph, { node, sent: false }, state, context, hasCheckpointer(config) ? frame : undefined);
    return isThenable(update) ? Promise.resolve(update).then(succeeded, failed) : succeeded(update);
  } catch (error) {
    return failed(error);
  }
}

/**
 * LangGraph's `Command({ update, goto })` for a node's Command: each goto name is a `branch:to:` write
 * (the node is exported with LangGraph's `ends`), each Send a Send; a goto to END adds nothing on
 * either engine, so it is left out. A node's edge, route or join still applies on both engines.
 *
 * One ordering differs: LangGraph runs a node's Command goto before its conditional edge, so a Send of
 * the goto would run (and merge) before the router's Sends to the same node, where the mini engine
 * runs the router's first. So a routed node's goto Sends are held for its router, which returns them
 * after its own (see {@link wrapRouter}); the node and its router run in one LangGraph task.
 */
function langGraphCommand(
  lg: LangGraphModule,
  graph: ExecutableGraph,
  node: string,
  update: State,
  goto: readonly Task[],
  config: unknown,
): LangGraphCommand {
  const targets = goto.filter((task) => task.node !== END);
  const taskId = taskIdOf(config);
  const routed = graph.transitions.get(node)?.kind === "route" && taskId !== undefined;
  const sends = targets.filter((task) => task.sent).map((task) => langGraphSend(lg, task));
  if (routed && sends.length > 0) heldSends.set(taskId, sends);
  const destinations = targets.flatMap((task): (string | LangGraphSend)[] => {
    if (!task.sent) return [task.node];
    return routed ? [] : [langGraphSend(lg, task)];
  });
  return new lg.Command({ update, goto: destinations });
}

/**
 * LangGraph's Send for a task: a Command input goes in its stored form, which LangGraph's checkpointer
 * keeps as it is (it would turn our Command into a plain object); the wrapped node restores it.
 */
function langGraphSend(lg: LangGraphModule, task: Task): LangGraphSend {
  return new lg.Send(task.node, sendInputCodec.stored(task.input));
}

/** The goto Sends of a routed node, by LangGraph task id, from the node's return until its router runs. */
const heldSends = new Map<string, LangGraphSend[]>();

/** Takes the goto Sends held for the router of task `taskId` (none when its node had none). */
function takeHeldSends(taskId: string | undefined): LangGraphSend[] {
  if (taskId === undefined) return [];
  const sends = heldSends.get(taskId) ?? [];
  heldSends.delete(taskId);
  return sends;
}

/**
 * The router of `source`, run by the engine's `successorsOf`, so a key outside the path map fails with
 * the mini engine's message instead of LangGraph's generic one. Route keys go through LangGraph's path
 * map; each of our Sends becomes a LangGraph `Send` to the node its key names.
 */
export function wrapRouter(lg: LangGraphModule, graph: ExecutableGraph, source: string): LangGraphPath {
  return (state, config) => {
    const recorder = recorderOf(config);
    const taskId = taskIdOf(config);
    const held = takeHeldSends(taskId);
    const taken = (successors: Successors): LangGraphRoute => {
      recorder?.routed(source, taskId, successors.routes, successors.list);
      if (source !== START) sendOf(config)?.([[ROUTE_WRITE, { routes: successors.routes, list: successors.list }]]);
      const value = routeValue(lg, source, successors);
      return held.length === 0 ? value : [...(Array.isArray(value) ? value : [value]), ...held];
    };
    const failed = (error: unknown): never => {
      if (recorder !== undefined && taskId !== undefined) recorder.task(taskId, source).routerFailure = { error };
      return rethrow(source, error);
    };
    try {
      const io = { signal: signalOf(config), superstep: Math.max(stepOf(config), 0), threadId: threadIdOf(config) };
      const successors = taskEntry.route(graph, source, visibleState(state), io);
      return isThenable(successors) ? Promise.resolve(successors).then(taken).catch(failed) : taken(successors);
    } catch (error) {
      return failed(error);
    }
  };
}

function routeValue(lg: LangGraphModule, source: string, successors: Successors): LangGraphRoute {
  const values = successors.routes.map((route, index): string | LangGraphSend => {
    const task = successors.tasks[index];
    // A Send to END ends that branch on the mini engine; LangGraph refuses a Send to END, so pass the key.
    return task?.sent && task.node !== END ? langGraphSend(lg, task) : route.key;
  });
  if (successors.list) return values;
  const [value] = values;
  if (value === undefined) throw new StepFailure("UNKNOWN_ROUTE_KEY", `the router after "${source}" chose no route.`);
  return value;
}

/** A field's reducer as a LangGraph channel reducer, merged by the engine's `mergeUpdate`. */
export function wrapReducer(field: string, reducer: Reducer<unknown>): (current: unknown, update: unknown) => unknown {
  const table = new Map([[field, reducer]]);
  // mergeUpdate throws a ReducerFailure naming the field; runOnLangGraph names the node.
  return (current, update) => mergeUpdate({ [field]: current }, { [field]: update }, table)[field];
}

function rethrow(node: string, error: unknown): never {
  if (error instanceof LangGraphNodeError || !(error instanceof StepFailure)) throw error;
  throw new LangGraphNodeError(error.code, node, error.message, "cause" in error ? { cause: error.cause } : undefined);
}

/** The run's signal as LangGraph passes it to a task (`config.signal`). */
function signalOf(config: unknown): AbortSignal | undefined {
  const signal = fieldOf(config, "signal");
  return signal instanceof AbortSignal ? signal : undefined;
}

/**
 * The superstep a task runs in: LangGraph's `langgraph_step`, which counts as the mini engine does (the
 * input is step -1, START's task step 0, the first nodes step 1).
 */
function stepOf(config: unknown): number {
  const step = fieldOf(fieldOf(config, "metadata"), "langgraph_step");
  return typeof step === "number" ? step : 0;
}

/** Whether the LangGraph graph running the task was compiled with a checkpointer (which it needs to pause). */
function hasCheckpointer(config: unknown): boolean {
  return fieldOf(fieldOf(config, "configurable"), "__pregel_checkpointer") !== undefined;
}

/** LangGraph's writer of the task's pending writes (`__pregel_send`), which it saves when the task finishes. */
function sendOf(config: unknown): ((writes: [string, unknown][]) => void) | undefined {
  const send = fieldOf(fieldOf(config, "configurable"), "__pregel_send");
  return typeof send === "function" ? (send as (writes: [string, unknown][]) => void) : undefined;
}

function threadIdOf(config: unknown): string | undefined {
  const threadId = fieldOf(fieldOf(config, "configurable"), "thread_id");
  return typeof threadId === "string" ? threadId : undefined;
}

/** LangGraph's writer for its `custom` stream mode, when the run streams it. */
function writerOf(config: unknown): ((node: string, event: unknown) => void) | undefined {
  const writer = fieldOf(config, "writer");
  return typeof writer === "function" ? (node, event) => (writer as (chunk: unknown) => void)({ node, event }) : undefined;
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
