/**
 * A damaged file, found before a save is reported as done. A file cut mid-page (a copy taken while it
 * was written, a torn disk) can still open and take writes: SQLite gives a new row the rowid after the
 * largest it finds, which a damaged tree may already hold out of order, and a later read of the new
 * row then meets another thread's row. Two checks, so it fails with `DATABASE_CORRUPT` instead:
 *
 * - `PRAGMA quick_check` when the file opens, on request (`quickCheck: true`; `tsg` asks for it): it
 *   reads every page: 42 ms for a file of 10,000 checkpoints (15 MB; 2.7 ms a MB, `npx tsx
 *   bench/quick-check.ts` on a loaded 2-core machine), too much to impose on every open of a large file.
 * - On every save, inside each INSERT ({@link NEXT_ROWID_FREE}): the rowid the new row takes must hold
 *   no row yet. No extra call into SQLite; the insert then fails, and the save with it, before it
 *   writes. (Reading each row back after it was written cost 21 µs a save, as much as the insert.)
 */
import { PersistenceError } from "../../engine/index.js";
import type { SqliteConnection } from "./driver.js";
import { quoted } from "./faults.js";

/** What to do with a file SQLite finds damaged: the advice every message about one ends with. */
export const DAMAGED_ADVICE =
  "Restore it from a backup, or copy what it still holds into a new file (the sqlite3 shell's .recover), and use that";

/** How much of quick_check's report a message quotes. */
const REPORT_CHARS = 300;

/**
 * Runs `PRAGMA quick_check` on a file just opened; throws `DATABASE_CORRUPT` quoting what it found.
 *
 * @example
 * ```ts
 * quickCheck(connection, "runs.sqlite"); // DATABASE_CORRUPT: … Tree 2 page 2 cell 49: Rowid 139 out of order …
 * ```
 */
export function quickCheck(connection: SqliteConnection, file: string): void {
  const rows = connection.prepare<[], { quick_check?: unknown }>("PRAGMA quick_check(3)").all();
  // One problem a line, after a "*** in database main ***" heading when there are several: one line here.
  const report = rows
    .flatMap((row) => String(row.quick_check).split("\n"))
    .filter((line) => !line.startsWith("***"))
    .join("; ");
  if (report === "ok") return;
  const shown =
    report.length > REPORT_CHARS ? `${report.slice(0, REPORT_CHARS)}… (${report.length - REPORT_CHARS} more characters)` : report;
  throw new PersistenceError(
    "DATABASE_CORRUPT",
    `SqliteCheckpointer: ${quoted(file)} is damaged: PRAGMA quick_check reports ${JSON.stringify(shown)}. ` +
      `A checkpoint written to it could be read back as another thread's, or lost. ${DAMAGED_ADVICE}.`,
  );
}

/**
 * A guard for an INSERT's values: that the rowid the new row will take (SQLite's: one past the largest)
 * holds no row. In a sound file it never does, and the check is a seek in pages at hand (0.3 µs of an
 * insert's 19, measured under load); in a damaged one the row found there is what a read of the new row
 * would meet instead of it.
 */
export const NEXT_ROWID_FREE =
  "NOT EXISTS (SELECT 1 FROM tsg_checkpoints WHERE seq = coalesce((SELECT max(seq) FROM tsg_checkpoints), 0) + 1)";

/** Says what holds the rowid a new row would take, once {@link NEXT_ROWID_FREE} refused an insert (not on the hot path). */
export function takenRowid(connection: SqliteConnection): string {
  const row = connection
    .prepare<[], { seq: number; thread_id: unknown; id: unknown }>(
      "SELECT seq, thread_id, id FROM tsg_checkpoints WHERE seq = coalesce((SELECT max(seq) FROM tsg_checkpoints), 0) + 1",
    )
    .get();
  const holder = row === undefined ? "a row" : `checkpoint ${quoted(String(row.id))} of thread ${quoted(String(row.thread_id))}`;
  return `the place of the row this save would write${row === undefined ? "" : ` (seq ${row.seq})`} already holds ${holder}, out of order`;
}
