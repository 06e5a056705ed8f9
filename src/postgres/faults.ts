/**
 * Driver errors as coded `PersistenceError`s. `pg` reports a server's refusal with its SQLSTATE
 * (`code: "28P01"`), a network failure with Node's errno (`code: "ECONNREFUSED"`), and a connection
 * that died under it only in its message ("Connection terminated unexpectedly"), so each is sorted
 * here into what it means for the caller: cannot connect, lost the connection, busy, full, and so on.
 */
import { PersistenceError, type PersistenceErrorCode } from "../engine/index.js";
import { quoted, reasonOf } from "../persistence/sqlite/faults.js";

/** A fault, as a code and advice that completes "…failed: ". */
export interface Fault {
  readonly code: PersistenceErrorCode;
  readonly advice: string;
}

const NETWORK_ERRNOS = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
]);

/** Whether the error says the connection went away (as opposed to the server refusing one statement). */
export function isConnectionFault(error: unknown): boolean {
  const { code, message } = fields(error);
  if (code !== undefined && (NETWORK_ERRNOS.has(code) || code.startsWith("08") || code.startsWith("57P"))) return true;
  return (
    message !== undefined &&
    /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|not queryable/i.test(message)
  );
}

function fields(error: unknown): { code?: string; message?: string } {
  if (typeof error !== "object" || error === null) return {};
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { ...(typeof code === "string" ? { code } : {}), ...(typeof message === "string" ? { message } : {}) };
}

/**
 * What a driver error means, for a checkpointer on `where` (`127.0.0.1:5432/app, schema "tsg"`).
 * `connecting`: the error came while connecting or migrating (so a lost connection is a failure to connect).
 */
export function faultOf(error: unknown, where: string, connecting: boolean): Fault {
  const { code } = fields(error);
  if (code === "28P01" || code === "28000")
    return { code: "OPEN_FAILED", advice: `the server refused the user name or password for ${where}: check the connection string` };
  if (code === "3D000")
    return { code: "OPEN_FAILED", advice: `the database of ${where} does not exist: create it, or fix the connection string` };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return { code: "OPEN_FAILED", advice: `the host of ${where} is unknown: check the connection string` };
  if (code === "53100") return { code: "DISK_FULL", advice: `the server's disk is full (${where}): free some space` };
  if (code === "25006")
    return {
      code: "READ_ONLY",
      advice: `the server only accepts reads (${where}: a standby, or default_transaction_read_only): connect to the primary`,
    };
  if (code === "42501")
    return {
      code: connecting ? "OPEN_FAILED" : "STORAGE_FAILED",
      advice: `the role lacks a privilege on ${where}: grant it CREATE on the database (to create the schema) or USAGE and CREATE on the schema`,
    };
  if (code === "40001" || code === "40P01" || code === "55P03" || code === "57014")
    return { code: "DATABASE_BUSY", advice: `the server gave up waiting for a lock or a statement (${where}): try again` };
  if (isConnectionFault(error)) {
    return connecting
      ? {
          code: "OPEN_FAILED",
          advice: `no PostgreSQL server answered at ${where} (it is down, or the host or port is wrong): start it, or fix the connection string`,
        }
      : {
          code: "CONNECTION_LOST",
          advice: `the connection to ${where} was lost (the server stopped or restarted, or the network failed): once it is back, try again`,
        };
  }
  return { code: "STORAGE_FAILED", advice: `the PostgreSQL driver failed on ${where}` };
}

/** `error` as a coded `PersistenceError` (unchanged when it already is one). */
export function postgresError(api: string, error: unknown, where: string, what: string, threadId?: string): PersistenceError {
  if (error instanceof PersistenceError) return error;
  const { code, advice } = faultOf(error, where, false);
  const thread = threadId === undefined ? "" : ` for thread ${quoted(threadId)}`;
  return new PersistenceError(code, `${api}: ${what}${thread} failed: ${advice} (${reasonOf(error)}).`, {
    cause: error,
    ...(threadId === undefined ? {} : { threadId }),
  });
}

/** Where a connection string points, without its password: `tsg@127.0.0.1:5432/app`. */
export function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const user = url.username === "" ? "" : `${decodeURIComponent(url.username)}@`;
    return `${user}${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname === "" ? "/" : decodeURIComponent(url.pathname)}`;
  } catch {
    return "the server the connection string names";
  }
}
