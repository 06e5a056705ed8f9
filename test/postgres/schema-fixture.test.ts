/**
 * A PostgreSQL schema written by the previous release (fixtures/schema-v2.sql: schema 2, ab83357's
 * PostgresCheckpointer, the threads every schema fixture holds) connects, migrates to the current schema
 * and reads every thread as that release's list() did; its paused thread resumes, its failed superstep
 * re-runs only the failed task, a fork and a prune work on its rows.
 */
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA_VERSION, PostgresCheckpointer } from "../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";
import { checkMigratedThreads, expectedThreads } from "../persistence/_schema-fixture.js";
import { loadSchemaDump } from "./_schema-dump.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

async function migrationsOf(schema: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    const result = await client.query<{ version: number }>(`SELECT version FROM ${schema}.tsg_migrations ORDER BY version`);
    return result.rows.map((row) => row.version);
  } finally {
    await client.end();
  }
}

describe("a schema written by PostgreSQL schema 2 (the release before deferred nodes)", () => {
  it(`migrates to schema ${POSTGRES_SCHEMA_VERSION} and reads every thread as schema 2 did; resumes, forks and prunes`, async () => {
    const schema = freshSchemaName("v2");
    await loadSchemaDump(postgresUrl(), join(FIXTURES, "schema-v2.sql"), schema);
    expect(await migrationsOf(schema)).toEqual([1, 2]);
    const checkpointer = await PostgresCheckpointer.connect(postgresUrl(), { schema });
    try {
      expect(await migrationsOf(schema)).toEqual([1, 2, 3]);
      await checkMigratedThreads(checkpointer, expectedThreads(join(FIXTURES, "schema-v2.expected.json")));
    } finally {
      await checkpointer.close();
    }
  });
});
