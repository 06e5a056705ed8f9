/**
 * The statements a `SqliteCheckpointer` prepares once, when its file opens: reads shaped by the file's
 * schema version (a read-only file of an older schema is read as it is), and, on a writable file, the
 * inserts whose guards make a save's version check and its damage check part of the INSERT itself.
 */
import type { Checkpoint } from "../../engine/index.js";
import { crc32Of, type StoredWriteRow } from "./body.js";
import type { ChainRow } from "./chain.js";
import type { SqliteConnection, SqliteStatement } from "./driver.js";
import { NEXT_ROWID_FREE } from "./verify.js";

/** The values of a new tsg_checkpoints row, in the insert statements' order. */
export type CheckpointRow = [string, string, string | null, number, string, string, string, string, string];

/** The statements that write: only on a writable file (a read-only one refuses writes before reaching SQLite). */
export interface WriteStatements {
  /** A row inside the save's transaction. */
  readonly insert: SqliteStatement<CheckpointRow>;
  /** The insert with the version check inside: a new thread's first checkpoint, and one continuing the (seq, id) given. */
  readonly insertFirst: SqliteStatement<[string, ...CheckpointRow]>;
  readonly insertNext: SqliteStatement<[number, string, string, ...CheckpointRow]>;
  readonly insertWrite: SqliteStatement<[number, number, string, string, string]>;
  readonly seqOf: SqliteStatement<[string, string], { seq: number }>;
  readonly lastSeq: SqliteStatement<[], { seq: number }>;
  readonly deleteThread: SqliteStatement<[string, string, string]>;
  readonly deleteThreadWrites: SqliteStatement<[string, string, string]>;
}

/** Every statement of a checkpointer. */
export interface Statements {
  readonly latest: SqliteStatement<[string], ChainRow>;
  readonly latestId: SqliteStatement<[string], { seq: number; id: string }>;
  readonly get: SqliteStatement<[string, string], ChainRow>;
  readonly list: SqliteStatement<[string, number], ChainRow>;
  /** The thread's rows before a seq, oldest first, with the body only where it holds the lists: a chain's links. */
  readonly chain: SqliteStatement<[string, number], ChainRow>;
  /** The pending writes of one checkpoint, and of a thread; absent in a read-only file older than schema 3, which has none. */
  readonly pending?: {
    readonly ofCheckpoint: SqliteStatement<[number], StoredWriteRow>;
    readonly ofThread: SqliteStatement<[string], StoredWriteRow>;
  };
  readonly writes?: WriteStatements;
}

/** The columns a save inserts, in {@link CheckpointRow}'s order. */
const INSERTED = "thread_id, id, parent_id, step, created_at, body, checksum, delta, delta_checksum";

/**
 * The values after thread_id in the checked inserts. Their parameters are plain `?`s, bound in order (the
 * thread twice: in the check, then as the value): better-sqlite3 binds `?NNN` only by name.
 */
const VALUES_AFTER_THREAD = "?, ?, ?, ?, ?, ?, ?, ?";

/** Prepares the statements for a file of schema `version`; the write statements only when it is writable. */
export function prepareStatements(connection: SqliteConnection, version: number, readOnly: boolean): Statements {
  // A read-only file of schema 1 cannot be migrated: its rows have no checksum to check.
  const checksum = version >= 2 ? "checksum" : "NULL AS checksum";
  const delta = version >= 4 ? "delta, delta_checksum" : "NULL AS delta, NULL AS delta_checksum";
  // The columns and their order chainRows reads (sqlite/chain.ts).
  const row = `seq, thread_id, id, parent_id, body, ${checksum}, ${delta}`;
  const links = `seq, thread_id, id, parent_id, ${version >= 4 ? "CASE WHEN delta IS NULL THEN body END AS body" : "body"}, ${checksum}, ${delta}`;
  const write = "checkpoint_seq, body, checksum";
  return {
    latest: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1`),
    latestId: connection.prepare("SELECT seq, id FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1"),
    get: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? AND id = ? ORDER BY seq DESC LIMIT 1`),
    list: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT ?`),
    chain: connection.prepare(`SELECT ${links} FROM tsg_checkpoints WHERE thread_id = ? AND seq < ? ORDER BY seq`),
    ...(version < 3
      ? {}
      : {
          pending: {
            ofCheckpoint: connection.prepare(`SELECT ${write} FROM tsg_writes WHERE checkpoint_seq = ? ORDER BY task`),
            ofThread: connection.prepare(`SELECT ${write} FROM tsg_writes WHERE thread_id = ? ORDER BY checkpoint_seq, task`),
          },
        }),
    ...(readOnly ? {} : { writes: writeStatements(connection) }),
  };
}

function writeStatements(connection: SqliteConnection): WriteStatements {
  return {
    // A thread_id of NULL (refused: NOT NULL) when the rowid the new row takes is held already (a damaged file: verify.ts).
    insert: connection.prepare(
      `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
    ),
    // The same, and when the thread is not where the save expects it.
    insertFirst: connection.prepare(
      `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN NOT EXISTS (SELECT 1 FROM tsg_checkpoints WHERE thread_id = ?) AND ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
    ),
    insertNext: connection.prepare(
      `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN (SELECT seq = ? AND id = ? FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1) AND ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
    ),
    insertWrite: connection.prepare(
      "INSERT OR IGNORE INTO tsg_writes (checkpoint_seq, task, thread_id, body, checksum) VALUES (?, ?, ?, ?, ?)",
    ),
    // For a driver whose run() does not return the new rowid (the built-in ones do). libsql's .get() of an
    // INSERT … RETURNING measured about a fifth slower (CPU time) than a plain insert.
    lastSeq: connection.prepare("SELECT last_insert_rowid() AS seq"),
    seqOf: connection.prepare("SELECT seq FROM tsg_checkpoints WHERE thread_id = ? AND id = ? ORDER BY seq DESC LIMIT 1"),
    // The thread, and its subgraphs' threads (`thread␟namespace`: the range after the separator, U+001F, before U+0020).
    deleteThread: connection.prepare("DELETE FROM tsg_checkpoints WHERE thread_id = ? OR (thread_id >= ? AND thread_id < ?)"),
    deleteThreadWrites: connection.prepare("DELETE FROM tsg_writes WHERE thread_id = ? OR (thread_id >= ? AND thread_id < ?)"),
  };
}

/** The row of `checkpoint`: its columns, its body and its trace delta as stored, each with its checksum. */
export function rowOf(checkpoint: Checkpoint, body: string, delta: string): CheckpointRow {
  const { threadId, id, parentId, step, createdAt } = checkpoint;
  return [threadId, id, parentId, step, createdAt, body, crc32Of(body), delta, crc32Of(delta)];
}

/** The rowid an INSERT's `run()` reports (`{ lastInsertRowid }`, both built-in drivers), when the driver reports one. */
export function insertedRowid(result: unknown): number | undefined {
  const rowid = typeof result === "object" && result !== null ? (result as { lastInsertRowid?: unknown }).lastInsertRowid : undefined;
  if (typeof rowid === "number") return rowid;
  return typeof rowid === "bigint" ? Number(rowid) : undefined;
}
