/**
 * Driver errors as coded `PersistenceError`s. The two bindings report faults differently (better-sqlite3
 * as `code: "SQLITE_READONLY_DIRECTORY"`, libsql as `rawCode: 1544`, or, when a file cannot be opened, only
 * in its message), so each is reduced to SQLite's primary result code first.
 */
import { PersistenceError, type PersistenceErrorCode } from "../../engine/index.js";

/** SQLite's primary result codes that mean something here, by number and by name. */
const PRIMARY: Readonly<Record<number, string>> = {
  3: "PERM",
  5: "BUSY",
  6: "LOCKED",
  8: "READONLY",
  10: "IOERR",
  11: "CORRUPT",
  13: "FULL",
  14: "CANTOPEN",
  23: "AUTH",
  26: "NOTADB",
};

/** The primary result code of a driver error (`"FULL"`, `"READONLY"`…), or `undefined` when it is not SQLite's. */
export function sqliteFault(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, rawCode, message } = error as { code?: unknown; rawCode?: unknown; message?: unknown };
  if (typeof rawCode === "number") return PRIMARY[rawCode & 0xff] ?? "OTHER";
  if (typeof code === "string") {
    const numbered = /^UNKNOWN_SQLITE_ERROR_(\d+)$/.exec(code);
    if (numbered !== null) return PRIMARY[Number(numbered[1]) & 0xff] ?? "OTHER";
    if (code.startsWith("SQLITE_"))
      return Object.values(PRIMARY).find((name) => code === `SQLITE_${name}` || code.startsWith(`SQLITE_${name}_`)) ?? "OTHER";
  }
  // libsql's "ConnectionFailed(\"Unable to open connection to local database x: 14\")".
  const opened = typeof message === "string" ? /ConnectionFailed\(.*: (\d+)"?\)$/.exec(message) : null;
  return opened === null ? undefined : (PRIMARY[Number(opened[1]) & 0xff] ?? "OTHER");
}

/** Whether the error is SQLite's NOT NULL constraint failing (SQLITE_CONSTRAINT_NOTNULL, 1299): how a checked insert says no. */
export function isNotNullFault(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, rawCode } = error as { code?: unknown; rawCode?: unknown };
  return rawCode === 1299 || code === "SQLITE_CONSTRAINT_NOTNULL";
}

/** Whether the error says the file (or its directory, or its file system) cannot be written. */
export function isReadOnlyFault(error: unknown): boolean {
  const fault = sqliteFault(error);
  return fault === "READONLY" || fault === "CANTOPEN" || fault === "PERM" || fault === "AUTH";
}

/** The first line of a driver error, for a message. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]?.slice(0, 200) ?? "";
}

/** A value of the user's, quoted and capped, for a message. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

/** The code and the advice for a fault met while `api` was working on `file`. */
export function faultAdvice(error: unknown, file: string): { code: PersistenceErrorCode; advice: string } {
  switch (sqliteFault(error)) {
    case "FULL":
      return {
        code: "DISK_FULL",
        advice: `the disk holding ${quoted(file)} is full (or the database reached its size limit): free some space`,
      };
    case "READONLY":
    case "PERM":
    case "AUTH":
      return {
        code: "READ_ONLY",
        advice: `${quoted(file)} cannot be written (a read-only file, directory or file system): make it writable`,
      };
    case "BUSY":
    case "LOCKED":
      return {
        code: "DATABASE_BUSY",
        advice: `another connection held ${quoted(file)} locked for longer than busyTimeoutMs: let it finish, or raise busyTimeoutMs`,
      };
    case "CORRUPT":
    case "NOTADB":
      return {
        code: "DATABASE_CORRUPT",
        advice: `${quoted(file)} is not an SQLite database, or is damaged: restore it from a backup or use another file`,
      };
    case "CANTOPEN":
      return { code: "OPEN_FAILED", advice: `${quoted(file)} cannot be opened: check that its directory exists and is writable` };
    default:
      return { code: "STORAGE_FAILED", advice: `the SQLite driver failed on ${quoted(file)}` };
  }
}

/** `error` as a coded `PersistenceError` (unchanged when it already is one). */
export function storageError(api: string, error: unknown, file: string, what: string): PersistenceError {
  if (error instanceof PersistenceError) return error;
  const { code, advice } = faultAdvice(error, file);
  return new PersistenceError(code, `${api}: ${what} failed: ${advice} (${reasonOf(error)}).`, { cause: error });
}
