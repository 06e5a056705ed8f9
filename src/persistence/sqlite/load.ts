/**
 * Loading a built-in driver's package, lazily: importing `typed-state-graph/persistence` loads no
 * SQLite binding; the first `SqliteCheckpointer` that opens loads the one it uses. `require` (not
 * `import()`) because the constructor opens the file synchronously and reports a missing driver
 * there, where the caller wrote `new SqliteCheckpointer(…)`.
 */
import { createRequire } from "node:module";
import { InvalidOptionError } from "../../errors.js";
import { PersistenceError } from "../../engine/index.js";
import { betterSqlite3Driver, type BetterSqlite3Module } from "./better-sqlite3.js";
import { DRIVER_PACKAGES, type SqliteDriver, type SqliteDriverName } from "./driver.js";
import { libsqlDriver, type LibsqlModule } from "./libsql.js";

const loaded = new Map<SqliteDriverName, SqliteDriver>();

/**
 * The built-in driver `name`, loading its package on first use. Throws `PersistenceError`
 * (`DRIVER_MISSING`) with the install command when the package is not installed.
 *
 * @example
 * ```ts
 * const driver = sqliteDriver("better-sqlite3"); // DRIVER_MISSING unless better-sqlite3 12 is installed
 * const checkpointer = new SqliteCheckpointer("runs.sqlite", { driver });
 * ```
 */
export function sqliteDriver(name: SqliteDriverName): SqliteDriver {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached;
  let module: unknown;
  try {
    module = createRequire(import.meta.url)(name);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new PersistenceError(
      "DRIVER_MISSING",
      `SqliteCheckpointer: could not load the SQLite driver "${name}" (${reason}). Install it next to typed-state-graph: ` +
        `${DRIVER_PACKAGES[name].install}${name === "libsql" ? "" : `, or use the default driver, libsql`}.`,
      { cause: error },
    );
  }
  const driver = name === "libsql" ? libsqlDriver(module as LibsqlModule) : betterSqlite3Driver(module as BetterSqlite3Module);
  loaded.set(name, driver);
  return driver;
}

/** The driver the `driver` option asks for: a built-in name (default `"libsql"`) or a {@link SqliteDriver}. */
export function resolveDriver(choice: unknown): SqliteDriver {
  if (choice === undefined) return sqliteDriver("libsql");
  if (choice === "libsql" || choice === "better-sqlite3") return sqliteDriver(choice);
  if (typeof choice === "object" && choice !== null && typeof (choice as SqliteDriver).open === "function") {
    return choice as SqliteDriver;
  }
  throw new InvalidOptionError(
    `SqliteCheckpointer: the driver option must be "libsql", "better-sqlite3" or an object with open(file, options); ` +
      `got ${typeof choice === "string" ? JSON.stringify(choice.slice(0, 100)) : typeof choice}.`,
  );
}
