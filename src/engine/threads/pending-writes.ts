/**
 * Pending writes on threads (LangGraph's `putWrites`): while a parallel superstep runs, each task that
 * succeeds is stored at once with the checkpoint the superstep started from, so neither a sibling's
 * failure nor a killed process runs it again. A resume hands the stored writes to `Run.restore`, which
 * runs only the other tasks and commits them all together.
 */
import { GraphExecutionError } from "../../errors.js";
import { commitKept } from "../kernel/updates.js";
import { TASK_FAILURE_CODES } from "../kernel/error-handlers.js";
import { taskError } from "../stream-tasks.js";
import type { ExecutableGraph } from "../executable.js";
import type { TaskWrite } from "../run-settings.js";
import type { Checkpoint, Checkpointer, CheckpointWrite } from "../checkpointer.js";
import type { TaskError } from "../run-types.js";
import { PersistenceError } from "../persistence-errors.js";
import { findNonJson } from "../json-check.js";

/**
 * Stores a threaded run's pending writes as its tasks succeed. `keep` is the run's `onWrite`; `settled`
 * waits for what it started, so the superstep's checkpoint is never saved before its writes are.
 * @internal
 */
export class WriteKeeper {
  readonly #checkpointer: Checkpointer;
  readonly #threadId: string;
  /** Resolves once the checkpoint a write names is stored (an async run stores it behind the run). */
  readonly #ready: () => Promise<void>;
  #checkpointId: string | undefined;
  /** The tasks of the current superstep whose update this run kept. */
  #keptTasks = new Set<number>();
  /** Each store started, settled (a failed one to `undefined`), so none is left unhandled. */
  #stores: Promise<void>[] = [];

  /** `keeps: false` (exit durability): nothing is stored before the run's end, pending writes included. */
  readonly #keeps: boolean;

  constructor(checkpointer: Checkpointer, threadId: string, ready: () => Promise<void> = () => Promise.resolve(), keeps = true) {
    this.#checkpointer = checkpointer;
    this.#threadId = threadId;
    this.#ready = ready;
    this.#keeps = keeps;
  }

  /** The checkpoint the next superstep starts from: its writes are kept there. */
  startingAt(checkpointId: string): void {
    this.#checkpointId = checkpointId;
    this.#keptTasks = new Set();
  }

