/**
 * Threads on LangGraph.js, read and written in the mini engine's terms. LangGraph keeps a thread in its
 * own checkpointer; this file reads its snapshots back as the mini engine's pending interrupts (same
 * ids: `node:superstep:task:index`), turns this library's `Command` into LangGraph's (resume values by
 * LangGraph's interrupt ids), and rebuilds the run's trace from the thread's history.
 */
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import {
  checkGoto,
  commandUpdate,
  nothingToResume,
  staticPause,
  resumeAnswers,
  schedule,
  subgraphEntry,
  type ExecutableGraph,
  type State,
  type Task,
  type GraphView,
} from "../engine/_kernel.js";
import type { AnyCommand, Interrupt, JsonValue, PendingInterrupt } from "../engine/index.js";
import type { ChildExport, LangGraphGraph } from "./_types.js";
import type { LangGraphModule } from "./_load.js";
import type { RunRecorder, TaskRecord } from "./_recorder.js";
import { LangGraphInteropError } from "./errors.js";
import { GOTO_WRITE, ROUTE_WRITE } from "./_hidden.js";
import { START } from "../spec.js";

/** LangGraph's path of a Send task starts with this. */
const PUSH = "__pregel_push";
/** The pending-write channel of a task's resume values. */
const RESUME = "__resume__";
/** Pending-write channels that do not mean a task finished. */
const NOT_FINISHED = new Set(["__interrupt__", "__error__", RESUME, "__scheduled__"]);

/** What a thread run needs of LangGraph: the exported graph, compiled with the thread's checkpointer, and the thread's config. */
export interface LangGraphThread {
  readonly lg: LangGraphModule;
  readonly graph: Pick<LangGraphGraph, "getState" | "getStateHistory">;
  readonly checkpointer: BaseCheckpointSaver;
  readonly threadId: string;
  readonly executable: ExecutableGraph;
  readonly settings: GraphView["settings"];
  /** The exports of the graph's subgraph nodes' children. */
  readonly children: ChildExport;
  /** For a subgraph's child: its LangGraph `checkpoint_ns` under the thread (`node:task|node:task…`). */
  readonly ns?: string;
}

/** A pending interrupt as the mini engine names it, with the id LangGraph resumes it by. */
interface PendingOnLangGraph extends PendingInterrupt {
  readonly langGraphId: string;
}

/** A snapshot's next tasks, in the mini engine's order: declaration order, plain tasks before Sends. */
function scheduledTasks(executable: ExecutableGraph, snapshot: StateSnapshot) {
  const tasks = snapshot.tasks.map((task) => ({ task, node: task.name, sent: task.path?.[0] === PUSH }));
  return schedule(executable, tasks);
}

/** The thread's config, for LangGraph's `getState`, `stream` and `getStateHistory`. */
export function threadConfig(thread: LangGraphThread): { configurable: { thread_id: string } } {
  return { configurable: { thread_id: thread.threadId, ...childConfig(thread) } };
}

/**
 * What a child's config adds: its namespace, and the checkpointer (LangGraph reads a child's state by
 * its namespace only with the checkpointer lent, as its own running parent lends it).
 */
function childConfig(thread: LangGraphThread): Record<string, unknown> {
  return thread.ns === undefined ? {} : { checkpoint_ns: thread.ns, __pregel_checkpointer: thread.checkpointer };
}

/**
 * The thread's latest checkpoint as the mini engine sees it: its state (with a Command's update, not
 * with the writes of tasks that finished in a superstep that paused: that superstep has not committed)
 * and all the tasks of its next superstep. `undefined` for a thread without a checkpoint.
 */
async function latestSnapshot(thread: LangGraphThread): Promise<StateSnapshot | undefined> {
  const latest = await thread.graph.getState(threadConfig(thread));
  if (latest.config.configurable?.["checkpoint_id"] === undefined) return undefined;
  // Named by its id, LangGraph reads the checkpoint without applying its tasks' pending writes.
  return thread.graph.getState({ ...latest.config, configurable: { ...latest.config.configurable, ...childConfig(thread) } });
}

/** Whether the thread (a child's: its namespace) has a checkpoint. */
export async function hasCheckpoint(thread: LangGraphThread): Promise<boolean> {
  const latest = await thread.graph.getState(threadConfig(thread));
  return latest.config.configurable?.["checkpoint_id"] !== undefined;
}

/**
 * The interrupts the thread waits for, with the mini engine's ids: `superstep` is the run's superstep
 * of the pending tasks, the task its position in the superstep in declaration order, the index how
 * many of that task's `interrupt` calls were answered already (LangGraph's resume writes for the task).
 * A task that finished since (a sibling was answered) waits for nothing. `names` gives each task's
 * `defineInterrupt` name by LangGraph task id (a child's tasks too), which LangGraph does not keep.
 */
