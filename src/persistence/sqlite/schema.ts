/**
 * The file's schema: the tables, the migrations between versions, and the version check. A file
 * keeps its version in `tsg_schema_version`; an older file is migrated when it opens read-write,
 * read as it is when it opens read-only, and a newer (or unreadable) version is refused.
 */
import { PersistenceError } from "../../engine/index.js";
import { checksumOf } from "./body.js";
import type { SqliteConnection } from "./driver.js";
import { quoted } from "./faults.js";
import { immediate } from "./transaction.js";

/**
 * The schema this version reads and writes. Older files are migrated when opened; newer ones are refused.
 *
 * A change to what a stored checkpoint or pending write may hold is a change of schema, even when no
 * table changes: an older typed-state-graph reads the rows it knows and silently drops or misreads the
 * rest, so the number goes up and that release refuses the file (`SCHEMA_VERSION`). The stored shapes
 * each version introduced (the migrations below say what they did to the tables):
 * - 7: the body's `graph` stamp, `{ version, specHash }`.
 * - 8: the body's `deferred`, the tasks of deferred nodes waiting (`Checkpoint.deferred`); and a failed
 *   task's reserved pending write, `{ task, node, update: { __tsg_error__: { name, code?, message } } }`
 *   (pending-writes.ts `failureWrite`), which schema 7 would have merged as the task's update.
 *   A kept pending write may also hold, in its update: a list of Commands' parts, `{ __updates__: [update, …] }`
 *   (command-list.ts, when two of the Commands wrote one field), and an error handler's mark `__handled__`
 *   (command-goto.ts `HANDLED`: the task's failure was handled, only the handler's goto follows); a pending
 *   Send's input may be a Command, stored as `{ __tsg_command__: { update?, goto? } }` (send-command.ts).
 *   A release before this one would have merged each of them as a field, or handed the node a plain object.
 *   Add here any other shape written from schema 8 on.
 * PostgreSQL keeps the same list beside `POSTGRES_SCHEMA_VERSION` (src/postgres/schema.ts).
 */
export const SQLITE_SCHEMA_VERSION = 8;

/** Each migration takes the schema from version `index` to `index + 1`. */
const MIGRATIONS: readonly ((connection: SqliteConnection) => void)[] = [
  // One row per checkpoint; the one index serves the hot path (the latest checkpoint of a thread, read
  // inside every save) and history. A rowid table: a save appends to the table's last page.
  (connection) =>
    connection.exec(
      `CREATE TABLE tsg_checkpoints (
         seq        INTEGER PRIMARY KEY,  -- write order: a thread's latest checkpoint is its highest seq
         thread_id  TEXT    NOT NULL,
         id         TEXT    NOT NULL,
         parent_id  TEXT,
         step       INTEGER NOT NULL,
         created_at TEXT    NOT NULL,
         body       TEXT    NOT NULL      -- the whole checkpoint as JSON
       );
       CREATE INDEX tsg_checkpoints_thread ON tsg_checkpoints (thread_id, seq);`,
    ),
  // Version 2: the SHA-256 of each body, filled in for the checkpoints already stored.
  (connection) => {
    connection.exec("ALTER TABLE tsg_checkpoints ADD COLUMN checksum TEXT");
    const rows = connection.prepare<[], { seq: number; body: unknown }>("SELECT seq, body FROM tsg_checkpoints").all();
    const update = connection.prepare<[string, number]>("UPDATE tsg_checkpoints SET checksum = ? WHERE seq = ?");
    for (const row of rows) if (typeof row.body === "string") update.run(checksumOf(row.body), row.seq);
  },
  // Version 3: pending writes, one row per task of a superstep that has not committed, keyed by the
  // checkpoint it starts from (its seq: an id may be reused after deleteThread); and checkpoints by id,
  // for get and putWrites.
  (connection) =>
    connection.exec(
      `CREATE TABLE tsg_writes (
         checkpoint_seq INTEGER NOT NULL,  -- the tsg_checkpoints row the superstep starts from
         task           INTEGER NOT NULL,  -- the task's position in that checkpoint's tasks
         thread_id      TEXT    NOT NULL,
         body           TEXT    NOT NULL,  -- the write { task, node, update } as JSON
         checksum       TEXT    NOT NULL,
         PRIMARY KEY (checkpoint_seq, task)
       ) WITHOUT ROWID;
       CREATE INDEX tsg_writes_thread ON tsg_writes (thread_id);
       CREATE INDEX tsg_checkpoints_id ON tsg_checkpoints (thread_id, id);`,
    ),
  // Version 4: small checkpoints. A new row's body leaves out the trace and routes; its delta holds what
  // its superstep added and how many of its parent's entries it keeps (trace-delta.ts), with its own
  // checksum. Rows written before keep their whole lists in their body (delta NULL): they stay readable
  // as they are, and a new checkpoint after one stores only its delta.
  (connection) =>
    connection.exec(
      `ALTER TABLE tsg_checkpoints ADD COLUMN delta TEXT;
       ALTER TABLE tsg_checkpoints ADD COLUMN delta_checksum TEXT;`,
    ),
  // Version 5: new rows' checksums (body, delta, pending write) are CRC-32s, 8 hex digits, where they were
  // SHA-256s, 64 (body.ts: both verify, told apart by length). No row changes: the version is what keeps
  // an older typed-state-graph, which knows SHA-256 only, from reading the new rows as corrupt.
  () => undefined,
  // Version 6: one index where there were two. (thread_id, seq, id) serves the latest checkpoint and
  // history as (thread_id, seq) did, and `get` by id too: read newest first, it stops at the first match,
  // the latest checkpoint or one close to it whenever a run saves, resumes or keeps pending writes. Each
  // index costs an insert a page written to the WAL: the report run's saves went from 4.4 WAL frames a
  // commit to 3.2 (docs/benchmarks.md). No row changes; the version records the layout, so an older
  // typed-state-graph refuses the file as newer, as it does any schema it does not know.
  (connection) =>
    connection.exec(
      `DROP INDEX IF EXISTS tsg_checkpoints_id;
       DROP INDEX IF EXISTS tsg_checkpoints_thread;
       CREATE INDEX tsg_checkpoints_thread ON tsg_checkpoints (thread_id, seq, id);`,
    ),
  // Version 7: checkpoints record the version and spec hash of the graph that wrote them (the body's
  // `graph` member; a row written before counts as version 1). No row or table changes: a column computed
  // from the body would parse every body on insert (SQLite computes even a virtual column there), and a
  // damaged body must stay readable as CHECKPOINT_CORRUPT. The version is what matters: an older
  // typed-state-graph, which knows no graph versions and could resume a newer graph's checkpoint with an
  // older graph, refuses the file as newer instead.
  () => undefined,
  // Version 8: new stored shapes (listed at SQLITE_SCHEMA_VERSION), no table changes: rows written before
  // hold none of them and read as they did. The number keeps schema 7's release, which would drop a
  // checkpoint's waiting deferred tasks and merge a failure's write, from reading the file.
  () => undefined,
];

