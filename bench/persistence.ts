/**
 * The price of durability: the sequential report run (6 supersteps, so 7 checkpoints with the input's)
 * without a checkpointer, with MemoryCheckpointer, and with SqliteCheckpointer (WAL, synchronous
 * NORMAL, the default; FULL for comparison), plus the parts of a checkpoint write timed alone.
 * Issue 12's target: SQLite ≤ 5× the run without a checkpointer.
 *
 * Run: npx tsc -p bench/tsconfig.json; node bench/dist/bench/persistence.js
 * On better-sqlite3 (installed): TSG_SQLITE_DRIVER=better-sqlite3 node bench/dist/bench/persistence.js
 */
import { hash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { buildReportGraph, initialReportState } from "../src/examples/report/index.js";
import { checkJson, MemoryCheckpointer, SqliteCheckpointer, type Checkpoint } from "../src/persistence/index.js";

const MAX_STEPS = 30;
const graph = buildReportGraph();
const input = initialReportState();
const dir = mkdtempSync(join(tmpdir(), "tsg-bench-"));
const memory = new MemoryCheckpointer();
const driver = process.env.TSG_SQLITE_DRIVER === "better-sqlite3" ? "better-sqlite3" : "libsql";
const sqlite = new SqliteCheckpointer(join(dir, "normal.sqlite"), { driver });
const sqliteFull = new SqliteCheckpointer(join(dir, "full.sqlite"), { synchronous: "full", driver });
const parts = new SqliteCheckpointer(join(dir, "parts.sqlite"), { driver });

// One real checkpoint of the report run, to time its parts alone.
const sample =
  (await graph.invoke(input, { threadId: "sample", checkpointer: memory, maxSteps: MAX_STEPS }),
  (await memory.latest("sample")) as Checkpoint);

let thread = 0;
const bench = new Bench({
  name: `report run (6 supersteps) with and without checkpoints; SQLite on ${driver}`,
  time: 2000,
  warmupTime: 500,
});
bench
  .add("invoke, no checkpointer", () => graph.invoke(input, { maxSteps: MAX_STEPS }))
  .add("invoke + MemoryCheckpointer", () => graph.invoke(input, { threadId: `m${thread++}`, checkpointer: memory, maxSteps: MAX_STEPS }))
  .add("invoke + SqliteCheckpointer (NORMAL)", () =>
    graph.invoke(input, { threadId: `s${thread++}`, checkpointer: sqlite, maxSteps: MAX_STEPS }),
  )
  .add("invoke + SqliteCheckpointer (FULL)", () =>
    graph.invoke(input, { threadId: `f${thread++}`, checkpointer: sqliteFull, maxSteps: MAX_STEPS }),
  )
  .add("part: JSON check of one state", () => checkJson(sample.state, "state", "bench"))
  .add("part: JSON.stringify of one checkpoint", () => JSON.stringify(sample))
  .add("part: SHA-256 checksum of one checkpoint's JSON", () => hash("sha256", JSON.stringify(sample), "hex"))
  .add("part: one SQLite save (transaction)", () => parts.save({ ...sample, threadId: `p${thread++}`, parentId: null }, null));

await bench.run();
console.log(bench.name);
console.table(bench.table());
type Latency = { latency?: { mean: number; p50?: number } };
const latency = (name: string) => (bench.getTask(name)?.result as Latency | undefined)?.latency;
const base = latency("invoke, no checkpointer");
for (const name of ["invoke + MemoryCheckpointer", "invoke + SqliteCheckpointer (NORMAL)", "invoke + SqliteCheckpointer (FULL)"]) {
  const run = latency(name);
  if (run === undefined || base === undefined) continue;
  const median = run.p50 !== undefined && base.p50 !== undefined ? `, median ${(run.p50 / base.p50).toFixed(1)}×` : "";
  console.log(
    `${name}: ${(run.mean * 1000).toFixed(0)} µs per run, ${(run.mean / base.mean).toFixed(1)}× the run without a checkpointer (mean${median})`,
  );
}
console.log(
  `without: ${((base?.mean ?? Number.NaN) * 1000).toFixed(0)} µs per run; one checkpoint is ${JSON.stringify(sample).length} bytes of JSON`,
);
for (const c of [sqlite, sqliteFull, parts]) c.close();
rmSync(dir, { recursive: true, force: true });
