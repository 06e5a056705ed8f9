/** The errors of durable runs. Each has an explicit `name` and a `code`, like the core's errors. */

/** The codes a {@link PersistenceError} can carry. */
export type PersistenceErrorCode =
  | "NOT_SERIALIZABLE"
  | "CHECKPOINT_CONFLICT"
  | "NOTHING_TO_RESUME"
  | "CHECKPOINT_NOT_FOUND"
  | "INCOMPATIBLE_CHECKPOINT"
  | "SCHEMA_VERSION"
  | "DRIVER_MISSING";

/**
 * A durable run could not save, load or resume a checkpoint.
 *
 * @example
 * ```ts
 * await graph.invoke(null, { threadId: "t1", checkpointer }).catch((e: PersistenceError) => e.code); // "NOTHING_TO_RESUME"
 * ```
 */
export class PersistenceError extends Error {
  override readonly name: string = "PersistenceError";
  readonly code: PersistenceErrorCode;

  constructor(code: PersistenceErrorCode, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A value in the state (or a Send's input, or the metadata) is not JSON, so a checkpoint cannot
 * store it. Raised before anything is written. `path` names the value, e.g. `state.draft.rows[1]`.
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
 */
export class CheckpointConflictError extends PersistenceError {
  override readonly name = "CheckpointConflictError";
  readonly threadId: string;
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
