/**
 * Loading `pg`, lazily: importing `typed-state-graph/postgres` loads nothing; the first
 * `PostgresCheckpointer.connect` with a connection string loads the driver, and says how to install
 * it when it is missing.
 */
import { PersistenceError } from "../engine/index.js";
import type { PostgresPool } from "./pool.js";

/** The options of `new pg.Pool(…)` the checkpointer sets. */
export interface PoolOptions {
  readonly connectionString: string;
  readonly max: number;
  readonly connectionTimeoutMillis: number;
}

interface PgModule {
  readonly Pool: new (options: PoolOptions) => PostgresPool;
}

let loaded: PgModule | undefined;

/** A new `pg.Pool`; `DRIVER_MISSING` when `pg` is not installed. */
export async function newPool(options: PoolOptions): Promise<PostgresPool> {
  if (loaded === undefined) {
    let module: { default?: PgModule } & Partial<PgModule>;
    try {
      module = (await import("pg")) as { default?: PgModule } & Partial<PgModule>;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new PersistenceError(
        "DRIVER_MISSING",
        `PostgresCheckpointer.connect: could not load the PostgreSQL driver "pg" (${reason}). Install it next to typed-state-graph: npm install pg@8.`,
        { cause: error },
      );
    }
    loaded = module.default ?? (module as PgModule);
  }
  return new loaded.Pool(options);
}