async function pendingInterrupts(
  thread: LangGraphThread,
  snapshot: StateSnapshot,
  superstep: number,
  names: ReadonlyMap<string, string> = new Map(),
): Promise<PendingOnLangGraph[]> {
  const tasks = scheduledTasks(thread.executable, snapshot);
  if (!tasks.some(({ task }) => task.interrupts.length > 0)) return [];
  const writes = (await thread.checkpointer.getTuple(snapshot.config))?.pendingWrites ?? [];
  const pending: PendingOnLangGraph[] = [];
  for (const [position, { task, node }] of tasks.entries()) {
    const own = writes.filter(([id]) => id === task.id);
    if (own.some(([, channel]) => !NOT_FINISHED.has(channel))) continue;
    // A subgraph task paused by its child: the child's interrupts, named as the mini engine names them.
    const prefix = `${node}:${superstep}:${position}/`;
    const nested = await childInterrupts(thread, node, task.id, names);
    if (nested !== undefined) {
      pending.push(...nested.map((p) => ({ ...p, id: prefix + p.id, ns: [nested.ns, ...(p.ns ?? [])] })));
      continue;
    }
    const answered = own.filter(([, channel]) => channel === RESUME).flatMap(([, , value]) => value).length;
    const name = names.get(task.id);
    pending.push(
      ...task.interrupts.map((interrupt) => ({
        id: `${node}:${superstep}:${position}:${answered}`,
        langGraphId: interrupt.id ?? "",
        node,
        ...(name === undefined ? {} : { name }),
        value: interrupt.value as JsonValue,
      })),
    );
  }
  return pending;
}

/**
 * The interrupts a subgraph task's child waits at, read from the child's own checkpoints (LangGraph's
 * `checkpoint_ns` of the task), with the ids the child knows them by; `undefined` when the node is not
 * a subgraph exported as a LangGraph child, or its child has no checkpoint there.
 */
async function childInterrupts(
  thread: LangGraphThread,
  node: string,
  taskId: string,
  names: ReadonlyMap<string, string>,
): Promise<(PendingOnLangGraph[] & { ns: string }) | undefined> {
  const subgraph = subgraphEntry.graphOf(thread.executable.nodes.get(node));
  const exported = subgraph === undefined ? undefined : thread.children(subgraph.graph, subgraph.spec);
  if (exported === undefined) return undefined;
  const part = `${node}:${taskId}`;
  const child: LangGraphThread = {
    ...thread,
    graph: exported.graph,
    executable: exported.executable,
    settings: { interruptBefore: new Set(), interruptAfter: new Set() },
    ns: thread.ns === undefined ? part : `${thread.ns}|${part}`,
  };
  const snapshot = await latestSnapshot(child);
  if (snapshot === undefined) return undefined;
  const before = await runSoFar(child, "invoke");
  const pending = await pendingInterrupts(child, snapshot, before.supersteps + 1, names);
  return pending.length === 0 ? undefined : Object.assign(pending, { ns: part });
}

/**
 * LangGraph's input for this library's Command on the thread: the resume values by LangGraph's
 * interrupt ids, the update, the `goto`. The mini engine's checks run first, so a resume that does not
 * fit the pending interrupts, an undeclared update field or an unknown `goto` fails with its error.
 */
export async function langGraphCommand(thread: LangGraphThread, command: AnyCommand, api: string, before: RunSoFar): Promise<unknown> {
  const snapshot = await latestSnapshot(thread);
  if (snapshot === undefined) throw nothingToResume(api, thread.threadId);
  const pending = await pendingInterrupts(thread, snapshot, before.supersteps + 1);
  const params: { resume?: Record<string, unknown>; update?: State; goto?: string[] } = {};
  if (command.resume !== undefined) {
    const answers = resumeAnswers(api, thread.threadId, pending, command.resume);
    params.resume = Object.fromEntries(pending.filter((p) => Object.hasOwn(answers, p.id)).map((p) => [p.langGraphId, answers[p.id]]));
  }
  if (command.update !== undefined) {
    commandUpdate(api, thread.executable, { state: snapshot.values as State, trace: before.trace }, command.update);
    params.update = command.update as State;
  }
  if (command.goto !== undefined) {
    checkGoto(
      api,
      thread.executable,
      command.goto.map((target) => (typeof target === "string" ? target : target.node)),
    );
    if (snapshot.next.length > 0) {
      throw new LangGraphInteropError(
        "LANGGRAPH_COMMAND_GOTO",
        `${api}: thread "${thread.threadId}" has pending tasks (${snapshot.next.join(", ")}). On LangGraph.js a Command's goto runs ` +
          `beside them, while the mini engine runs it instead of them, so it cannot be mapped. Resume the pending tasks first, or run the thread on the mini engine.`,
      );
    }
    params.goto = command.goto.map((target) => (typeof target === "string" ? target : target.node));
  }
  return new thread.lg.Command(params);
}

