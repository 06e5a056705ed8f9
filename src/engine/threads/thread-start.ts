/**
 * Where a threaded run starts: the checkpoint it resumes or forks from (checked against the graph), a
 * new input merged onto a thread's state, and the errors for a thread or checkpoint that is not there.
 */
import { START } from "../../spec.js";
import { cloneState } from "../clone.js";
import type { ExecutableGraph } from "../executable.js";
import { commit, type RunSnapshot } from "../kernel/superstep.js";
import { executionError, inputFailure } from "../run-checks.js";
import { Run } from "../run.js";
import type { RunSettings } from "../run-settings.js";
import type { State } from "../step.js";
import type { Checkpoint, Checkpointer, JsonValue } from "../checkpointer.js";
import { PersistenceError } from "../persistence-errors.js";
import { restoredTasks } from "../send-command.js";

/** The error a resume (`null` or a Command) of a thread without a checkpoint gets. */
export function nothingToResume(api: string, threadId: string): PersistenceError {
  return new PersistenceError(
    "NOTHING_TO_RESUME",
    `${api}: thread "${threadId}" has no checkpoint. Start it with invoke(input, { threadId: "${threadId}", checkpointer }) first.`,
  );
}

export async function startingPoint(
  api: string,
  checkpointer: Checkpointer,
  threadId: string,
  latest: Checkpoint | undefined,
  checkpointId: string | undefined,
): Promise<Checkpoint> {
  if (checkpointId === undefined) {
    if (latest !== undefined) return latest;
    throw nothingToResume(api, threadId);
  }
  const found = await checkpointer.get(threadId, checkpointId);
  if (found !== undefined) return found;
  throw checkpointNotFound(api, threadId, checkpointId);
}

/** The error for a checkpoint id the thread does not have. */
export function checkpointNotFound(api: string, threadId: string, checkpointId: string): PersistenceError {
  return new PersistenceError(
    "CHECKPOINT_NOT_FOUND",
    `${api}: thread "${threadId}" has no checkpoint "${checkpointId}". List its checkpoints with getStateHistory("${threadId}").`,
  );
}

/** A checkpoint as the engine's snapshot, after checking it was written by a graph with the same nodes and joins. */
export function snapshotOf(api: string, graph: ExecutableGraph, checkpoint: Checkpoint): RunSnapshot {
  const unknown = [...checkpoint.tasks, ...(checkpoint.deferred ?? [])].find((task) => !graph.nodes.has(task.node))?.node;
  if (unknown !== undefined || checkpoint.joins.length !== graph.joins.length) {
    const what =
      unknown !== undefined
        ? `names node "${unknown}", which this graph does not have`
        : `records ${checkpoint.joins.length} joins, and this graph has ${graph.joins.length}`;
    throw new PersistenceError(
      "INCOMPATIBLE_CHECKPOINT",
      `${api}: checkpoint "${checkpoint.id}" of thread "${checkpoint.threadId}" ${what}: a different graph wrote it. ` +
        `Resume it with the graph that wrote it, or start a new thread.`,
    );
  }
  const tasks = restoredTasks(checkpoint.tasks);
  return tasks === checkpoint.tasks ? checkpoint : { ...checkpoint, tasks };
}

/**
 * The run of a new input on a thread: on a thread with state (`base`), the input merged onto it through
 * the reducers (an `append` field appends) by the kernel's commit, which validates the merged state
 * against the state schema, so `Run` starts from it without validating it again; on a new thread, or
 * for an input the shape check refuses, `Run` checks the input itself, as on a plain `invoke`.
 */
export function inputRun(graph: ExecutableGraph, base: Checkpoint | undefined, input: unknown, api: string, options: RunSettings): Run {
  if (base === undefined || inputFailure(graph, input) !== undefined) return new Run(graph, input, options);
  const committed = commit(graph, base.state, [{ node: START, sent: false }], [input as State]);
  if (!committed.ok) throw executionError(api, committed.failure, { node: START, state: cloneState(base.state), trace: [] });
  return new Run(graph, committed.state, options, "checked");
}

/** Of `resumes`, the answers to interrupts `from` is waiting for (a child resumed after a crash may wait for others, or none). */
export function answered(from: Checkpoint, resumes: Readonly<Record<string, JsonValue>> | undefined): Record<string, JsonValue> {
  const pending = from.interrupts ?? [];
  if (resumes === undefined || pending.length === 0) return {};
  return Object.fromEntries(
    pending.flatMap((interrupt) => (Object.hasOwn(resumes, interrupt.id) ? [[interrupt.id, resumes[interrupt.id] as JsonValue]] : [])),
  );
}
