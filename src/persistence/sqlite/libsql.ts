/**
 * The libsql driver (the default): a better-sqlite3-style binding whose prebuilt binaries come inside
 * its registry packages, so installing it compiles nothing. Two of its habits are handled here: it
 * ignores a `readonly` option (read-only opening goes through a `file:` URI instead), and its rows
 * carry an extra `_metadata` column (so rows are read by column name, never by position).
 */
import { resolve } from "node:path";
import { fileUri, type SqliteDriver } from "./driver.js";
import { nativeConnection, type NativeDatabase } from "./native.js";

/** The constructor libsql exports. */
export type LibsqlModule = new (path: string, options: { readonly timeout: number }) => NativeDatabase;

/** A {@link SqliteDriver} over the loaded libsql module. */
export function libsqlDriver(Database: LibsqlModule): SqliteDriver {
  return {
    name: "libsql",
    open(file, options) {
      const path =
        file === ":memory:" || options.mode === "readwrite"
          ? file
          : fileUri(resolve(file), options.mode === "readonly" ? "mode=ro" : "mode=ro&immutable=1");
      const db = new Database(path, { timeout: options.busyTimeoutMs });
      return nativeConnection(db, (statement) => {
        const row = db.prepare(`PRAGMA ${statement}`).get() as Record<string, unknown> | undefined;
        return row === undefined ? undefined : row[Object.keys(row)[0] as string];
      });
    },
  };
}
