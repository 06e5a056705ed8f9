/**
 * `typed-state-graph/persistence`: durable runs. Checkpointers, their errors, and the types of
 * threaded runs. A subpath entry because the SQLite checkpointer needs a driver package (libsql or
 * better-sqlite3, loaded lazily, only when a SqliteCheckpointer opens).
 *
 * @module typed-state-graph/persistence
 */

export type {
  Checkpoint,
  Checkpointer,
  CheckpointMetadata,
  CheckpointRoute,
  CheckpointTask,
  CheckpointWithSubgraphs,
  CheckpointWrite,
  PruneOptions,
  PruneResult,
  JsonValue,
  ListOptions,
  SubgraphTask,
} from "../engine/index.js";
export { MemoryCheckpointer, type MemoryThreadStats } from "./memory-checkpointer.js";
export { SqliteCheckpointer, DEFAULT_DB_FILE, SQLITE_SCHEMA_VERSION } from "./sqlite-checkpointer.js";
export type { SqliteCheckpointerOptions } from "./sqlite-checkpointer.js";
export { sqliteDriver } from "./sqlite/load.js";
export type {
  SqliteConnection,
  SqliteDriver,
  SqliteDriverName,
  SqliteOpenMode,
  SqliteOpenOptions,
  SqliteStatement,
} from "./sqlite/driver.js";
export { PersistenceError, NotSerializableError, CheckpointConflictError, PERSISTENCE_ERROR_CODES } from "../engine/index.js";
export type { PersistenceErrorCode, PersistenceErrorDetails } from "../engine/index.js";
export { checkListOptions, checkMetadata } from "../engine/store-rules.js";
export { checkPrune, checkWrites, keptByPrune, mergeWrites, writesTargetMissing, type PruneRequest } from "./store-checks.js";
export type { Interrupt, ThreadReadOptions, ThreadRunOptions, ThreadRunResult, UpdateStateOptions } from "../engine/index.js";
export { checkJson } from "../engine/store-rules.js";
export {
  checkCheckpointId,
  checkSavedIds,
  checkThreadId,
  MAX_CHECKPOINT_ID_BYTES,
  MAX_THREAD_ID_BYTES,
  MAX_THREAD_KEY_BYTES,
} from "./ids.js";
