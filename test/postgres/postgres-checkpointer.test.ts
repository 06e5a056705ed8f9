/**
 * PostgresCheckpointer beyond the contract: the schema it creates and migrates, the options it
 * refuses, a pool of the caller's, a role that is not a superuser, threaded runs, and corrupt rows.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { PersistenceError } from "../../src/persistence/index.js";
import { POSTGRES_SCHEMA_VERSION, PostgresCheckpointer } from "../../src/postgres/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { freshDatabase, freshSchemaName, postgresUrl, withDatabase } from "../helpers/postgres.js";
import { parallelGraph, parallelInput } from "../persistence/_helpers.js";

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: postgresUrl(), max: 4 });
});
afterAll(() => pool.end());

const rows = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await pool.query<R>(sql, values)).rows;

async function withCheckpointer<T>(
  work: (checkpointer: PostgresCheckpointer, schema: string) => Promise<T>,
  schema = freshSchemaName("pg"),
) {
  const checkpointer = await PostgresCheckpointer.connect(postgresUrl(), { schema });
  try {
    return await work(checkpointer, schema);
  } finally {
    await checkpointer.close();
  }
}

describe("PostgresCheckpointer's schema", () => {
  it("is created in the schema the caller names, with a migration table recording the version", async () => {
    await withCheckpointer(async (checkpointer, schema) => {
      expect(checkpointer.schema).toBe(schema);
      const tables = await rows<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema],
      );
      expect(tables.map((t) => t.table_name)).toEqual(["tsg_checkpoints", "tsg_migrations", "tsg_threads", "tsg_writes"]);
      expect(await rows(`SELECT max(version) AS version FROM ${schema}.tsg_migrations`)).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    });
  });

  it("connects again to a migrated schema without migrating it twice, and sees its threads", async () => {
    const schema = freshSchemaName("again");
    await withCheckpointer((checkpointer) => counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer }), schema);
    await withCheckpointer(async (checkpointer) => {
      expect((await checkpointer.latest("t1"))?.next).toEqual([]);
      expect(await rows(`SELECT max(version) AS version FROM ${schema}.tsg_migrations`)).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    }, schema);
  });

  it("migrates once when many processes' checkpointers connect to a new schema at the same moment", async () => {
    const schema = freshSchemaName("race");
    const checkpointers = await Promise.all(Array.from({ length: 6 }, () => PostgresCheckpointer.connect(postgresUrl(), { schema })));
    await Promise.all(checkpointers.map((c) => c.close()));
    expect(await rows(`SELECT max(version) AS version FROM ${schema}.tsg_migrations`)).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
  });

  it("keeps schemas apart: one thread id in two schemas is two threads", async () => {
    await withCheckpointer((a) =>
      withCheckpointer(async (b) => {
        await counterGraph(1).invoke(counterInput(), { threadId: "same", checkpointer: a });
        expect(await b.latest("same")).toBeUndefined();
      }),
    );
  });
});

describe("PostgresCheckpointer's options", () => {
  it.each([
    ["a schema name SQL would need to quote", { schema: 'x"; DROP TABLE y; --' }, /schema must be a name of letters/],
    ["an empty schema name", { schema: "" }, /schema must be a name/],
    ["a schema name PostgreSQL reserves", { schema: "pg_mine" }, /must not start with "pg_"/],
    ["maxConnections 0", { maxConnections: 0 }, /maxConnections must be a whole number, 1 or more; got 0/],
    ["a fractional connectTimeoutMs", { connectTimeoutMs: 1.5 }, /connectTimeoutMs must be a whole number/],
  ])("refuses %s (INVALID_OPTION)", async (_what, options, message) => {
    const connecting = PostgresCheckpointer.connect(postgresUrl(), options as never);
    await expect(connecting).rejects.toThrow(InvalidOptionError);
    await expect(connecting).rejects.toThrow(message);
  });

  it("refuses a first argument that is neither a connection string nor a pool", async () => {
    await expect(PostgresCheckpointer.connect(42 as never)).rejects.toThrow(/the first argument must be a connection string .* got 42\./);
  });

  it("uses a pool of the caller's, and leaves it open on close", async () => {
    const checkpointer = await PostgresCheckpointer.connect(pool, { schema: freshSchemaName("pool") });
    expect(checkpointer.location).toBe(`the pool's server (schema ${checkpointer.schema})`);
    await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer });
    await checkpointer.close();
    expect(await rows("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await expect(checkpointer.latest("t1")).rejects.toMatchObject({ code: "CLOSED" });
    await expect(PostgresCheckpointer.connect(pool, { maxConnections: 3 })).rejects.toThrow(/with a pool of your own, set it on the pool/);
  });

  it("names the server in its location without the password", async () => {
    await withCheckpointer(async (checkpointer) => {
      const { username, hostname, port, password } = new URL(postgresUrl());
      expect(checkpointer.location).toContain(`${username}@${hostname}:${port}/`);
      expect(checkpointer.location).not.toContain(`:${password}@`);
    });
  });
});

describe("PostgresCheckpointer without a superuser", () => {
  const role = freshSchemaName("role");
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase("nosuper");
    await rows(`CREATE ROLE ${role} LOGIN PASSWORD 'pw' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
    await rows(`GRANT CREATE ON DATABASE ${db.name} TO ${role}`);
  });
  afterAll(async () => {
    await db.drop();
    await rows(`DROP ROLE IF EXISTS ${role}`);
  });

  const asRole = () => {
    const url = new URL(withDatabase(postgresUrl(), db.name));
    url.username = role;
    url.password = "pw";
    return url.toString();
  };

  it("creates its schema with CREATE on the database only, and runs threads", async () => {
    const [me] = await rows<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = $1", [role]);
    expect(me?.rolsuper).toBe(false);
    const checkpointer = await PostgresCheckpointer.connect(asRole(), { schema: "app" });
    try {
      const result = await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
      expect((await checkpointer.latest("t1"))?.state).toEqual(result.state);
    } finally {
      await checkpointer.close();
    }
  });
});

describe("threaded runs on PostgresCheckpointer", () => {
  it("end as a run without a checkpointer does, a checkpoint per superstep (joins and Sends included)", async () => {
    await withCheckpointer(async (checkpointer) => {
      const graph = parallelGraph();
      const plain = await graph.invoke(parallelInput());
      const threaded = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
      expect(threaded.state).toEqual(plain.state);
      expect(threaded.trace).toEqual(plain.trace);
      const history = await checkpointer.list("t1");
      expect(history).toHaveLength(plain.supersteps + 1);
      expect(history[0]?.state).toEqual(plain.state);
    });
  });

  it("stop at an interrupt and resume in another checkpointer (another process, as far as the store knows)", async () => {
    const schema = freshSchemaName("resume");
    const graph = parallelGraph({ interruptBefore: ["gather"] });
    const first = await withCheckpointer((checkpointer) => graph.invoke(parallelInput(), { threadId: "t1", checkpointer }), schema);
    expect(first).toMatchObject({ status: "interrupted", next: ["gather"] });
    const resumed = await withCheckpointer((checkpointer) => graph.invoke(null, { threadId: "t1", checkpointer }), schema);
    expect(resumed.status).toBe("done");
    expect(resumed.state).toEqual((await parallelGraph().invoke(parallelInput())).state);
  });

  it("with durability async, store the same history as sync, several checkpoints per saveMany, and pause and resume alike", async () => {
    await withCheckpointer(async (checkpointer) => {
      const graph = parallelGraph();
      await graph.invoke(parallelInput(), { threadId: "sync", checkpointer });
      let many = 0;
      const saveMany = checkpointer.saveMany.bind(checkpointer);
      checkpointer.saveMany = (checkpoints, expected) => {
        many += 1;
        return saveMany(checkpoints, expected);
      };
      const done = await graph.invoke(parallelInput(), { threadId: "async", checkpointer, durability: "async" });
      // A parallel superstep's pending writes name its checkpoint, so the queue before it is stored first: a few statements, not one per checkpoint.
      expect(many).toBeGreaterThan(0);
      expect(many).toBeLessThan((await checkpointer.list("async")).length / 2);
      const shape = (history: Awaited<ReturnType<typeof checkpointer.list>>) => history.map((c) => [c.step, c.state, c.next, c.trace]);
      expect(shape(await checkpointer.list("async"))).toEqual(shape(await checkpointer.list("sync")));
      expect((await checkpointer.latest("async"))?.id).toBe(done.checkpointId);
      const paused = await parallelGraph({ interruptBefore: ["gather"] }).invoke(parallelInput(), {
        threadId: "p",
        checkpointer,
        durability: "async",
      });
      expect((await checkpointer.latest("p"))?.id).toBe(paused.checkpointId);
      const resumed = await graph.invoke(null, { threadId: "p", checkpointer, durability: "async" });
      expect(resumed.state).toEqual(done.state);
    });
  });
});

describe("a corrupt row", () => {
  it("is CHECKPOINT_CORRUPT naming the checkpoint, never a wrong state, with advice for a database (which has no file)", async () => {
    await withCheckpointer(async (checkpointer, schema) => {
      await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer });
      const latest = await checkpointer.latest("t1");
      await rows(`UPDATE ${schema}.tsg_checkpoints SET body = replace(body, '"n":1', '"n":7') WHERE id = $1`, [latest?.id]);
      const reading = checkpointer.latest("t1");
      await expect(reading).rejects.toBeInstanceOf(PersistenceError);
      await expect(reading).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT", threadId: "t1", checkpointId: latest?.id });
      await expect(reading).rejects.toThrow(/PostgresCheckpointer\.latest: .* does not match its checksum/);
      await expect(reading).rejects.toThrow(/Restore the database from a backup/);
      await expect(reading).rejects.not.toThrow(/file/);
    });
  });
});
