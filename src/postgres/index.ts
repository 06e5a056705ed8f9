/**
 * `typed-state-graph/postgres`: a {@link Checkpointer} in PostgreSQL, for threads that many
 * processes advance. A subpath entry because it needs the `pg` driver (8.x), an optional peer
 * dependency loaded only when a checkpointer connects. See docs/deploy.md.
 *
 * @module typed-state-graph/postgres
 */

export type { Checkpointer } from "../engine/index.js";
export { PostgresCheckpointer } from "./postgres-checkpointer.js";
export type { PostgresCheckpointerOptions } from "./postgres-checkpointer.js";
export { POSTGRES_SCHEMA_VERSION, DEFAULT_POSTGRES_SCHEMA } from "./schema.js";
export type { PostgresPool, PostgresPoolClient, PostgresQuery, PostgresResult } from "./pool.js";
