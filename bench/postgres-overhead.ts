/**
 * The PostgreSQL rows of the overhead formula (bench/_overhead.ts), on one embedded server: the report
 * run (7 checkpoints) plain, on a `PostgresCheckpointer` in both durability modes, and LangGraph.js +
 * PostgresSaver in both; the floors are the statements our store sent in a sample run of each mode (the
 * thread's `latest`, then 7 saves in sync or one saveMany in async), replayed for a new thread by a bare
 * `pg` client, no code of ours. Then throughput: threads per second with 1, 4 and 16 threads at once on
 * one PostgresCheckpointer (its pool), against LangGraph.js + PostgresSaver doing the same. Beside the
 * floors, the floor inside a run: the engine on a store that sends only the floor's statements, whose
 * overhead is the least any store can score (see floorStore).
 *
 * Run: npx tsc -p bench/tsconfig.json && node bench/dist/bench/postgres-overhead.js [--rounds=N] [--runs=N]
 */
import { pathToFileURL } from "node:url";
import pg from "pg";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { buildReportGraph, initialReportState, type ReportState } from "../src/examples/report/index.js";
import type { Checkpoint, Checkpointer } from "../src/engine/index.js";
import type { Durability } from "../src/index.js";
import { toLangGraph } from "../src/langgraph/index.js";
import { PostgresCheckpointer } from "../src/postgres/index.js";
import { startEmbeddedPostgres } from "../test/helpers/embedded-postgres.js";
import { loadAverage } from "./_machine.js";
import { type AlternatedOptions, figureOf, overheadTable, roundRatio, timeAlternated } from "./_overhead.js";
import type { Spread } from "./_rounds.js";
import { flag } from "./sqlite-overhead.js";

const MAX_STEPS = 30;

/** Contender names, as the tables print them. */
export const POSTGRES_OVERHEAD = {
  plain: "report run, no checkpointer",
  sync: "PostgresCheckpointer, durability sync",
  async: "PostgresCheckpointer, durability async",
  floorSync: "floor: a bare pg client, the same 8 statements (latest + 7 saves)",
  floorAsync: "floor: a bare pg client, the same 2 statements (latest + one saveMany)",
  inRunSync: "the engine on a store that sends only the floor's statements, durability sync",
  inRunAsync: "the engine on a store that sends only the floor's statements, durability async",
  langGraphSync: "LangGraph.js + PostgresSaver, durability sync",
  langGraphAsync: "LangGraph.js + PostgresSaver, durability async",
} as const;

/** One statement as the store sent it. */
interface Sent {
  readonly name?: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * A pool that notes the statements sent through it while `recording` is on: through `pool.query`, and on
 * the connections it checks out (the store runs a thread's statements on one: src/postgres/leases.ts).
 */
function recordingPool(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 16 });
  pool.on("error", () => undefined);
  const sent: Sent[] = [];
  let recording = false;
  const recorded =
    (query: (...args: unknown[]) => Promise<unknown>) =>
    (config: Sent, ...rest: unknown[]) => {
      if (recording && typeof config === "object") sent.push({ ...config, values: [...(config.values ?? [])] });
      return query(config, ...rest);
    };
  // Each connection's query is wrapped once: pool.query and the store's checkouts both reach it.
  const wrapped = new WeakSet<pg.PoolClient>();
  const wrap = (client: pg.PoolClient | undefined) => {
    if (client === undefined || wrapped.has(client)) return client;
    wrapped.add(client);
    return Object.assign(client, { query: recorded(client.query.bind(client) as (...args: unknown[]) => Promise<unknown>) });
  };
  type Done = (error: Error | undefined, client: pg.PoolClient | undefined, release: unknown) => void;
  const connect = pool.connect.bind(pool) as (callback?: Done) => Promise<pg.PoolClient>;
  Object.assign(pool, {
    // pool.query checks out through connect(callback).
    connect: (callback?: Done) =>
      callback === undefined ? connect().then(wrap) : connect((error, client, release) => callback(error, wrap(client), release)),
  });
  return {
    pool,
    async record(run: () => Promise<unknown>): Promise<Sent[]> {
      sent.length = 0;
      recording = true;
      try {
        await run();
      } finally {
        recording = false;
      }
      return [...sent];
    },
  };
}

/** Replays `statements` for thread `threadId` (their first value) on a bare client, one after another. */
async function replay(client: pg.Client, statements: readonly Sent[], threadId: string): Promise<void> {
  for (const { name, text, values } of statements) {
    await client.query({ ...(name === undefined ? {} : { name: `floor:${name}` }), text, values: [threadId, ...values.slice(1)] });
  }
}

