/**
 * DBOS throughput with I/O-bound nodes (issue 21 §2): 1,000 runs of the report graph, each node
 * awaiting a 20 ms timer, enqueued on one DBOS queue and worked by one worker process, then by two
 * (each `workerConcurrency` runs at a time). The nodes wait on timers, not on the cores, so a second
 * worker should nearly double the runs per second. Target: two ≥ 1.7× one.
 *
 * Run: npx tsc -p bench/tsconfig.json && node bench/dist/bench/dbos.js [--runs=1000] [--concurrency=5] [--no-write]
 * Uses DATABASE_URL when set, else an embedded Postgres it starts and removes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { initialReportState } from "../src/examples/report/index.js";
import { startEmbeddedPostgres } from "../test/helpers/embedded-postgres.js";
import { NODE_WAIT_MS } from "./_dbos-graph.js";
import { writeSection } from "./_markdown.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const RUNS = flag("runs", 1000);
const CONCURRENCY = flag("concurrency", 5);
const QUEUE = "bench-runs";
const WORKER = join(import.meta.dirname, "dbos-worker.js");

const server = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres();
const adminUrl = process.env.DATABASE_URL ?? (server?.url as string);

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function startWorker(url: string, executorId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER, url, executorId, QUEUE, String(CONCURRENCY)], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve(child));
    child.on("exit", (code) => reject(new Error(`bench worker ${executorId} exited with ${code}`)));
  });
}

/** Enqueues RUNS runs for `workers` worker processes and resolves with the runs per second. */
async function measure(workers: number): Promise<number> {
  const database = `tsg_bench_dbos_${workers}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = withDatabase(adminUrl, database);
  const children: ChildProcess[] = [];
  // The first worker creates DBOS's schema; the others start once it exists.
  for (let i = 1; i <= workers; i++) children.push(await startWorker(url, `bench-w${i}`));
  const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: "tsg-bench" });
  try {
    const ids = Array.from({ length: RUNS }, (_, i) => `bench-${workers}-${i}`);
    const started = performance.now();
    await Promise.all(
      ids.map((workflowID) =>
        client.enqueue({ workflowName: "tsg:report-io", queueName: QUEUE, workflowID, appVersion: "bench" }, initialReportState(), {
          maxSteps: 30,
        }),
      ),
    );
    for (;;) {
      const open = await client.listWorkflows({ workflowIDs: ids, status: ["PENDING", "ENQUEUED"], loadInput: false, loadOutput: false });
      if (open.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const failed = await client.listWorkflows({ workflowIDs: ids, status: ["ERROR", "CANCELLED"], loadInput: false, loadOutput: false });
    if (failed.length > 0) throw new Error(`${failed.length} bench runs failed`);
    return RUNS / seconds;
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await client.destroy();
  }
}

const load = loadavg()[0]?.toFixed(1);
const one = await measure(1);
console.error(`[bench:dbos] one worker: ${one.toFixed(1)} runs/s`);
const two = await measure(2);
console.error(`[bench:dbos] two workers: ${two.toFixed(1)} runs/s`);
await server?.stop();

const ratio = two / one;
const markdown = [
  `${RUNS.toLocaleString("en-US")} runs of the report graph on DBOS, every node awaiting a ${NODE_WAIT_MS} ms timer; one DBOS queue,`,
  `each worker process taking ${CONCURRENCY} runs at a time (\`workerConcurrency\`); from the first enqueue to the last run done.`,
  `Node ${process.version}, load average ${load} when it started (the machine's 2 cores are shared).`,
  "",
  "| workers | runs/s | vs one worker |",
  "|---|---:|---:|",
  `| 1 | ${one.toFixed(1)} | 1.00× |`,
  `| 2 | ${two.toFixed(1)} | ${ratio.toFixed(2)}× |`,
  "",
  `Target: two workers ≥ 1.7× one: **${ratio >= 1.7 ? "met" : "missed"}** (${ratio.toFixed(2)}×).`,
].join("\n");
console.log(markdown);
if (!args.includes("--no-write")) writeSection(resolve(process.cwd(), "docs/benchmarks.md"), "dbos", markdown);
