/** The options of `PostgresCheckpointer.connect`, and the checks that refuse a wrong target or option. */
import { InvalidOptionError } from "../errors.js";
import { quoted } from "../persistence/sqlite/faults.js";
import type { PostgresPool } from "./pool.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./schema.js";

/** Options of {@link PostgresCheckpointer.connect}. */
export interface PostgresCheckpointerOptions {
  /**
   * The schema that holds the tables (default `"tsg"`), created on first connect if missing. Taken as
   * written (quoted): letters, digits and `_`, up to 63 characters, not starting with a digit.
   */
  readonly schema?: string;
  /** With a connection string: the most connections the checkpointer's pool opens (default 10). */
  readonly maxConnections?: number;
  /** With a connection string: how long connecting may take before it fails, in ms (default 10000). */
  readonly connectTimeoutMs?: number;
}

/** Whether `target` is a PostgreSQL URL (`postgres:` or `postgresql:`). */
export function isConnectionString(target: string): boolean {
  try {
    const { protocol } = new URL(target);
    return protocol === "postgres:" || protocol === "postgresql:";
  } catch {
    return false;
  }
}

/** Refuses an option the checkpointer would otherwise misread; returns the schema name. */
export function checkOptions(target: unknown, options: PostgresCheckpointerOptions): string {
  const invalid = (what: string) => new InvalidOptionError(`PostgresCheckpointer.connect: ${what}`);
  if (typeof target !== "string" && !isPool(target))
    throw invalid(
      `the first argument must be a connection string (postgres://user:password@host:5432/database) or a pg.Pool; got ${describe(target)}.`,
    );
  if (typeof options !== "object" || options === null) throw invalid(`the options must be an object; got ${describe(options)}.`);
  const { schema = DEFAULT_POSTGRES_SCHEMA, maxConnections, connectTimeoutMs } = options;
  if (typeof schema !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw invalid(
      `schema must be a name of letters, digits and _ (not starting with a digit, at most 63 characters); got ${typeof schema === "string" ? quoted(schema) : describe(schema)}.`,
    );
  }
  if (schema.toLowerCase().startsWith("pg_"))
    throw invalid(`schema must not start with "pg_" (PostgreSQL reserves those names); got ${quoted(schema)}.`);
  const whole = (name: string, value: unknown, min: number) => {
    if (value === undefined) return;
    if (!(Number.isSafeInteger(value) && (value as number) >= min))
      throw invalid(`${name} must be a whole number, ${min} or more; got ${describe(value)}.`);
    if (typeof target !== "string")
      throw invalid(`${name} configures the pool connect opens; with a pool of your own, set it on the pool.`);
  };
  whole("maxConnections", maxConnections, 1);
  whole("connectTimeoutMs", connectTimeoutMs, 1);
  return schema;
}

function isPool(value: unknown): value is PostgresPool {
  if (typeof value !== "object" || value === null) return false;
  const pool = value as Partial<Record<keyof PostgresPool, unknown>>;
  return typeof pool.query === "function" && typeof pool.connect === "function" && typeof pool.end === "function";
}

function describe(value: unknown): string {
  return typeof value === "number" ? String(value) : value === null ? "null" : typeof value;
}
