/** What libsql and better-sqlite3 share (the better-sqlite3 API), wrapped once as a {@link SqliteConnection}. */
import type { SqliteConnection, SqliteStatement } from "./driver.js";

/** A better-sqlite3-style database object, as both bindings expose it. */
export interface NativeDatabase {
  readonly inTransaction: boolean;
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  close(): unknown;
}

interface NativeStatement {
  run(...params: readonly unknown[]): unknown;
  get(...params: readonly unknown[]): unknown;
  all(...params: readonly unknown[]): unknown[];
  /** Rows as arrays from now on (both bindings; better-sqlite3 refuses it on a statement that returns no rows). */
  raw(toggle: boolean): NativeStatement;
}

/** The connection over `db`; `pragma` is the one call the bindings spell differently. */
export function nativeConnection(db: NativeDatabase, pragma: (statement: string) => unknown): SqliteConnection {
  return {
    get inTransaction() {
      return db.inTransaction;
    },
    prepare<P extends readonly unknown[], R>(sql: string): SqliteStatement<P, R> {
      const statement = db.prepare(sql);
      // A second statement in raw mode, prepared when first asked for (only statements that return rows are).
      let raw: NativeStatement | undefined;
      return {
        // The binding's { changes, lastInsertRowid }: a save reads its new row's seq from it.
        run: (...params) => statement.run(...params),
        get: (...params) => statement.get(...params) as R | undefined,
        all: (...params) => statement.all(...params) as R[],
        values: (...params) => {
          raw ??= db.prepare(sql).raw(true);
          return raw.all(...params) as unknown[][];
        },
      };
    },
    exec: (sql) => void db.exec(sql),
    pragma,
    close: () => void db.close(),
  };
}
