/** The errors of durable runs. Each has an explicit `name` and a `code`, like the core's errors. */
import { GraphError } from "../errors.js";

/** The codes a {@link PersistenceError} itself can carry, as data (docs/concepts.md's and docs/persistence.md's tables are checked against it). */
export const PERSISTENCE_ERROR_CODES = [
  "NOTHING_TO_RESUME",
  "CHECKPOINT_NOT_FOUND",
  "INCOMPATIBLE_CHECKPOINT",
  "SUBGRAPH_NOT_FOUND",
  "SUBGRAPH_NOT_PAUSED",
  "SCHEMA_VERSION",
  "DRIVER_MISSING",
  "INVALID_DB_PATH",
  "OPEN_FAILED",
  "DATABASE_CORRUPT",
  "CHECKPOINT_CORRUPT",
  "DISK_FULL",
  "READ_ONLY",
  "DATABASE_BUSY",
  "STORAGE_FAILED",
  "CONNECTION_LOST",
  "CLOSED",
  "INVALID_WRITE",
  "GRAPH_VERSION_NEWER",
  "MIGRATION_MISSING",
  "MIGRATION_FAILED",
  "UNMAPPED_RESUME_POINT",
  "NO_ATOMIC_SAVE",
] as const;

/** The codes a {@link PersistenceError} can carry (its subclasses' included). */
export type PersistenceErrorCode = (typeof PERSISTENCE_ERROR_CODES)[number] | "NOT_SERIALIZABLE" | "CHECKPOINT_CONFLICT";

/** What a {@link PersistenceError} can say besides its message: which thread, and where a run stood. */
export interface PersistenceErrorDetails {
  /** The driver's error (or the parser's), when there is one. */
  readonly cause?: unknown;
  /** The thread the failed operation was about. */
  readonly threadId?: string;
  /**
   * The checkpoint it is about: the corrupt one for `CHECKPOINT_CORRUPT`; for a save that failed
   * (`DISK_FULL`, `READ_ONLY`…), the thread's last saved checkpoint, where a resume continues.
   */
  readonly checkpointId?: string;
  /** For a save that failed: the state the run had reached, which the store could not record. */
  readonly state?: Record<string, unknown>;
  /** For a save that failed: the nodes the run had completed, in order. */
  readonly trace?: readonly string[];
}

/**
 * A durable run could not save, load or resume a checkpoint.
 *
 * @example
 * ```ts
 * await graph.invoke(null, { threadId: "t1", checkpointer }).catch((e: PersistenceError) => e.code); // "NOTHING_TO_RESUME"
 * // A save the disk could not hold: the run's state and trace travel with the error.
 * await graph.invoke(input, { threadId: "t1", checkpointer }).catch((e: PersistenceError) => [e.code, e.trace]); // ["DISK_FULL", ["plan", "draft"]]
 * ```
 */
export class PersistenceError extends GraphError<PersistenceErrorCode> {
  override readonly name: string = "PersistenceError";
  readonly threadId?: string;
  readonly checkpointId?: string;
  readonly state?: Record<string, unknown>;
  readonly trace?: readonly string[];

  constructor(code: PersistenceErrorCode, message: string, details: PersistenceErrorDetails = {}) {
    super(code, message, "cause" in details ? { cause: details.cause } : undefined);
    if (details.threadId !== undefined) this.threadId = details.threadId;
    if (details.checkpointId !== undefined) this.checkpointId = details.checkpointId;
    if (details.state !== undefined) this.state = details.state;
    if (details.trace !== undefined) this.trace = details.trace;
  }
}

/**
 * A value in the state (or a Send's input, or the metadata) is not JSON, so a checkpoint cannot
 * store it. Raised before anything is written. `path` names the value, e.g. `state.draft.rows[1]`.
 *
 * @example
 * ```ts
 * await graph.invoke({ when: new Date() }, { threadId: "t1", checkpointer }).catch((e: NotSerializableError) => e.path); // "input.when"
 * ```
 */
export class NotSerializableError extends PersistenceError {
  override readonly name = "NotSerializableError";
  readonly path: string;

  constructor(message: string, path: string) {
    super("NOT_SERIALIZABLE", message);
    this.path = path;
  }
}

/**
 * Another writer saved a checkpoint to the thread after this one read it: two runs (or a run and
 * `updateState`) overlapped on one thread. The losing write stored nothing.
 *
 * @example
 * ```ts
 * const run = () => graph.invoke(input, { threadId: "t1", checkpointer });
 * const outcomes = await Promise.allSettled([run(), run()]);
 * outcomes.filter((o) => o.status === "rejected" && o.reason instanceof CheckpointConflictError).length; // 1
 * ```
 */
export class CheckpointConflictError extends PersistenceError {
  override readonly name = "CheckpointConflictError";
  override readonly threadId: string;
  /** The latest checkpoint id the writer expected (`null`: none). */
  readonly expectedLatestId: string | null;
  /** The thread's actual latest checkpoint id. */
  readonly actualLatestId: string | null;

  constructor(threadId: string, expectedLatestId: string | null, actualLatestId: string | null) {
    super(
      "CHECKPOINT_CONFLICT",
      `Checkpointer.save: thread "${threadId}" changed while this run was using it: its latest checkpoint is ` +
        `${actualLatestId === null ? "none" : `"${actualLatestId}"`}, not ${expectedLatestId === null ? "none" : `"${expectedLatestId}"`}. ` +
        `Another run (or updateState) is writing to the same thread; runs on one thread must not overlap. ` +
        `Wait for it to finish, then continue with invoke(null, { threadId }).`,
    );
    this.threadId = threadId;
    this.expectedLatestId = expectedLatestId;
    this.actualLatestId = actualLatestId;
  }
}
