/**
 * `getState` and `getStateHistory`: a thread's checkpoints as a person reads them. A subgraph's thread
 * (`tasks[i].state.threadId` of `getState(thread, { subgraphs: true })`, LangGraph's subgraph config)
 * reads the same way, by the child graph's tables: the one `graph` leads to along the thread's
 * namespaces (the top-level graph), or `graph` itself (the child's own compiled graph).
 */
import { quote } from "../../_describe.js";
import type { ExecutableGraph } from "../executable.js";
import { childThreadId, taskNamespace } from "../subgraph-thread.js";
import { subgraphOf } from "../subgraph-specs.js";
import type { Checkpoint, Checkpointer, CheckpointWithSubgraphs, SubgraphTask } from "../checkpointer.js";
import { childThreadGone, findChild, isSubgraphThread } from "./child-lookup.js";
import { withPendingWrites } from "./pending-writes.js";
import { InvalidOptionError } from "../../errors.js";
import { checkListOptions } from "./store-options.js";
import { checkThreadOptions } from "./thread-options.js";
import { checkpointNotFound, snapshotOf } from "./thread-start.js";
import { migrateCheckpoint } from "./versions/migrate-checkpoint.js";
import type { GetStateHistoryOptions, GetStateOptions, ThreadSettings } from "./types.js";

/**
 * The thread's latest checkpoint (or the given one), or `undefined` for an unknown thread (or an unknown
 * `checkpointId`). The latest with pending writes reads as LangGraph's view: their updates merged into
 * `state`, and `next` only the tasks still to run; one read by its `checkpointId` reads as saved, as on
 * LangGraph.js. A subgraph's thread with no checkpoint is `SUBGRAPH_NOT_FOUND`.
 */
export async function getThreadState(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  options: GetStateOptions = {},
): Promise<Checkpoint | undefined> {
  const { checkpointer } = checkThreadOptions("getState", settings, { ...options, threadId }, true);
  const child = isSubgraphThread(threadId) ? findChild("getState", graph, threadId) : undefined;
  const stored =
    options.checkpointId === undefined ? await checkpointer.latest(threadId) : await checkpointer.get(threadId, options.checkpointId);
  if (stored === undefined) {
    // A child id is never a new thread: one without checkpoints finished (or never ran there).
    if (child !== undefined && (options.checkpointId === undefined || (await checkpointer.latest(threadId)) === undefined)) {
      throw childThreadGone("getState", child, threadId);
    }
    return undefined;
  }
  const reader = child === undefined ? graph : child.graph;
  // A checkpoint of an older version reads migrated, in memory: nothing is written.
  const checkpoint = migrateCheckpoint("getState", reader, stored);
  if (child !== undefined) snapshotOf("getState", reader, checkpoint);
  // LangGraph's rule: the kept writes show in the latest state only; a checkpoint read by its id reads as
  // it was saved. Failed tasks show their error either way.
  const latest = options.checkpointId === undefined;
  return options.subgraphs === true ? withSubgraphStates(reader, checkpointer, checkpoint, latest) : viewOf(reader, checkpoint, latest);
}

/**
 * `checkpoint` as `getState` shows it, each subgraph task with its child's latest checkpoint, found
 * where the task keeps it: the namespace its interrupts name, or the one its superstep gives a fresh
 * task (a child stopped by a failure or a crash).
 */
async function withSubgraphStates(
  graph: ExecutableGraph,
  checkpointer: Checkpointer,
  checkpoint: Checkpoint,
  latest = true,
): Promise<CheckpointWithSubgraphs> {
  const tasks = await Promise.all(
    checkpoint.tasks.map(async (task, index): Promise<SubgraphTask> => {
      const child = subgraphOf(graph.nodes.get(task.node));
      if (child === undefined) return task;
      const state = await checkpointer.latest(childThreadId(checkpoint.threadId, taskNamespace(checkpoint, task.node, index)));
      return state === undefined ? task : { ...task, state: await withSubgraphStates(child, checkpointer, state) };
    }),
  );
  return { ...viewOf(graph, checkpoint, latest), tasks };
}

/** The checkpoint as `getState` shows it: its failed tasks' errors, and its kept writes merged when it is read as the latest. */
function viewOf(graph: ExecutableGraph, checkpoint: Checkpoint, latest: boolean): Checkpoint {
  return withPendingWrites(graph, checkpoint, latest);
}

/**
 * The thread's checkpoints, newest first, every branch included, as the store lists them (each trace
 * assembled by the store), a failed task with its `error`. A subgraph's thread with no checkpoint is `SUBGRAPH_NOT_FOUND`.
 */
export async function getThreadHistory(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  options: GetStateHistoryOptions = {},
): Promise<Checkpoint[]> {
  const api = "getStateHistory";
  const { checkpointer } = checkThreadOptions(api, settings, { ...options, threadId }, true);
  const child = isSubgraphThread(threadId) ? findChild(api, graph, threadId) : undefined;
  const { limit } = checkListOptions(api, { limit: options.limit });
  const { before } = options;
  if (before !== undefined && (typeof before !== "string" || before === "")) {
    throw new InvalidOptionError(`${api}: before must be a checkpoint id of the thread (a non-empty string); got ${quote(before)}.`);
  }
  // `before` pages through the history in its own order: every branch interleaved, so the whole list is read.
  const listed = await checkpointer.list(threadId, limit === undefined || before !== undefined ? {} : { limit });
  if (child !== undefined) {
    const [latest] = listed;
    if (latest === undefined) throw childThreadGone(api, child, threadId);
    snapshotOf(api, child.graph, latest);
  }
  // As LangGraph's history: each checkpoint as saved, its failed tasks with their error.
  const shown = listed.map((checkpoint) => withPendingWrites(graph, checkpoint, false));
  if (before === undefined) return shown;
  const at = shown.findIndex((checkpoint) => checkpoint.id === before);
  if (at === -1) throw checkpointNotFound(api, threadId, before);
  return shown.slice(at + 1, limit === undefined ? undefined : at + 1 + limit);
}