/** The tables of ours the file has. */
function tablesOf(connection: SqliteConnection): Set<string> {
  const rows = connection.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tsg_%'").all();
  return new Set(rows.map((row) => row.name));
}

/**
 * The file's schema version: 0 for a file with none of our tables (a new file), else the one row of
 * `tsg_schema_version`, checked to be a version this code knows.
 */
export function schemaVersion(connection: SqliteConnection, file: string): number {
  const tables = tablesOf(connection);
  if (!tables.has("tsg_schema_version")) {
    if (!tables.has("tsg_checkpoints")) return 0;
    throw new PersistenceError(
      "SCHEMA_VERSION",
      `SqliteCheckpointer: ${quoted(file)} has a tsg_checkpoints table but no tsg_schema_version table, so its schema is unknown: ` +
        `it was not written by typed-state-graph, or it is damaged. Use another file, or restore this one from a backup.`,
    );
  }
  const rows = connection.prepare<[], { version: unknown }>("SELECT version FROM tsg_schema_version").all();
  const version = rows.length === 1 ? rows[0]?.version : undefined;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    const found = rows.length === 1 ? `the version ${quoted(String(version))}` : `${rows.length} version rows`;
    throw new PersistenceError(
      "SCHEMA_VERSION",
      `SqliteCheckpointer: ${quoted(file)} records ${found} in tsg_schema_version, not one known schema version ` +
        `(1 to ${SQLITE_SCHEMA_VERSION}): the file is damaged. Use another file, or restore this one from a backup.`,
    );
  }
  if (version > SQLITE_SCHEMA_VERSION) {
    throw new PersistenceError(
      "SCHEMA_VERSION",
      `SqliteCheckpointer: ${quoted(file)} has schema version ${version}, written by a newer typed-state-graph; this one reads ` +
        `versions up to ${SQLITE_SCHEMA_VERSION}. Upgrade typed-state-graph, or use another file.`,
    );
  }
  return version;
}

/** Brings a writable file to {@link SQLITE_SCHEMA_VERSION} in one transaction, or refuses it; returns that version. */
export function migrate(connection: SqliteConnection, file: string): number {
  return immediate(connection, () => {
    const version = schemaVersion(connection, file);
    if (version === SQLITE_SCHEMA_VERSION) return version;
    for (let next = version; next < SQLITE_SCHEMA_VERSION; next++) MIGRATIONS[next]?.(connection);
    if (version === 0) {
      connection.exec("CREATE TABLE tsg_schema_version (version INTEGER NOT NULL)");
      connection.prepare<[number]>("INSERT INTO tsg_schema_version (version) VALUES (?)").run(SQLITE_SCHEMA_VERSION);
    } else connection.prepare<[number]>("UPDATE tsg_schema_version SET version = ?").run(SQLITE_SCHEMA_VERSION);
    return SQLITE_SCHEMA_VERSION;
  });
}