  readonly keep = (write: TaskWrite): void => {
    const checkpointId = this.#checkpointId;
    // An update that is not JSON cannot be stored; the superstep's checkpoint refuses it by name (NOT_SERIALIZABLE).
    if (checkpointId === undefined || findNonJson(write.update, "update") !== undefined) return;
    const { task, node, update } = write;
    this.#keptTasks.add(task);
    // A store that fails (at once or later) kept nothing: the task runs again on resume.
    const store = () => this.#checkpointer.putWrites(this.#threadId, checkpointId, [{ task, node, update }]);
    this.#stores.push(
      this.#ready()
        .then(store)
        .catch(() => undefined),
    );
  };

  /**
   * Records why a task of the superstep starting at `from` failed, as LangGraph.js 1.7.3 records its
   * `__error__` write: a reserved pending write (see {@link failureWrite}) that `getState` shows as the
   * task's `error` and that a resume skips (the task runs again). Only a node's own failure is a task's;
   * the task is the first of that node without a kept update (the error names a node, not a `Send`).
   * Best effort, as any kept write.
   */
  failed(error: unknown, from: Checkpoint | undefined): void {
    const checkpointId = this.#checkpointId;
    if (!this.#keeps || checkpointId === undefined || from === undefined || from.id !== checkpointId) return;
    if (!(error instanceof GraphExecutionError && TASK_FAILURES.has(error.code))) return;
    const node = error.path[0] ?? error.node;
    const done = new Set([...this.#keptTasks, ...(from.pendingWrites ?? []).map((write) => write.task)]);
    const task = from.tasks.findIndex((candidate, index) => candidate.node === node && !done.has(index));
    if (task < 0) return;
    const write = failureWrite(task, node, taskError(error));
    this.#stores.push(
      this.#ready()
        .then(() => this.#checkpointer.putWrites(this.#threadId, checkpointId, [write]))
        .catch(() => undefined),
    );
  }

  /**
   * Waits for every store started, so a superstep's checkpoint is never saved before its writes. A
   * store that failed is not an error of the run: a write not kept only means its task runs again on
   * resume (at least once, as the node in flight), and the checkpoint's own save reports a broken store.
   * `undefined` when none was started (a superstep of one task never stores one).
   */
  settled(): Promise<void> | undefined {
    const stores = this.#stores;
    if (stores.length === 0) return undefined;
    this.#stores = [];
    return Promise.all(stores).then(() => undefined);
  }
}

/** The codes of a task's own failure: its node threw or timed out, or returned an update it may not, or its error handler threw. */
const TASK_FAILURES: ReadonlySet<string> = new Set([...TASK_FAILURE_CODES, "ERROR_HANDLER_FAILED"]);

/**
 * The reserved key of a failed task's write. A store keeps `{ task, node, update }`, so the failure
 * rides in `update` under a key no node can write (it is not a declared field; a node that returned
 * it without `fields` would only show as a failure on `getState`, never merge into the state).
 */
const TASK_FAILED = "__tsg_error__";

/**
 * The pending write that records why task `task` failed: it holds the task's place in the checkpoint's
 * writes, so a store keeps it as it keeps a success (its first write per task).
 *
 * @example
 * ```ts
 * failureWrite(1, "two", { name: "Error", message: "I'm not good" });
 * // { task: 1, node: "two", update: { __tsg_error__: { name: "Error", message: "I'm not good" } } }
 * ```
 */
export function failureWrite(task: number, node: string, error: TaskError): CheckpointWrite {
  return { task, node, update: { [TASK_FAILED]: { ...error } } };
}

/** The failure a kept write records, or `undefined` for a task's update. */
export function failureOf(write: CheckpointWrite): TaskError | undefined {
  const { update } = write;
  const keys = Object.keys(update);
  if (keys.length !== 1 || keys[0] !== TASK_FAILED) return undefined;
  const error = update[TASK_FAILED];
  if (typeof error !== "object" || error === null) return undefined;
  const { name, code, message } = error as Record<string, unknown>;
  if (typeof name !== "string" || typeof message !== "string") return undefined;
  return typeof code === "string" ? { name, code, message } : { name, message };
}

/**
 * The writes stored with `checkpoint`, checked against its tasks: each names a task it has, by position
 * and node. Anything else was written for another graph (or damaged): `INCOMPATIBLE_CHECKPOINT`.
 */
export function keptWrites(api: string, checkpoint: Checkpoint): TaskWrite[] {
  const writes = checkpoint.pendingWrites ?? [];
  for (const write of writes) {
    const task = checkpoint.tasks[write.task];
    if (task?.node === write.node) continue;
    throw new PersistenceError(
      "INCOMPATIBLE_CHECKPOINT",
      `${api}: checkpoint "${checkpoint.id}" of thread "${checkpoint.threadId}" keeps a write of "${write.node}" for task ${write.task}, ` +
        `but ${task === undefined ? `it has ${checkpoint.tasks.length} tasks` : `that task is "${task.node}"`}: a different graph (or store) wrote it. ` +
        "Resume it with the graph that wrote it, or start a new thread.",
      { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
    );
  }
  // A failure's write is no update: its task runs again.
  return writes.filter((write) => failureOf(write) === undefined).map(({ task, node, update }) => ({ task, node, update }));
}

/**
 * LangGraph's view of a checkpoint with pending writes, for `getState` (LangGraph.js 1.7.3's
 * `_prepareStateSnapshot`): each failed task carries its `error`, read by id or as the latest. Read as
 * the latest (`merge`), the state has the kept updates merged (in task order) and `next` names only the
 * tasks still to run (a failed task is one). Nothing is committed: a resume still runs the rest on the
 * checkpoint's own state.
 */
export function withPendingWrites(graph: ExecutableGraph, checkpoint: Checkpoint, merge: boolean): Checkpoint {
  const writes = checkpoint.pendingWrites;
  if (writes === undefined || writes.length === 0) return checkpoint;
  const failures = new Map(
    writes.flatMap((write) => {
      const error = failureOf(write);
      return error === undefined ? [] : [[write.task, error] as const];
    }),
  );
  const tasks =
    failures.size === 0
      ? checkpoint.tasks
      : checkpoint.tasks.map((task, index) => {
          const error = failures.get(index);
          return error === undefined ? task : { ...task, error };
        });
  const updates = writes.filter((write) => !failures.has(write.task));
  if (!merge || updates.length === 0) return { ...checkpoint, tasks };
  const committed = commitKept(graph, checkpoint.state, checkpoint.tasks, updates);
  if (!committed.ok) return { ...checkpoint, tasks };
  const done = new Set(updates.map((write) => write.task));
  return {
    ...checkpoint,
    tasks,
    state: committed.state,
    next: checkpoint.tasks.filter((_, index) => !done.has(index)).map((task) => task.node),
  };
}
