/**
 * The checkpoint database the inspector reads, and whether it may write to it. A database the
 * inspector did not create opens read-only unless `--allow-writes`; no `--db` means a database in
 * memory, the inspector's own. Live runs go to the database when it may be written, else to a
 * scratch store in memory, so watching a run never writes to a file the user did not allow.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { MemoryCheckpointer, SqliteCheckpointer, type Checkpointer } from "../persistence/index.js";
import { cut, LINE_LIMIT } from "./echo.js";

/** Where the inspector's threads live. */
export interface InspectStore {
  /** The database the page's history reads, or `undefined` when it could not be opened (see `problem`). */
  readonly checkpointer: Checkpointer | undefined;
  /** What the page shows: the file, or `memory`. */
  readonly label: string;
  /** Whether resume, fork and edit may write to `checkpointer`. */
  readonly writable: boolean;
  /** Why the database could not be opened, in words for the page and the console. */
  readonly problem?: string;
  /** Where live runs go: `checkpointer` when writable, else a store in memory. */
  readonly runs: Checkpointer;
  close(): void;
}

/** How the inspector opens its database. */
export interface StoreOptions {
  /** The database file; none: a database in memory. */
  readonly db?: string;
  /** Allow writes to a database the inspector did not create. */
  readonly allowWrites?: boolean;
}

/**
 * Opens the database for the inspector. It never throws: a file that cannot be opened comes back with
 * its `problem`, which the page and the console show.
 *
 * @example
 * ```ts
 * const store = openStore({ db: "runs.sqlite" }); // read-only: the inspector did not create it
 * store.writable; // false
 * ```
 */
export function openStore(options: StoreOptions): InspectStore {
  const { db } = options;
  if (db === undefined) {
    const memory = new MemoryCheckpointer();
    return { checkpointer: memory, label: "memory (nothing is saved)", writable: true, runs: memory, close() {} };
  }
  const scratch = new MemoryCheckpointer();
  const failed = (problem: string): InspectStore => ({
    checkpointer: undefined,
    label: db,
    writable: false,
    problem,
    runs: scratch,
    close() {},
  });
  const path = resolve(db);
  const exists = existsSync(path);
  if (exists && statSync(path).isDirectory()) return failed(`--db ${cut(db)} is a directory; name a database file.`);
  if (!exists && !existsSync(dirname(path))) return failed(`--db ${cut(db)}: the directory ${cut(dirname(db))} does not exist.`);
  const created = !exists;
  let sqlite: SqliteCheckpointer;
  try {
    sqlite = new SqliteCheckpointer(db, { readOnly: !created && options.allowWrites !== true });
  } catch (error) {
    return failed(`--db ${cut(db)}: ${cut(firstLine(error), LINE_LIMIT)}`);
  }
  const writable = !sqlite.readOnly;
  return { checkpointer: sqlite, label: db, writable, runs: writable ? sqlite : scratch, close: () => sqlite.close() };
}

/** The first line of what was thrown, for the page. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? "";
}
