/**
 * Pending writes on threads (LangGraph's `putWrites`): while a parallel superstep runs, each task that
 * succeeds is stored at once with the checkpoint the superstep started from, so neither a sibling's
 * failure nor a killed process runs it again. A resume hands the stored writes to `Run.restore`, which
 * runs only the other tasks and commits them all together.
 */
import { commitKept } from "../kernel/updates.js";
import type { ExecutableGraph } from "../executable.js";
import type { TaskWrite } from "../run-settings.js";
import type { Checkpoint, Checkpointer } from "../checkpointer.js";
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
  /** Each store started, settled (a failed one to `undefined`), so none is left unhandled. */
  #stores: Promise<void>[] = [];

  constructor(checkpointer: Checkpointer, threadId: string, ready: () => Promise<void> = () => Promise.resolve()) {
    this.#checkpointer = checkpointer;
    this.#threadId = threadId;
    this.#ready = ready;
  }

  /** The checkpoint the next superstep starts from: its writes are kept there. */
  startingAt(checkpointId: string): void {
    this.#checkpointId = checkpointId;
  }

  readonly keep = (write: TaskWrite): void => {
    const checkpointId = this.#checkpointId;
    // An update that is not JSON cannot be stored; the superstep's checkpoint refuses it by name (NOT_SERIALIZABLE).
    if (checkpointId === undefined || findNonJson(write.update, "update") !== undefined) return;
    const { task, node, update } = write;
    // A store that fails (at once or later) kept nothing: the task runs again on resume.
    const store = () => this.#checkpointer.putWrites(this.#threadId, checkpointId, [{ task, node, update }]);
    this.#stores.push(
      this.#ready()
        .then(store)
        .catch(() => undefined),
    );
  };

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
  return writes.map(({ task, node, update }) => ({ task, node, update }));
}

/**
 * LangGraph's view of a checkpoint with pending writes, for `getState`: the state with the kept writes
 * merged (in task order) and `next` naming only the tasks still to run. Nothing is committed: a resume
 * still runs the rest on the checkpoint's own state.
 */
export function withPendingWrites(graph: ExecutableGraph, checkpoint: Checkpoint): Checkpoint {
  const writes = checkpoint.pendingWrites;
  if (writes === undefined || writes.length === 0) return checkpoint;
  const committed = commitKept(graph, checkpoint.state, checkpoint.tasks, writes);
  if (!committed.ok) return checkpoint;
  const done = new Set(writes.map((write) => write.task));
  return { ...checkpoint, state: committed.state, next: checkpoint.tasks.filter((_, index) => !done.has(index)).map((task) => task.node) };
}
