/**
 * Opening the file: refuse a path that cannot be a database before SQLite sees it, then open it
 * read-write (check the schema version, then set up WAL and migrate), falling back to read-only when
 * the file, its directory or its file system cannot be written, so history stays readable where
 * nothing can be saved. A file that is refused, and a file opened read-only, are left as they were.
 */
import { accessSync, closeSync, constants, openSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { PersistenceError } from "../../engine/index.js";
import type { SqliteConnection, SqliteDriver, SqliteOpenMode } from "./driver.js";
import { isReadOnlyFault, quoted, storageError } from "./faults.js";
import { migrate, schemaVersion } from "./schema.js";
import { quickCheck } from "./verify.js";

/** How to open: from the checkpointer's options. */
export interface OpenRequest {
  readonly driver: SqliteDriver;
  readonly busyTimeoutMs: number;
  readonly synchronous: "NORMAL" | "FULL";
  readonly readOnly: boolean;
  /** Run `PRAGMA quick_check` before anything else, and refuse a damaged file (verify.ts). */
  readonly quickCheck: boolean;
}

/** An open file: the connection, whether it is read-only, and the schema version it has. */
export interface OpenedFile {
  readonly connection: SqliteConnection;
  readonly readOnly: boolean;
  readonly version: number;
}

const API = "SqliteCheckpointer";

/**
 * How many pages the write-ahead log holds before a commit copies them into the database file (SQLite's
 * default is 1000). That copy, a WAL checkpoint, costs two fsyncs and about 8 ms whatever its size, plus
 * a few µs a page: every 1000 pages it came to 51 µs a save on the report run, more than the save's own
 * commit (36 µs median); every 4000, 27 µs (docs/benchmarks.md). 4000 pages keep the log's index in one
 * 32 KiB block (4096 frames) and the log under 16 MiB (it is emptied when the last connection closes).
 * It changes no guarantee: a commit in the log survives the process being killed as one in the file does.
 */
const WAL_AUTOCHECKPOINT_PAGES = 4000;

/** Refuses a path that is not a usable database location, with the reason and the fix. */
function checkPath(file: unknown): asserts file is string {
  const invalid = (problem: string) =>
    new PersistenceError(
      "INVALID_DB_PATH",
      `${API}: the database path ${problem}. Pass a file path such as "runs.sqlite" (or ":memory:" for a store that lasts as long as the process).`,
    );
  if (typeof file !== "string") throw invalid(`must be a string, not ${file === null ? "null" : typeof file}`);
  // SQLite reads "" as a private temporary database, deleted when it closes: a thread saved there is lost at once.
  if (file.trim() === "")
    throw invalid(`is empty${file === "" ? "" : " (only spaces)"}: SQLite would open a temporary database, lost when it closes`);
  if (file === ":memory:") return;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isFile()) {
    throw new PersistenceError(
      "OPEN_FAILED",
      `${API}: ${quoted(file)} is ${stat.isDirectory() ? "a directory" : "not a regular file"}, not a database file. Pass the path of a file (it is created if missing).`,
    );
  }
  const parent = dirname(file);
  if (stat === undefined && statSync(parent, { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw new PersistenceError(
      "OPEN_FAILED",
      `${API}: cannot create ${quoted(file)}: the directory ${quoted(parent)} does not exist. Create it first, or pass a path in an existing directory.`,
    );
  }
}

function openWith(
  request: OpenRequest,
  file: string,
  mode: SqliteOpenMode,
  setUp: (connection: SqliteConnection) => number,
  readOnly = mode !== "readwrite",
): OpenedFile {
  let connection: SqliteConnection | undefined;
  try {
    connection = request.driver.open(file, { mode, busyTimeoutMs: request.busyTimeoutMs });
    if (request.quickCheck && file !== ":memory:") quickCheck(connection, file);
    return { connection, readOnly, version: setUp(connection) };
  } catch (error) {
    try {
      connection?.close();
    } catch {
      // The open error is the one to report.
    }
    throw error;
  }
}

/**
 * The schema of a file opened read-only, which is not set up: it must already be a checkpoint database.
 * `asked`: read-only because the caller asked (else because the file cannot be written).
 */
function readOnlySchema(file: string, asked: boolean): (connection: SqliteConnection) => number {
  return (connection) => {
    const version = schemaVersion(connection, file);
    if (version > 0) return version;
    throw new PersistenceError(
      "OPEN_FAILED",
      asked
        ? `${API}: ${quoted(file)} has no checkpoint tables (it is empty, or not a checkpoint database), and it was opened read-only, so nothing was written to it. Pass the file the checkpoints were saved in.`
        : `${API}: ${quoted(file)} has no checkpoint tables and cannot be written, so it cannot be set up. Make it writable, or pass another file.`,
    );
  };
}

/**
 * Opens a file the caller asked to read only, but that could be written, without leaving the WAL's
 * side files behind. SQLite's read-only connection creates `-wal` and `-shm` to read a WAL file, and,
 * unable to checkpoint, never removes them. A read-write connection under `PRAGMA query_only` refuses
 * every statement that writes, and when it is the last to close it removes them (an empty log: nothing
 * is copied into the file). `query_only` does not stop SQLite's own recovery, so this path is taken
 * only where that has nothing to do: a WAL file (a rollback-journal file needs no side files to be
 * read), with no `-journal` (a crash's, which SQLite would roll back into the file on the first read)
 * and an empty or missing log (a crash's checkpoints, which the close would copy into the file).
 * Everything else is read through a read-only connection, as found.
 */
function queryOnly(request: OpenRequest, file: string): OpenedFile | undefined {
  if (!writable(file) || !isWalFile(file) || sideFileSize(file, "-journal") !== undefined || (sideFileSize(file, "-wal") ?? 0) > 0) {
    return undefined;
  }
  return openWith(
    request,
    file,
    "readwrite",
    (connection) => {
      connection.pragma("query_only = 1");
      return readOnlySchema(file, true)(connection);
    },
    true,
  );
}

/** The size of `file`'s side file (`-wal`, `-journal`), or `undefined` when there is none. */
function sideFileSize(file: string, suffix: "-wal" | "-journal"): number | undefined {
  return statSync(`${file}${suffix}`, { throwIfNoEntry: false })?.size;
}

/** Bytes 18 and 19 of an SQLite header: the file format versions, 2 2 for a WAL file, 1 1 for a rollback journal. */
const FORMAT_VERSIONS = 18;

/** Whether `file`'s header marks it a WAL file (a file too short to have a header is not). */
function isWalFile(file: string): boolean {
  const header = Buffer.alloc(2);
  const fd = openSync(file, "r");
  try {
    return readSync(fd, header, 0, 2, FORMAT_VERSIONS) === 2 && header[0] === 2 && header[1] === 2;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether SQLite could write `file`: SQLite itself opens an unwritable file read-only without a word,
 * and needs its directory writable to create the WAL's side files.
 */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Opens `file` as the request says; every failure is a coded `PersistenceError`. */
export function openFile(file: unknown, request: OpenRequest): OpenedFile {
  checkPath(file);
  const exists = file === ":memory:" || statSync(file, { throwIfNoEntry: false }) !== undefined;
  if (!request.readOnly && (!exists || file === ":memory:" || writable(file))) {
    try {
      return openWith(request, file, "readwrite", (connection) => {
        // Before anything writes: journal_mode = WAL rewrites a rollback-journal file's header (bytes 18 and 19, 1 1 → 2 2),
        // so a file this version refuses (a newer, unreadable or missing schema version) would be changed on its way out.
        schemaVersion(connection, file);
        connection.pragma("journal_mode = WAL");
        connection.pragma(`synchronous = ${request.synchronous}`);
        connection.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
        return migrate(connection, file);
      });
    } catch (error) {
      if (!(exists && isReadOnlyFault(error))) throw storageError(API, error, file, "opening the database");
    }
  } else if (!exists) {
    throw new PersistenceError("OPEN_FAILED", `${API}: cannot open ${quoted(file)} read-only: it does not exist. Check the path.`);
  } else if (request.readOnly && file !== ":memory:") {
    try {
      const opened = queryOnly(request, file);
      if (opened !== undefined) return opened;
    } catch (error) {
      if (!isReadOnlyFault(error)) throw storageError(API, error, file, "opening the database read-only");
    }
  }
  // Read-only: SQLite still needs the WAL's side files; where it cannot create them, read a snapshot.
  try {
    return openWith(request, file, "readonly", readOnlySchema(file, request.readOnly));
  } catch (error) {
    if (!isReadOnlyFault(error)) throw storageError(API, error, file, "opening the database read-only");
  }
  // A snapshot reads the main file only. A crash's -journal holds the pages its unfinished transaction
  // overwrote: the file alone may be half-written (the read-only connection refused it: SQLITE_READONLY_ROLLBACK).
  if ((sideFileSize(file, "-journal") ?? 0) > 0) {
    throw new PersistenceError(
      "READ_ONLY",
      `${API}: ${quoted(file)} has a rollback journal ${quoted(`${file}-journal`)} left by a crash mid-transaction, which only a ` +
        `writable connection can roll back, and it was opened read-only${request.readOnly ? "" : " (it cannot be written)"}, so nothing was changed. ` +
        `Open it once without readOnly where it can be written (copy it and its -journal file to a writable directory if need be): that rolls the transaction back.`,
    );
  }
  // Checkpoints still in a WAL (left by a crash) would be missed.
  if ((sideFileSize(file, "-wal") ?? 0) > 0) {
    throw new PersistenceError(
      "READ_ONLY",
      `${API}: ${quoted(file)} cannot be written, and its write-ahead log ${quoted(`${file}-wal`)} still holds checkpoints that ` +
        `only a writable connection can read. Copy the file and its -wal file to a writable directory and open the copy.`,
    );
  }
  try {
    return openWith(request, file, "snapshot", readOnlySchema(file, request.readOnly));
  } catch (error) {
    throw storageError(API, error, file, "opening the database read-only");
  }
}
