/**
 * The checkpoint database behind `--db`, for the thread commands. Every problem with the file (an empty
 * path, a directory, a missing directory, a file that is not a database, a corrupted or unreadable
 * checkpoint) becomes one {@link UsageError} (exit 2) naming the file; reading commands never create it.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { checkCheckpointId, checkThreadId, DEFAULT_DB_FILE, PersistenceError, SqliteCheckpointer } from "../persistence/index.js";
import { UsageError } from "./io.js";
import { cut } from "../inspect/echo.js";

/** Where a thread lives: its id and the database file (as the user wrote it). */
export interface ThreadLocation {
  readonly threadId: string;
  readonly db: string;
}

/** `--db` for every thread command: the same words in each help text. */
export const DB_FLAG = {
  type: "string",
  valueHint: "FILE",
  description: "the checkpoint database",
  defaultHelp: `${DEFAULT_DB_FILE} in the current directory`,
} as const;

/** `--thread` for the commands that read a thread. */
export const THREAD_FLAG = { type: "string", valueHint: "T", description: "the thread (required)" } as const;

/**
 * Refuses an empty `--db`: the one path problem that is a bad argument for every command, `tsg inspect`
 * included (it shows any other problem with the database in its page).
 *
 * @example
 * ```ts
 * refuseEmptyDbPath(" "); // throws: --db must name a file, …
 * ```
 */
export function refuseEmptyDbPath(db: string): void {
  if (db.trim() === "") throw new UsageError(`--db must name a file, e.g. --db ${DEFAULT_DB_FILE}; got an empty path.`);
}

/**
 * Checks the `--db` path before anything opens it. `create: false` (history, resume) refuses a file
 * that does not exist, so a typo never leaves an empty database behind.
 *
 * @example
 * ```ts
 * checkDbPath("typo.sqlite", { create: false }); // throws: --db typo.sqlite: no such file …
 * ```
 */
export function checkDbPath(db: string, { create }: { readonly create: boolean }): void {
  refuseEmptyDbPath(db);
  if (db === ":memory:") {
    if (!create) throw new UsageError("--db :memory: holds no thread once tsg exits; name the database file the thread was saved in.");
    return;
  }
  const path = resolve(db);
  if (existsSync(path)) {
    if (statSync(path).isDirectory())
      throw new UsageError(`--db ${cut(db)} is a directory; name a file, e.g. --db ${cut(join(db, DEFAULT_DB_FILE))}.`);
    return;
  }
  if (!create)
    throw new UsageError(
      `--db ${cut(db)}: no such file. tsg report --thread T creates it; check the path (the default is ${DEFAULT_DB_FILE}).`,
    );
  if (!existsSync(dirname(path)))
    throw new UsageError(`--db ${cut(db)}: the directory ${cut(dirname(db))} does not exist; create it first.`);
}

/**
 * Opens the database (`readOnly`: without writing to it, even to set it up), runs `use`, and closes it. A failure to open, and with `mapStoreErrors` any failure
 * of the store inside `use` (an unreadable or corrupted checkpoint), becomes a {@link UsageError} naming
 * the file. Without it (a run), the caller reports the store's errors as the run's outcome.
 *
 * @example
 * ```ts
 * const history = await withCheckpointer({ threadId: "t", db: "tsg.sqlite" }, (store) => store.list("t"), { create: false, mapStoreErrors: true });
 * ```
 */
export async function withCheckpointer<T>(
  location: ThreadLocation,
  use: (checkpointer: SqliteCheckpointer) => Promise<T>,
  options: { readonly create: boolean; readonly mapStoreErrors: boolean; readonly readOnly?: boolean },
): Promise<T> {
  // Before the file is opened (or created): a thread id no store can key by is the caller's mistake.
  asUsageError(() => checkThreadId("--thread", location.threadId));
  checkDbPath(location.db, options);
  let checkpointer: SqliteCheckpointer;
  try {
    checkpointer = new SqliteCheckpointer(location.db, { readOnly: options.readOnly === true, quickCheck: true });
  } catch (error) {
    throw storeFailure(location.db, error) ?? error;
  }
  try {
    return await use(checkpointer);
  } catch (error) {
    throw (options.mapStoreErrors ? storeFailure(location.db, error) : undefined) ?? error;
  } finally {
    checkpointer.close();
  }
}

/**
 * Refuses a `--checkpoint` id that no store could hold (not well-formed Unicode, or longer than every
 * store accepts) as a usage error, before a store is opened: the same rule the stores apply.
 *
 * @example
 * ```ts
 * checkCheckpointFlag("x".repeat(300)); // throws UsageError: --checkpoint: the checkpoint id … more than the 256 …
 * ```
 */
export function checkCheckpointFlag(id: string): void {
  asUsageError(() => checkCheckpointId("--checkpoint", id));
}

function asUsageError(check: () => unknown): void {
  try {
    check();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A store's failure as a usage error naming the file, or `undefined` when the error is not the store's. */
function storeFailure(db: string, error: unknown): UsageError | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  // PersistenceError is the library's; SQLITE_* codes and SyntaxError are a driver's or a body's that escaped it.
  const isStore =
    error instanceof PersistenceError || (typeof code === "string" && code.startsWith("SQLITE_")) || error instanceof SyntaxError;
  if (!isStore) return undefined;
  const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  return new UsageError(`--db ${cut(db)}: ${message}`, { cause: error });
}
