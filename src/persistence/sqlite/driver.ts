/**
 * The seam between `SqliteCheckpointer` and an SQLite binding: the few calls the checkpointer makes,
 * so libsql (the default, prebuilt) and better-sqlite3 (for users who have it) are interchangeable.
 * Neither package's types appear here, so a user's type check never needs them installed.
 */

/**
 * How a connection opens its file: `readwrite` creates it when missing; `readonly` reads it and
 * refuses writes; `snapshot` reads the file as it is now without creating the WAL's side files
 * (for a read-only directory or file system, where SQLite cannot create them).
 */
export type SqliteOpenMode = "readwrite" | "readonly" | "snapshot";

/** What {@link SqliteDriver.open} is given. */
export interface SqliteOpenOptions {
  readonly mode: SqliteOpenMode;
  /** How long a statement waits for another connection's lock, in ms. */
  readonly busyTimeoutMs: number;
}

/** A prepared statement: parameters are positional. */
export interface SqliteStatement<P extends readonly unknown[], R = unknown> {
  /**
   * Runs the statement. What it returns may be the binding's `{ changes, lastInsertRowid }` (both
   * built-in drivers return it): a save then takes its row's seq from it rather than asking SQLite
   * with another statement. Anything else (a driver of your own may return nothing) is ignored.
   */
  run(...params: P): unknown;
  /** The first row, or `undefined`. */
  get(...params: P): R | undefined;
  all(...params: P): R[];
  /**
   * Optional: every row as an array of its column values, in the order the statement selects them
   * (both built-in drivers: their `raw` mode). Reading a long history uses it when it is there: it
   * saves building an object (and, on libsql, a `_metadata` object) per row.
   */
  values?(...params: P): unknown[][];
}

/** One open database file. Transactions are plain `exec("BEGIN IMMEDIATE")` / `COMMIT` / `ROLLBACK`. */
export interface SqliteConnection {
  prepare<P extends readonly unknown[] = [], R = unknown>(sql: string): SqliteStatement<P, R>;
  exec(sql: string): void;
  /** Runs `PRAGMA <statement>` and returns the first column of its first row (`undefined` when it has none). */
  pragma(statement: string): unknown;
  /** Whether a transaction is open (SQLite rolls one back by itself on some errors, such as a full disk). */
  readonly inTransaction: boolean;
  close(): void;
}

/**
 * An SQLite binding, as `SqliteCheckpointer` uses it. `"libsql"` and `"better-sqlite3"` name the two
 * built in; pass your own object to wrap one (to log statements, or to inject faults in a test).
 *
 * @example
 * ```ts
 * import { SqliteCheckpointer, sqliteDriver } from "typed-state-graph/persistence";
 *
 * const libsql = sqliteDriver("libsql");
 * // A store whose disk holds about 40 pages: saves past that fail with DISK_FULL.
 * const tiny = new SqliteCheckpointer("runs.sqlite", {
 *   driver: { name: "libsql (40 pages)", open: (file, options) => {
 *     const connection = libsql.open(file, options);
 *     connection.pragma("max_page_count = 40");
 *     return connection;
 *   } },
 * });
 * ```
 */
export interface SqliteDriver {
  /** Shown in error messages. */
  readonly name: string;
  open(file: string, options: SqliteOpenOptions): SqliteConnection;
}

/** The drivers built in: the npm package each one loads. */
export type SqliteDriverName = "libsql" | "better-sqlite3";

/** The package and the install command of each built-in driver, for the message when it is missing. */
export const DRIVER_PACKAGES: Readonly<Record<SqliteDriverName, { readonly install: string }>> = {
  libsql: { install: "npm install libsql@0.5" },
  "better-sqlite3": {
    install: "npm install better-sqlite3@12 (Node 20 needs the 12.x line; it compiles from source where no prebuilt binary downloads)",
  },
};

/** Encodes a file path for an SQLite `file:` URI (`?`, `#` and `%` would otherwise be read as URI syntax). */
export function fileUri(path: string, query: string): string {
  return `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?${query}`;
}
