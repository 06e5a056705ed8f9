/**
 * What the checkpointer needs of a connection pool: the part of `pg.Pool` it calls. A structural type,
 * so the package's declarations do not depend on `@types/pg`, and a `pg.Pool` you already have fits.
 */

/** One query, as `pg` takes it: a named query is prepared once per connection. */
export interface PostgresQuery {
  readonly text: string;
  readonly values?: readonly unknown[];
  /** Prepares the statement once per connection under this name. */
  readonly name?: string;
}

/** What a query returns. */
export interface PostgresResult<R> {
  readonly rows: R[];
  readonly rowCount: number | null;
}

/** A pooled connection, checked out for a transaction. */
export interface PostgresPoolClient {
  query<R>(query: PostgresQuery): Promise<PostgresResult<R>>;
  /** Returns the connection to the pool; with an error, the pool discards it. */
  release(error?: Error | boolean): void;
}

/**
 * A `pg.Pool` (pg 8), or anything with its `query`, `connect`, `end` and `on("error")`.
 *
 * @example
 * ```ts
 * import pg from "pg";
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const checkpointer = await PostgresCheckpointer.connect(pool, { schema: "tsg" });
 * ```
 */
export interface PostgresPool {
  query<R>(query: PostgresQuery): Promise<PostgresResult<R>>;
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}
