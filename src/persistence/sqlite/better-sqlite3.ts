/**
 * The better-sqlite3 driver (12.x), for users who already have it. It has no URI file names, so a
 * snapshot (a read-only directory, where SQLite cannot create the WAL's side files) reads the file
 * into memory, marked as a rollback-journal file so SQLite opens it without a WAL.
 */
import { readFileSync } from "node:fs";
import type { SqliteDriver } from "./driver.js";
import { nativeConnection, type NativeDatabase } from "./native.js";

/** The constructor better-sqlite3 exports. */
export type BetterSqlite3Module = new (
  source: string | Buffer,
  options: { readonly timeout: number; readonly readonly?: boolean; readonly fileMustExist?: boolean },
) => NativeDatabase & { pragma(source: string, options: { readonly simple: true }): unknown };

/** Bytes 18 and 19 of an SQLite header: the file format versions, 2 for WAL and 1 for a rollback journal. */
const FORMAT_VERSION_OFFSET = 18;

/** A {@link SqliteDriver} over the loaded better-sqlite3 module. */
export function betterSqlite3Driver(Database: BetterSqlite3Module): SqliteDriver {
  return {
    name: "better-sqlite3",
    open(file, options) {
      const timeout = options.busyTimeoutMs;
      let db: InstanceType<BetterSqlite3Module>;
      if (options.mode === "readwrite" || file === ":memory:") db = new Database(file, { timeout });
      else if (options.mode === "readonly") db = new Database(file, { timeout, readonly: true, fileMustExist: true });
      else {
        const image = readFileSync(file);
        if (image.length > FORMAT_VERSION_OFFSET + 1) image.fill(1, FORMAT_VERSION_OFFSET, FORMAT_VERSION_OFFSET + 2);
        db = new Database(image, { timeout, readonly: true });
      }
      return nativeConnection(db, (statement) => db.pragma(statement, { simple: true }));
    },
  };
}
