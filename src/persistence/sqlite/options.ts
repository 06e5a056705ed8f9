/** The options of `new SqliteCheckpointer(file, options)`, and the check that refuses a wrong one. */
import { InvalidOptionError } from "../../errors.js";
import type { SqliteDriver, SqliteDriverName } from "./driver.js";
import { quoted } from "./faults.js";

/** Options of `new SqliteCheckpointer(file, options)`. */
export interface SqliteCheckpointerOptions {
  /**
   * `"normal"` (the default) survives the process being killed at any moment; `"full"` also survives
   * power loss, at the price of an fsync per checkpoint.
   */
  readonly synchronous?: "normal" | "full";
  /** How long a write waits for another process's transaction to finish, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * The SQLite binding: `"libsql"` (the default: prebuilt, nothing to compile), `"better-sqlite3"`
   * (12.x, if you have it), or a {@link SqliteDriver} of your own. Both built-in drivers read and write
   * the same file format.
   */
  readonly driver?: SqliteDriverName | SqliteDriver;
  /**
   * Open the file read-only: history and `getState` work, and saving is refused (`READ_ONLY`). Without
   * it, a file that cannot be written (a read-only file, directory or file system) opens read-only by
   * itself; {@link SqliteCheckpointer.readOnly} says which happened.
   */
  readonly readOnly?: boolean;
  /**
   * Run `PRAGMA quick_check` when the file opens, and refuse a damaged file with `DATABASE_CORRUPT`
   * rather than write into it (default `false`). It reads the whole file: about 3 ms a MB, 42 ms for
   * 10,000 checkpoints. `tsg` turns it on. Without it each save still checks that the place of the row it
   * writes is free, so a run fails rather than write where another thread's row would be read instead.
   */
  readonly quickCheck?: boolean;
}

/** Refuses an option the checkpointer would otherwise read as its default, or hand to SQLite as nonsense. */
export function checkOptions(options: SqliteCheckpointerOptions): void {
  const invalid = (name: string, expected: string, got: unknown) =>
    new InvalidOptionError(
      `SqliteCheckpointer: ${name} must be ${expected}; got ${typeof got === "string" ? quoted(got) : typeof got === "number" ? String(got) : typeof got}.`,
    );
  if (typeof options !== "object" || options === null) throw invalid("the options", "an object", options);
  const { synchronous, busyTimeoutMs, readOnly, quickCheck } = options;
  if (synchronous !== undefined && synchronous !== "normal" && synchronous !== "full")
    throw invalid("synchronous", '"normal" or "full"', synchronous);
  if (busyTimeoutMs !== undefined && !(Number.isSafeInteger(busyTimeoutMs) && busyTimeoutMs >= 0)) {
    throw invalid("busyTimeoutMs", "a whole number of milliseconds, 0 or more", busyTimeoutMs);
  }
  if (readOnly !== undefined && typeof readOnly !== "boolean") throw invalid("readOnly", "true or false", readOnly);
  if (quickCheck !== undefined && typeof quickCheck !== "boolean") throw invalid("quickCheck", "true or false", quickCheck);
}
