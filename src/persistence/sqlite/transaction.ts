/** One `BEGIN IMMEDIATE` transaction over any driver, safe when SQLite has already rolled it back. */
import type { SqliteConnection } from "./driver.js";

/**
 * Runs `body` in an IMMEDIATE transaction: the write lock is taken before the first read, so a
 * read-check-write body is atomic across connections and processes. On a full disk (and a few other
 * errors) SQLite rolls the transaction back itself; then `ROLLBACK` would fail and hide the real
 * error, so it only runs while a transaction is still open.
 */
export function immediate<T>(connection: SqliteConnection, body: () => T): T {
  connection.exec("BEGIN IMMEDIATE");
  try {
    const result = body();
    connection.exec("COMMIT");
    return result;
  } catch (error) {
    if (connection.inTransaction) connection.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Runs `body` in a read transaction (`BEGIN`, deferred: no write lock), so several statements read one
 * snapshot of the file even while another process writes (a row and its parents, a list and its writes).
 */
export function reading<T>(connection: SqliteConnection, body: () => T): T {
  connection.exec("BEGIN");
  try {
    return body();
  } finally {
    if (connection.inTransaction) connection.exec("COMMIT");
  }
}
