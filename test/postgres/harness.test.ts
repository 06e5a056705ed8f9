/** The embedded server the Postgres and DBOS suites run on: it answers, and a fresh database is private to its test. */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase, postgresUrl, startEmbeddedPostgres } from "../helpers/postgres.js";

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("the test harness's PostgreSQL", () => {
  it("is a real server on 127.0.0.1 (or DATABASE_URL's)", async () => {
    const [row] = await query<{ version: string }>(postgresUrl(), "SELECT version()");
    expect(row?.version).toMatch(/^PostgreSQL \d+/);
    if (process.env.DATABASE_URL === undefined) expect(new URL(postgresUrl()).hostname).toBe("127.0.0.1");
  });

  it("gives a test a database of its own, and drops it", async () => {
    const db = await freshDatabase("harness");
    await query(db.url, "CREATE TABLE mine (n int)");
    const listed = async () =>
      (await query<{ datname: string }>(postgresUrl(), "SELECT datname FROM pg_database")).map((row) => row.datname);
    expect(await listed()).toContain(db.name);
    await db.drop();
    expect(await listed()).not.toContain(db.name);
  });

  it("starts a private server that a test may kill and restart, keeping what was committed", async () => {
    const server = await startEmbeddedPostgres();
    try {
      await query(server.url, "CREATE TABLE kept AS SELECT 42 AS n");
      await server.kill();
      await expect(query(server.url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
      await server.restart();
      expect(await query(server.url, "SELECT n FROM kept")).toEqual([{ n: 42 }]);
    } finally {
      await server.stop();
    }
  });
});
