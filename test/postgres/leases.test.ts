/**
 * A thread's statements on one pooled connection (src/postgres/leases.ts): a run's saves check a
 * connection out once, a thread that waits on anything gives it back, close() returns what is held,
 * and a connection whose statement failed is discarded, not reused.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { PersistenceError } from "../../src/persistence/index.js";
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { counterGraph, counterInput, singleNodeGraph } from "../helpers/graphs.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";

/** A `pg.Pool` of `max` connections that counts its checkouts and `pool.query` calls, and what each connection was released with. */
function countingPool(max: number) {
  const pool = new pg.Pool({ connectionString: postgresUrl(), max });
  const counts = { checkouts: 0, poolQueries: 0, releasedWith: [] as unknown[] };
  let failNext = false;
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient>;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(pool, {
    // pool.query checks out through connect(callback): counted as a query, not wrapped.
    connect: async (callback?: unknown) => {
      if (callback !== undefined) return connect(callback);
      counts.checkouts++;
      const client = await connect();
      const release = client.release.bind(client);
      const clientQuery = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      return Object.assign(client, {
        release: (error?: Error | boolean) => {
          counts.releasedWith.push(error);
          release(error);
        },
        query: (...args: unknown[]) => {
          if (!failNext) return clientQuery(...args);
          failNext = false;
          return Promise.reject(Object.assign(new Error("Connection terminated unexpectedly"), { code: undefined }));
        },
      });
    },
    query: (...args: unknown[]) => {
      counts.poolQueries++;
      return query(...args);
    },
  });
  return { pool, counts, failNextStatement: () => (failNext = true) };
}

/** Two turns of the event loop: a thread's idle connection goes back to the pool by then (leases.ts). */
async function twoTurns(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

async function connected(max: number) {
  const counting = countingPool(max);
  pools.push(counting.pool);
  const checkpointer = await PostgresCheckpointer.connect(counting.pool, { schema: freshSchemaName("leases") });
  counting.counts.checkouts = 0;
  counting.counts.releasedWith.length = 0;
  return { ...counting, checkpointer };
}

describe("a thread's statements on one pooled connection", () => {
  // Sync: the latest read, then 7 saves one after another without a pause. Async: the latest read, then
  // one saveMany a turn of the event loop later (the drain's setImmediate), on the same connection.
  it.each(["sync", "async"] as const)(
    "a %s run's latest read and its saves check a connection out once, where pool.query took one per statement",
    async (durability) => {
      const { counts, checkpointer } = await connected(4);
      const result = await counterGraph(5).invoke(counterInput(), { threadId: "t1", checkpointer, durability });
      expect(result.state.n).toBe(5);
      expect(counts.checkouts).toBe(1);
      expect(counts.poolQueries).toBe(0);
      // Two turns of the event loop later, the connection is back in the pool: the next statement checks one out again.
      await twoTurns();
      expect((await checkpointer.list("t1")).length).toBe(7);
      expect(counts.checkouts).toBe(2);
      await checkpointer.close();
    },
  );

  it("gives the connection back while the thread waits: two threads on a pool of one connection both finish", async () => {
    const { pool, checkpointer } = await connected(1);
    // The node awaits a timer: its thread must not keep the only connection meanwhile.
    const timerGraph = singleNodeGraph(async (state) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { n: state.n + 1 };
    });
    const runs = await Promise.all(["a", "b", "c"].map((threadId) => timerGraph.invoke(counterInput(), { threadId, checkpointer })));
    expect(runs.map((run) => run.state.n)).toEqual([1, 1, 1]);
    expect(pool.totalCount).toBe(1);
    await checkpointer.close();
  }, 30_000);

  it("close() returns a held connection to the caller's pool at once", async () => {
    const { pool, checkpointer } = await connected(2);
    await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
    await checkpointer.close();
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it("discards a connection whose statement failed, and the next statement of the thread takes a new one", async () => {
    const { counts, checkpointer, failNextStatement } = await connected(2);
    await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
    failNextStatement();
    const failure = await counterGraph(2)
      .invoke(counterInput(), { threadId: "t2", checkpointer })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(PersistenceError);
    expect((failure as PersistenceError).code).toBe("CONNECTION_LOST");
    await twoTurns();
    expect(counts.releasedWith.filter((released) => released instanceof Error)).toHaveLength(1);
    const resumed = await counterGraph(2).invoke(counterInput(), { threadId: "t2", checkpointer });
    expect(resumed.state.n).toBe(2);
    await checkpointer.close();
  });
});
