/**
 * What goes wrong with a server, each against a real one: a wrong connection string, a server that
 * is down, a connection lost mid-run (the server killed under a running graph), a schema from a
 * newer version. Each is a coded PersistenceError naming what was wrong (and, mid-run, where the run
 * stood), never a raw driver error, and nothing committed is lost. The tests that stop a server start
 * their own, so the run's shared server stays up.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { append, END, START, StateGraph } from "../../src/index.js";
import { PersistenceError } from "../../src/persistence/index.js";
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { POSTGRES_SCHEMA_VERSION } from "../../src/postgres/schema.js";
import { freePort } from "../helpers/embedded-postgres.js";
import { type EmbeddedServer, freshSchemaName, postgresUrl, startEmbeddedPostgres, withDatabase } from "../helpers/postgres.js";

/** The connect's rejection, checked to be a PersistenceError. */
async function refusal(connecting: Promise<unknown>): Promise<PersistenceError> {
  const error = await connecting.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PersistenceError);
  return error as PersistenceError;
}

describe("a wrong connection string", () => {
  it("that is not a URL is OPEN_FAILED, saying how to write one", async () => {
    const error = await refusal(PostgresCheckpointer.connect("host=localhost dbname=app"));
    expect(error.code).toBe("OPEN_FAILED");
    expect(error.message).toMatch(/^PostgresCheckpointer\.connect: .*postgres:\/\/user:password@host:5432\/database/);
  });

  it("with a wrong password is OPEN_FAILED naming the user and server, never the password", async () => {
    const url = new URL(postgresUrl());
    url.password = "not-the-password";
    const error = await refusal(PostgresCheckpointer.connect(url.toString(), { schema: freshSchemaName("pw") }));
    expect(error.code).toBe("OPEN_FAILED");
    expect(error.message).toMatch(/refused the user name or password for \w+@127\.0\.0\.1:\d+\/postgres/);
    expect(error.message).not.toContain("not-the-password");
    expect(error.cause).toMatchObject({ code: "28P01" });
  });

  it("naming a database that does not exist is OPEN_FAILED", async () => {
    const error = await refusal(PostgresCheckpointer.connect(withDatabase(postgresUrl(), "no_such_db")));
    expect(error).toMatchObject({ code: "OPEN_FAILED" });
    expect(error.message).toMatch(/the database of .*\/no_such_db .* does not exist/);
  });

  it("naming a host that does not resolve is OPEN_FAILED", async () => {
    const error = await refusal(PostgresCheckpointer.connect("postgres://u:p@no-such-host.invalid:5432/app", { connectTimeoutMs: 5000 }));
    expect(error.code).toBe("OPEN_FAILED");
    expect(error.message).toMatch(/no-such-host\.invalid:5432\/app/);
  });
});

describe("a server that is down", () => {
  it("is OPEN_FAILED on connect, naming where nothing answered", async () => {
    const port = await freePort();
    const error = await refusal(PostgresCheckpointer.connect(`postgres://u:p@127.0.0.1:${port}/app`));
    expect(error.code).toBe("OPEN_FAILED");
    expect(error.message).toContain(`no PostgreSQL server answered at u@127.0.0.1:${port}/app`);
    expect(error.cause).toMatchObject({ code: "ECONNREFUSED" });
  });
});

interface Log {
  log: string[];
}

describe("a connection lost mid-run", () => {
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await startEmbeddedPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  /** a → b → c → d; `b` kills the server under the run when `kill` is set. */
  const graph = (kill: boolean) =>
    new StateGraph<Log>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", async () => {
        if (kill) await server.kill();
        return { log: ["b"] };
      })
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", () => ({ log: ["d"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", "d")
      .addEdge("d", END)
      .compile();

  it("is CONNECTION_LOST with where the run stood; after a restart the run resumes, nothing committed lost", async () => {
    const checkpointer = await PostgresCheckpointer.connect(server.url, { schema: "lost" });
    try {
      const failure = await graph(true)
        .invoke({ log: [] }, { threadId: "t1", checkpointer })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(failure).toBeInstanceOf(PersistenceError);
      const error = failure as PersistenceError;
      expect(error.code).toBe("CONNECTION_LOST");
      expect(error.message).toMatch(
        /^PostgresCheckpointer\.save: the connection to \w+@127\.0\.0\.1:\d+\/postgres \(schema lost\) was lost/,
      );
      expect(error.message).toMatch(/checkpoint 2 of thread "t1" \(after a → b; next: c\) was not saved/);
      expect(error).toMatchObject({ threadId: "t1", state: { log: ["a", "b"] }, trace: ["a", "b"] });

      // While the server is down, reading is CONNECTION_LOST too, never a raw driver error.
      await expect(checkpointer.latest("t1")).rejects.toMatchObject({ code: "CONNECTION_LOST", threadId: "t1" });

      await server.restart();
      // The same checkpointer works again (its pool opens new connections), and holds both committed checkpoints.
      const history = await checkpointer.list("t1");
      expect(history.map((c) => [c.step, c.trace])).toEqual([
        [1, ["a"]],
        [0, []],
      ]);
      expect(error.checkpointId).toBe(history[0]?.id);
      const resumed = await graph(false).invoke(null, { threadId: "t1", checkpointer });
      expect(resumed.state).toEqual((await graph(false).invoke({ log: [] })).state);
      // b ran twice, as the guarantee says (at least once for the node in flight); the committed a did not.
      expect(resumed.trace).toEqual(["a", "b", "c", "d"]);
    } finally {
      await checkpointer.close();
    }
  }, 60_000);
});

describe("a schema from a newer version", () => {
  it("is SCHEMA_VERSION, and the schema's checkpoints are left as they were", async () => {
    const schema = freshSchemaName("newer");
    const first = await PostgresCheckpointer.connect(postgresUrl(), { schema });
    await new StateGraph<Log>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile()
      .invoke({ log: [] }, { threadId: "t1", checkpointer: first });
    await first.close();
    const admin = new pg.Client({ connectionString: postgresUrl() });
    await admin.connect();
    try {
      await admin.query(`INSERT INTO ${schema}.tsg_migrations (version) VALUES (99)`);
      const error = await refusal(PostgresCheckpointer.connect(postgresUrl(), { schema }));
      expect(error.code).toBe("SCHEMA_VERSION");
      expect(error.message).toMatch(
        new RegExp(
          `schema "tsg_newer_\\w+" on .* has schema version 99, migrated by a newer typed-state-graph; this one reads versions up to ${POSTGRES_SCHEMA_VERSION}`,
        ),
      );
      const rows = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.tsg_checkpoints`);
      expect(rows.rows).toEqual([{ n: 2 }]);
    } finally {
      await admin.end();
    }
  });

  it("is SCHEMA_VERSION when the schema has our tables but no migration table", async () => {
    const schema = freshSchemaName("unknown");
    const admin = new pg.Client({ connectionString: postgresUrl() });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.tsg_checkpoints (x int)`);
      const error = await refusal(PostgresCheckpointer.connect(postgresUrl(), { schema }));
      expect(error.code).toBe("SCHEMA_VERSION");
      expect(error.message).toMatch(/has a tsg_checkpoints table but no tsg_migrations table/);
    } finally {
      await admin.end();
    }
  });
});