/** What the thread's current run did before this invocation. */
export interface RunSoFar {
  readonly trace: readonly string[];
  readonly supersteps: number;
}

/**
 * Records the updates (and Command gotos, and routes) of the tasks that finished in the thread's paused superstep
 * (their pending writes): LangGraph does not run them again on resume, and the superstep's steps report them.
 */
export async function recordFinished(thread: LangGraphThread, recorder: RunRecorder): Promise<void> {
  const snapshot = await latestSnapshot(thread);
  if (snapshot === undefined) return;
  const writes = (await thread.checkpointer.getTuple(snapshot.config))?.pendingWrites ?? [];
  for (const task of snapshot.tasks) {
    const own = writes.filter(([id]) => id === task.id);
    if (!own.some(([, channel]) => !NOT_FINISHED.has(channel))) continue;
    const record = recorder.task(task.id, task.name);
    // Only the writes to state fields: LangGraph also writes its edges' channels (`branch:to:…`, joins).
    const fields = own.filter(([, channel]) => thread.executable.fields?.has(channel) === true);
    record.update = Object.fromEntries(fields.map(([, channel, value]) => [channel, value]));
    // Its Command goto, which LangGraph keeps only as branch writes (see GOTO_WRITE).
    const goto = own.find(([, channel]) => channel === GOTO_WRITE);
    if (goto !== undefined) record.goto = goto[2] as Task[];
    const routed = own.find(([, channel]) => channel === ROUTE_WRITE)?.[2] as Pick<TaskRecord, "routes" | "list"> | undefined;
    if (routed !== undefined) {
      record.routes = routed.routes;
      record.list = routed.list;
    }
    record.finish();
  }
}

/**
 * The trace and supersteps of the thread's current run before this invocation: the nodes of each
 * superstep LangGraph committed since the run's input (the `input` checkpoint that starts at START; a
 * Command's update is an `input` checkpoint too, in the middle of the run), in declaration order.
 * @throws PersistenceError `NOTHING_TO_RESUME` for a thread without a checkpoint, as on the mini engine.
 */
export async function runSoFar(thread: LangGraphThread, api: string): Promise<RunSoFar> {
  const history: StateSnapshot[] = [];
  for await (const snapshot of thread.graph.getStateHistory(threadConfig(thread))) {
    history.push(snapshot);
    if (snapshot.metadata?.source === "input" && snapshot.next.includes(START)) break;
  }
  if (history.length === 0) throw nothingToResume(api, thread.threadId);
  const trace: string[] = [];
  let supersteps = 0;
  // Oldest first: a "loop" checkpoint after step 0 (START's task) commits the tasks its parent listed.
  for (let i = history.length - 2; i >= 0; i--) {
    const after = history[i] as StateSnapshot;
    if (after.metadata?.source !== "loop" || (after.metadata.step ?? 0) < 1) continue;
    supersteps += 1;
    trace.push(...scheduledTasks(thread.executable, history[i + 1] as StateSnapshot).map(({ node }) => node));
  }
  return { trace, supersteps };
}

/** Where the thread stands after an invocation: its state, next nodes, checkpoint, and the interrupt it waits at. */
export interface ThreadEnd {
  readonly state: State;
  readonly next: string[];
  readonly checkpointId: string;
  readonly interrupt: Interrupt | undefined;
}

/**
 * Reads the thread's latest snapshot. `lastSuperstep` is the nodes of the invocation's last committed
 * superstep: a pause that is not an in-node interrupt is `after` them when one of them is an
 * `interruptAfter` node, else `before` the next ones.
 */
export async function threadEnd(
  thread: LangGraphThread,
  recorder: RunRecorder,
  run: { readonly lastSuperstep: readonly string[]; readonly supersteps: number },
): Promise<ThreadEnd> {
  const snapshot = await latestSnapshot(thread);
  if (snapshot === undefined) throw nothingToResume("invoke", thread.threadId);
  const pending = await pendingInterrupts(thread, snapshot, run.supersteps + 1, recorder.interruptNames);
  const next = [...new Set(scheduledTasks(thread.executable, snapshot).map(({ node }) => node))];
  const checkpointId = String(snapshot.config.configurable?.["checkpoint_id"] ?? "");
  const state = snapshot.values as State;
  if (next.length === 0) return { state, next, checkpointId, interrupt: undefined };
  let interrupt: Interrupt;
  if (pending.length > 0) {
    const interrupts = pending.map(({ langGraphId: _, ...rest }) => rest);
    interrupt = { when: "during", nodes: [...new Set(interrupts.map((p) => p.node))], interrupts };
  } else {
    // LangGraph's own loop paused at a boundary: where, as the kernel decides it (before none, when it paused for another reason).
    interrupt = staticPause(
      thread.settings,
      run.lastSuperstep,
      next.map((node) => ({ node })),
      false,
    ) ?? { when: "before", nodes: [] };
  }
  return { state, next, checkpointId, interrupt };
}