/**
 * The floor inside a run: a store whose reads and saves send the sample run's statements on the bare
 * client, in order, for the run's thread, and do nothing else (no check, JSON or checksum of ours). Its
 * overhead is the least any store can score in the same rounds: the engine's thread path, and what the
 * run's JavaScript and the round trips cost each other when they take turns.
 */
function floorStore(client: pg.Client, sentSync: readonly Sent[], sentAsync: readonly Sent[]): Checkpointer {
  let next = 0;
  const send = (statement: Sent, threadId: string) => replay(client, [statement], threadId);
  return {
    // Every run starts with the thread's latest (sentSync[0] is the sample's; async's is the same statement).
    async latest(threadId) {
      next = 1;
      await send(sentSync[0] as Sent, threadId);
      return undefined;
    },
    save: (checkpoint: Checkpoint) => send(sentSync[next++ % sentSync.length] as Sent, checkpoint.threadId),
    saveMany: (checkpoints: readonly Checkpoint[]) => send(sentAsync[1] as Sent, (checkpoints[0] as Checkpoint).threadId),
    get: async () => undefined,
    list: async () => [],
    deleteThread: async () => undefined,
    putWrites: async () => undefined,
  };
}

/** Runs `threads` report runs at once, `total` in all, each on its own thread; returns threads per second. */
async function throughput(run: (threadId: string) => Promise<unknown>, concurrency: number, total: number, tag: string): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await run(`${tag}-${next++}`);
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

/** What {@link postgresOverhead} measured. */
export interface PostgresOverhead {
  readonly sync: Spread | undefined;
  readonly async: Spread | undefined;
  /** The floor-only store's overheads: the least any store scores in the same rounds. */
  readonly leastSync: Spread | undefined;
  readonly leastAsync: Spread | undefined;
  readonly markdown: string;
}

