/**
 * The report graph with its checkpoints stored, on every store, and LangGraph.js with its own
 * PostgreSQL saver (`@langchain/langgraph-checkpoint-postgres`) on the same server as the peer: each
 * run is a new thread, so each run writes the input's checkpoint and one per superstep (7 for the
 * report's 6 steps). The PostgreSQL server is an embedded one this workload starts (and `close` stops),
 * the one the tests use (test/helpers/embedded-postgres.ts: fsync off, 127.0.0.1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildReportGraph, initialReportState, type ReportState } from "../../src/examples/report/index.js";
import type { Durability } from "../../src/index.js";
import { SqliteCheckpointer, type Checkpointer } from "../../src/persistence/index.js";
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { startEmbeddedPostgres } from "../../test/helpers/embedded-postgres.js";
import { verify, type Candidate, type Skipped, type VerifiedWorkload } from "../_workload.js";

const MAX_STEPS = 30;
const STEPS = 6;

/**
 * Contender names, as the tables print them. Each store in both durability modes: "sync" (ours'
 * default: each checkpoint stored before the next superstep) and "async" (LangGraph.js's default:
 * stored behind the run, the invoke returning once all are stored), so each mode is compared with the same mode.
 */
export const CHECKPOINTED = {
  plain: "mini engine invoke, no checkpointer",
  sqlite: "mini engine + SqliteCheckpointer (libsql, WAL, NORMAL), durability sync",
  sqliteAsync: "mini engine + SqliteCheckpointer (libsql, WAL, NORMAL), durability async",
  postgres: "mini engine + PostgresCheckpointer, durability sync",
  postgresAsync: "mini engine + PostgresCheckpointer, durability async",
  langGraphPostgres: "LangGraph.js invoke + PostgresSaver, durability sync",
  langGraphPostgresAsync: "LangGraph.js invoke + PostgresSaver, durability async (its default)",
} as const;

/** A workload that holds a server and files until closed. */
export interface ClosableWorkload extends VerifiedWorkload {
  close(): Promise<void>;
}

/** Starts the server, opens every store, runs each contender once and checks its final state. */
export async function checkpointedWorkload(): Promise<ClosableWorkload> {
  const graph = buildReportGraph();
  const input = initialReportState();
  const expected = (await graph.invoke(input, { maxSteps: MAX_STEPS })).state;
  const dir = mkdtempSync(join(tmpdir(), "tsg-bench-checkpointed-"));
  const server = await startEmbeddedPostgres();
  const sqlite = new SqliteCheckpointer(join(dir, "bench.sqlite"));
  const postgres = await PostgresCheckpointer.connect(server.url, { schema: "tsg_bench" });
  const closers: (() => Promise<unknown> | unknown)[] = [() => postgres.close(), () => sqlite.close()];
  let thread = 0;
  const onStore = (name: string, checkpointer: Checkpointer, durability: Durability): Candidate<ReportState> => ({
    name,
    steps: STEPS,
    run: async () => (await graph.invoke(input, { threadId: `t${thread++}`, checkpointer, durability, maxSteps: MAX_STEPS })).state,
  });
  const candidates: (Candidate<ReportState> | Skipped)[] = [
    { name: CHECKPOINTED.plain, steps: STEPS, run: async () => (await graph.invoke(input, { maxSteps: MAX_STEPS })).state },
    onStore(CHECKPOINTED.sqlite, sqlite, "sync"),
    onStore(CHECKPOINTED.sqliteAsync, sqlite, "async"),
    onStore(CHECKPOINTED.postgres, postgres, "sync"),
    onStore(CHECKPOINTED.postgresAsync, postgres, "async"),
    ...(await langGraphOnPostgres(graph, input, server.url, closers, () => `l${thread++}`)),
  ];
  const verified = await verify(expected, candidates);
  return {
    title: "report graph (6 node executions), checkpointed: each run a new thread, 7 checkpoints",
    baseline: CHECKPOINTED.plain,
    baselineLabel: "the run without a checkpointer (LangGraph.js: × PostgresCheckpointer in the same durability mode)",
    ...verified,
    async close() {
      for (const close of closers) await close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * LangGraph.js running the exported report graph with PostgresSaver, in its own schema of the same
 * server, in both of its durability modes (LangGraph 1.x: `durability: "sync" | "async" | "exit"`,
 * default "async"; its invoke awaits every pending save before it returns in both).
 */
async function langGraphOnPostgres(
  graph: ReturnType<typeof buildReportGraph>,
  input: ReportState,
  url: string,
  closers: (() => Promise<unknown> | unknown)[],
  nextThread: () => string,
): Promise<(Candidate<ReportState> | Skipped)[]> {
  try {
    const [{ toLangGraph }, { PostgresSaver }, { default: pg }] = await Promise.all([
      import("../../src/langgraph/index.js"),
      import("@langchain/langgraph-checkpoint-postgres"),
      import("pg"),
    ]);
    // Our own pool (what fromConnString makes), with an error listener: a connection still closing when
    // the server stops would otherwise be an unhandled "error" event.
    const pool = new pg.Pool({ connectionString: url });
    pool.on("error", () => undefined);
    const saver = new PostgresSaver(pool, undefined, { schema: "langgraph_bench" });
    await saver.setup();
    closers.push(() => saver.end());
    const exported = await toLangGraph(graph);
    // The compiled graph reads its checkpointer at each run; toLangGraph compiles without one.
    (exported as unknown as { checkpointer: unknown }).checkpointer = saver;
    const mode = (name: string, baseline: string, durability: Durability): Candidate<ReportState> => ({
      name,
      steps: STEPS,
      baseline,
      run: async () =>
        (await exported.invoke(input, {
          recursionLimit: MAX_STEPS,
          durability,
          configurable: { thread_id: nextThread() },
        } as never)) as ReportState,
    });
    return [
      mode(CHECKPOINTED.langGraphPostgres, CHECKPOINTED.postgres, "sync"),
      mode(CHECKPOINTED.langGraphPostgresAsync, CHECKPOINTED.postgresAsync, "async"),
    ];
  } catch (error) {
    const reason = `it could not be set up: ${error instanceof Error ? error.message : String(error)}`;
    return [CHECKPOINTED.langGraphPostgres, CHECKPOINTED.langGraphPostgresAsync].map((name) => ({ name, reason }));
  }
}
