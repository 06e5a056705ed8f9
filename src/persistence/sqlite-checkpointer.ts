/**
 * `SqliteCheckpointer`: the embedded default. One file, WAL mode, one transaction per checkpoint,
 * and a schema version table so a later schema can migrate old files. better-sqlite3 is loaded
 * lazily, when the first SqliteCheckpointer opens, so importing this package never loads it.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { Checkpoint, Checkpointer, ListOptions } from "../engine/threads/checkpointer.js";
import { CheckpointConflictError, PersistenceError } from "../engine/threads/errors.js";

/** The database file `tsg` uses unless `--db` says otherwise, in the current directory. */
export const DEFAULT_DB_FILE = "tsg.sqlite";

/** The schema this version reads and writes. Older files are migrated when opened; newer ones are refused. */
export const SQLITE_SCHEMA_VERSION = 1;

/** Options of `new SqliteCheckpointer(file, options)`. */
export interface SqliteCheckpointerOptions {
  /**
   * `"normal"` (the default) survives the process being killed at any moment; `"full"` also survives
   * power loss, at the price of an fsync per checkpoint.
   */
  readonly synchronous?: "normal" | "full";
  /** How long a write waits for another process's transaction to finish, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
}

/** Each migration takes the schema from version `index` to `index + 1`. */
const MIGRATIONS: readonly string[] = [
  // One row per checkpoint; the one index serves the hot path (the latest checkpoint of a thread, read
  // inside every save) and history. A rowid table keeps each save to two small B-tree writes.
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
];

type Database = BetterSqlite3.Database;
type DatabaseConstructor = typeof BetterSqlite3;

interface Statements {
  readonly latest: BetterSqlite3.Statement<[string], { body: string }>;
  readonly latestId: BetterSqlite3.Statement<[string], { id: string }>;
  readonly get: BetterSqlite3.Statement<[string, string], { body: string }>;
  readonly list: BetterSqlite3.Statement<[string, number], { body: string }>;
  readonly insert: BetterSqlite3.Statement<[string, string, string | null, number, string, string]>;
  readonly deleteThread: BetterSqlite3.Statement<[string]>;
}

/**
 * A {@link Checkpointer} in an SQLite file. It survives the process being killed: a checkpoint is
 * one transaction, so after a crash the file holds every checkpoint that was saved, whole, and
 * nothing of the one being written. Several processes may share a file; a thread's writers are
 * kept from interleaving by the version check in {@link SqliteCheckpointer.save}.
 *
 * @example
 * ```ts
 * const checkpointer = new SqliteCheckpointer("runs.sqlite");
 * await graph.invoke(input, { threadId: "order-42", checkpointer });
 * checkpointer.close();
 * ```
 */
export class SqliteCheckpointer implements Checkpointer {
  /** The path the database was opened with. */
  readonly file: string;
  readonly #db: Database;
  readonly #statements: Statements;
  readonly #save: (checkpoint: Checkpoint, body: string, expectedLatestId: string | null) => void;

  constructor(file: string = DEFAULT_DB_FILE, options: SqliteCheckpointerOptions = {}) {
    this.file = file;
    const Driver = loadDriver();
    this.#db = new Driver(file, { timeout: options.busyTimeoutMs ?? 5000 });
    try {
      this.#db.pragma("journal_mode = WAL");
      this.#db.pragma(`synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
      migrate(this.#db, file);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    const db = this.#db;
    this.#statements = {
      latest: db.prepare("SELECT body FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1"),
      latestId: db.prepare("SELECT id FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1"),
      get: db.prepare("SELECT body FROM tsg_checkpoints WHERE thread_id = ? AND id = ?"),
      list: db.prepare("SELECT body FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT ?"),
      insert: db.prepare("INSERT INTO tsg_checkpoints (thread_id, id, parent_id, step, created_at, body) VALUES (?, ?, ?, ?, ?, ?)"),
      deleteThread: db.prepare("DELETE FROM tsg_checkpoints WHERE thread_id = ?"),
    };
    const { latestId, insert } = this.#statements;
    // IMMEDIATE takes the write lock before reading the latest checkpoint, so the check and the insert are one atomic step, across processes too.
    const save = db.transaction((checkpoint: Checkpoint, body: string, expectedLatestId: string | null) => {
      const currentId = latestId.get(checkpoint.threadId)?.id ?? null;
      if (currentId !== expectedLatestId) throw new CheckpointConflictError(checkpoint.threadId, expectedLatestId, currentId);
      insert.run(checkpoint.threadId, checkpoint.id, checkpoint.parentId, checkpoint.step, checkpoint.createdAt, body);
    });
    this.#save = (checkpoint, body, expectedLatestId) => save.immediate(checkpoint, body, expectedLatestId);
  }

  async save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void> {
    this.#save(checkpoint, JSON.stringify(checkpoint), expectedLatestId);
  }

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    return parse(this.#statements.latest.get(threadId)?.body);
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    return parse(this.#statements.get.get(threadId, id)?.body);
  }

  async list(threadId: string, options: ListOptions = {}): Promise<Checkpoint[]> {
    return this.#statements.list.all(threadId, options.limit ?? -1).map((row) => JSON.parse(row.body) as Checkpoint);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#statements.deleteThread.run(threadId);
  }

  /** Closes the database file. The checkpointer cannot be used afterwards. */
  close(): void {
    this.#db.close();
  }
}

function parse(body: string | undefined): Checkpoint | undefined {
  return body === undefined ? undefined : (JSON.parse(body) as Checkpoint);
}

function loadDriver(): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as DatabaseConstructor;
  } catch (error) {
    throw new PersistenceError(
      "DRIVER_MISSING",
      `SqliteCheckpointer: could not load better-sqlite3 (${error instanceof Error ? error.message : String(error)}). ` +
        `Install it next to typed-state-graph: npm install better-sqlite3@12 (Node 20 needs the 12.x line).`,
      { cause: error },
    );
  }
}

/** Brings the file to {@link SQLITE_SCHEMA_VERSION}, in one transaction, or refuses a newer file. */
function migrate(db: Database, file: string): void {
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS tsg_schema_version (version INTEGER NOT NULL)");
    const row = db.prepare<[], { version: number }>("SELECT version FROM tsg_schema_version").get();
    const version = row?.version ?? 0;
    if (version > SQLITE_SCHEMA_VERSION) {
      throw new PersistenceError(
        "SCHEMA_VERSION",
        `SqliteCheckpointer: "${file}" has schema version ${version}, written by a newer typed-state-graph; this one reads ` +
          `version ${SQLITE_SCHEMA_VERSION}. Upgrade typed-state-graph, or use another file.`,
      );
    }
    for (let next = version; next < SQLITE_SCHEMA_VERSION; next++) db.exec(MIGRATIONS[next] as string);
    if (row === undefined) db.prepare("INSERT INTO tsg_schema_version (version) VALUES (?)").run(SQLITE_SCHEMA_VERSION);
    else if (version < SQLITE_SCHEMA_VERSION) db.prepare("UPDATE tsg_schema_version SET version = ?").run(SQLITE_SCHEMA_VERSION);
  }).immediate();
}
