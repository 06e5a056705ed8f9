/**
 * PostgreSQL for the tests: the run's shared server (started once by
 * test/helpers/postgres-global-setup.ts, or the one `DATABASE_URL` names), and a fresh database or
 * schema per test file so that files running in parallel never see each other's rows.
 *
 * A test that stops or kills a server must not touch the shared one: it starts its own with
 * `startEmbeddedPostgres()` from ./embedded-postgres.js (about a second).
 *
 * @example
 * ```ts
 * const db = await freshDatabase("dbos");   // CREATE DATABASE tsg_dbos_<random>
 * try { … new pg.Pool({ connectionString: db.url }) … } finally { await db.drop(); }
 * const schema = freshSchemaName("pg");     // "tsg_pg_<random>": a name for PostgresCheckpointer's schema option
 * ```
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";

/** The shared server's connection string (its `postgres` database, as a role that may create databases). */
export function postgresUrl(): string {
  return inject("postgresUrl");
}

/** `tsg_<prefix>_<random>`: a name no other test uses, valid unquoted as a database or schema name. */
export function freshSchemaName(prefix: string): string {
  return `tsg_${prefix.toLowerCase().replace(/[^a-z0-9_]/g, "_")}_${randomBytes(5).toString("hex")}`;
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A database of its own on the shared server; `drop()` removes it (connections still open on it are ended). */
export async function freshDatabase(prefix: string): Promise<{ readonly name: string; readonly url: string; drop(): Promise<void> }> {
  const name = freshSchemaName(prefix);
  const admin = postgresUrl();
  await onAdmin(admin, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: withDatabase(admin, name),
    drop: () => onAdmin(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function onAdmin(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