/** Starts a server, times the contenders in alternated rounds, then the throughput; stops the server. */
export async function postgresOverhead(options: AlternatedOptions, throughputRuns = 200): Promise<PostgresOverhead> {
  const loadBefore = loadAverage();
  const server = await startEmbeddedPostgres();
  const { pool, record } = recordingPool(server.url);
  const client = new pg.Client({ connectionString: server.url });
  const saverPool = new pg.Pool({ connectionString: server.url, max: 16 });
  saverPool.on("error", () => undefined);
  try {
    await client.connect();
    const ours = await PostgresCheckpointer.connect(pool, { schema: "tsg_overhead" });
    const saver = new PostgresSaver(saverPool, undefined, { schema: "langgraph_overhead" });
    await saver.setup();
    const graph = buildReportGraph();
    const input = initialReportState();
    const exported = await toLangGraph(graph);
    // The compiled graph reads its checkpointer at each run; toLangGraph compiles without one.
    (exported as unknown as { checkpointer: unknown }).checkpointer = saver;
    let thread = 0;
    const onOurs = (durability: Durability, threadId = `r${thread++}`) =>
      graph.invoke(input, { threadId, checkpointer: ours, maxSteps: MAX_STEPS, durability });
    const onLangGraph = (durability: Durability, threadId = `l${thread++}`) =>
      exported.invoke(input, {
        recursionLimit: MAX_STEPS,
        durability,
        configurable: { thread_id: threadId },
      } as never) as Promise<ReportState>;
    const sentSync = await record(() => onOurs("sync", "sample-sync"));
    const sentAsync = await record(() => onOurs("async", "sample-async"));
    if (sentSync.length !== 8 || sentAsync.length !== 2)
      throw new Error(`the sample runs sent ${sentSync.length} and ${sentAsync.length} statements, not 8 and 2`);
    const inRun = floorStore(client, sentSync, sentAsync);
    const onFloorStore = (durability: Durability) =>
      graph.invoke(input, { threadId: `s${thread++}`, checkpointer: inRun, maxSteps: MAX_STEPS, durability });
    const figures = await timeAlternated(
      [
        { name: POSTGRES_OVERHEAD.plain, run: () => graph.invoke(input, { maxSteps: MAX_STEPS }) },
        { name: POSTGRES_OVERHEAD.sync, run: () => onOurs("sync") },
        { name: POSTGRES_OVERHEAD.async, run: () => onOurs("async") },
        { name: POSTGRES_OVERHEAD.floorSync, run: () => replay(client, sentSync, `f${thread++}`) },
        { name: POSTGRES_OVERHEAD.floorAsync, run: () => replay(client, sentAsync, `f${thread++}`) },
        { name: POSTGRES_OVERHEAD.inRunSync, run: () => onFloorStore("sync") },
        { name: POSTGRES_OVERHEAD.inRunAsync, run: () => onFloorStore("async") },
        { name: POSTGRES_OVERHEAD.langGraphSync, run: () => onLangGraph("sync") },
        { name: POSTGRES_OVERHEAD.langGraphAsync, run: () => onLangGraph("async") },
      ],
      options,
    );
    const ms = (spread: Spread | undefined) => (spread === undefined ? "–" : `${spread.median.toFixed(2)} ms`);
    const table = overheadTable(
      figures,
      POSTGRES_OVERHEAD.plain,
      [
        {
          mode: "sync",
          floor: POSTGRES_OVERHEAD.floorSync,
          floorIs: "latest + 7 saves, each a round trip",
          store: POSTGRES_OVERHEAD.sync,
          floorStore: POSTGRES_OVERHEAD.inRunSync,
          target: "≤ 1.3",
        },
        {
          mode: "async",
          floor: POSTGRES_OVERHEAD.floorAsync,
          floorIs: "latest + one saveMany",
          store: POSTGRES_OVERHEAD.async,
          floorStore: POSTGRES_OVERHEAD.inRunAsync,
          target: "≤ 1.5",
        },
      ],
      ms,
    );
    const [sync, async] = [table.modes.get("sync"), table.modes.get("async")];
    const rows = Object.values(POSTGRES_OVERHEAD).map((name) => {
      const ratio = roundRatio(figures, name, POSTGRES_OVERHEAD.plain);
      return `| ${name} | ${ms(figureOf(figures, name))} | ${ratio === undefined ? "–" : `${ratio.median.toFixed(1)}×`} |`;
    });
    const faster = (theirs: string, mine: string) => {
      const ratio = roundRatio(figures, theirs, mine);
      return ratio === undefined ? "–" : `${ratio.median.toFixed(1)}× (${ratio.min.toFixed(1)}–${ratio.max.toFixed(1)})`;
    };
    const concurrency: string[] = [];
    for (const threads of [1, 4, 16]) {
      const mine = await throughput((id) => onOurs("sync", id), threads, throughputRuns, `tp${threads}`);
      const theirs = await throughput((id) => onLangGraph("sync", id), threads, Math.ceil(throughputRuns / 4), `tl${threads}`);
      concurrency.push(`| ${threads} | ${mine.toFixed(0)} | ${theirs.toFixed(0)} | ${(mine / theirs).toFixed(1)}× |`);
    }
    await ours.close();
    const markdown = [
      `PostgreSQL (embedded server, 127.0.0.1, fsync off), the report run (7 checkpoints): ${options.rounds} alternated rounds of ` +
        `${options.runs} runs each, a contender's figure the median of its round; load average before ${loadBefore}, after ${loadAverage()}.`,
      "",
      "| contender | per run (median of the rounds) | × plain (same round) |",
      "|---|---|---|",
      ...rows,
      "",
      table.markdown,
      "",
      "| what (median of the rounds, min–max) | measured | target |",
      "|---|---|---|",
      `| LangGraph.js + PostgresSaver ÷ PostgresCheckpointer, both sync | ${faster(POSTGRES_OVERHEAD.langGraphSync, POSTGRES_OVERHEAD.sync)} | ≥ 12× |`,
      `| the same, both async | ${faster(POSTGRES_OVERHEAD.langGraphAsync, POSTGRES_OVERHEAD.async)} | ≥ 20× |`,
      "",
      `Throughput, durability sync, each run a new thread (ours ${throughputRuns} runs, LangGraph.js ${Math.ceil(throughputRuns / 4)}; ` +
        "each side with a pool of 16 connections):",
      "",
      "| threads at once | PostgresCheckpointer (threads/s) | LangGraph.js + PostgresSaver (threads/s) | ours ÷ theirs |",
      "|---|---|---|---|",
      ...concurrency,
    ].join("\n");
    return { sync: sync?.ours, async: async?.ours, leastSync: sync?.least, leastAsync: async?.least, markdown };
  } finally {
    await client.end().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await saverPool.end().catch(() => undefined);
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const measured = await postgresOverhead({ rounds: flag("rounds") ?? 20, runs: flag("runs") ?? 5 }, flag("throughput") ?? 200);
  console.log(measured.markdown);
}
