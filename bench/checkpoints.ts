/**
 * Small checkpoints (issue 20): what a SQLite-checkpointed thread costs as it grows. Prints, as markdown:
 * - the bytes each checkpoint adds to the file (row body + trace delta) at thread lengths 10, 1k, 2k and
 *   10k, on a loop whose state keeps one size (target: flat within 1.5× from 10 to 10k);
 * - listing a 2k-checkpoint history on a fresh connection (target: < 50 ms), and reading every entry's trace;
 * - the sequential report run with a SqliteCheckpointer ÷ the run without, in both durability modes (target:
 *   ≤ 4×), and the floor under them: the same rows written by the SQLite binding alone.
 *
 * Run: npx tsc -p bench/tsconfig.json && node bench/dist/bench/checkpoints.js (part of npm run bench).
 * TSG_SQLITE_DRIVER=better-sqlite3 for the other driver.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildReportGraph, initialReportState } from "../src/examples/report/index.js";
import { END, START, StateGraph } from "../src/index.js";
import { SqliteCheckpointer, sqliteDriver } from "../src/persistence/index.js";

const driver = process.env.TSG_SQLITE_DRIVER === "better-sqlite3" ? "better-sqlite3" : "libsql";
const dir = mkdtempSync(join(tmpdir(), "tsg-bench-checkpoints-"));
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** START → tick ⟲ until n reaches `limit` → END: one superstep, one checkpoint per tick; the state keeps its size. */
function ticker(limit: number) {
  return new StateGraph<{ n: number; note: string }>()
    .addNode("tick", (s) => ({ n: s.n + 1 }))
    .addEdge(START, "tick")
    .addConditionalEdges("tick", (s) => (s.n < limit ? "again" : "stop"), { again: "tick", stop: END })
    .compile();
}

/** Runs a thread of `length` supersteps; returns its file, and the bytes its last rows take (mean of the last 10). */
async function thread(length: number): Promise<{ file: string; perCheckpoint: number; fileBytes: number }> {
  const file = join(dir, `ticker-${length}.sqlite`);
  const checkpointer = new SqliteCheckpointer(file, { driver });
  const limits = { maxSteps: length + 1, recursionLimit: length + 1 };
  await ticker(length).invoke({ n: 0, note: "a state of constant size" }, { threadId: "t", checkpointer, ...limits });
  checkpointer.close();
  const raw = sqliteDriver(driver).open(file, { mode: "readwrite", busyTimeoutMs: 5000 });
  // Everything into the main file, so its size is what the thread takes (the WAL is scratch space).
  raw.pragma("wal_checkpoint(TRUNCATE)");
  const rows = raw
    .prepare<[], { bytes: number }>(
      "SELECT length(body) + coalesce(length(delta), 0) AS bytes FROM tsg_checkpoints ORDER BY seq DESC LIMIT 10",
    )
    .all();
  raw.close();
  const perCheckpoint = rows.reduce((sum, row) => sum + row.bytes, 0) / rows.length;
  const fileBytes = statSync(file).size;
  return { file, perCheckpoint, fileBytes };
}

const lines: string[] = [`Small checkpoints, SQLite on ${driver} (Node ${process.version}):`, ""];
lines.push("| thread length | bytes per checkpoint (last 10 rows) | vs length 10 | file |", "|---|---|---|---|");
const sizes = new Map<number, Awaited<ReturnType<typeof thread>>>();
for (const length of [10, 1000, 2000, 10000]) {
  const measured = await thread(length);
  sizes.set(length, measured);
  const ratio = measured.perCheckpoint / (sizes.get(10)?.perCheckpoint ?? measured.perCheckpoint);
  lines.push(`| ${length} | ${measured.perCheckpoint.toFixed(0)} B | ${ratio.toFixed(2)}× | ${(measured.fileBytes / 1e6).toFixed(2)} MB |`);
}

// Listing: a fresh connection each time, so nothing is at hand.
const history = sizes.get(2000)?.file as string;
const listTimes: number[] = [];
const readAllTimes: number[] = [];
for (let round = 0; round < 7; round++) {
  const checkpointer = new SqliteCheckpointer(history, { driver });
  let start = performance.now();
  const listed = await checkpointer.list("t");
  listTimes.push(performance.now() - start);
  start = performance.now();
  let entries = 0;
  for (const checkpoint of listed) entries += checkpoint.trace.length;
  readAllTimes.push(performance.now() - start);
  if (listed.length !== 2001 || entries !== (2000 * 2001) / 2)
    throw new Error(`the history reads ${listed.length} checkpoints, ${entries} trace entries`);
  checkpointer.close();
}
lines.push(
  "",
  `Listing the 2k-checkpoint history (2,001 checkpoints, fresh connection, median of 7): **${median(listTimes).toFixed(1)} ms**; ` +
    `then reading every entry's trace (2M entries in all): ${median(readAllTimes).toFixed(1)} ms more.`,
);

// The report run, plain and SQLite-checkpointed in both durability modes, and the floor under a
// checkpoint per superstep: the same run's 7 rows written by libsql alone, no code of ours, with an
// INSERT each, its own transaction (what sync needs at least) or all in one transaction (async).
// All alternated, so each sees the same machine load.
const graph = buildReportGraph();
const input = initialReportState();
const report = new SqliteCheckpointer(join(dir, "report.sqlite"), { driver });
await graph.invoke(input, { threadId: "sample", checkpointer: report, maxSteps: 30 });
const floorFile = join(dir, "floor.sqlite");
new SqliteCheckpointer(floorFile, { driver }).close(); // the same tables and indexes
const bare = sqliteDriver(driver).open(floorFile, { mode: "readwrite", busyTimeoutMs: 5000 });
bare.pragma("journal_mode = WAL");
bare.pragma("synchronous = NORMAL");
bare.pragma("wal_autocheckpoint = 4000"); // as SqliteCheckpointer's connections (src/persistence/sqlite/open.ts)
const columns = "thread_id, id, parent_id, step, created_at, body, checksum, delta, delta_checksum";
type Row = [string, string, string | null, number, string, string, string, string, string];
const sampleFile = sqliteDriver(driver).open(join(dir, "report.sqlite"), { mode: "readonly", busyTimeoutMs: 5000 });
const sampleRows = sampleFile
  .prepare<[], Record<string, unknown>>(`SELECT ${columns} FROM tsg_checkpoints WHERE thread_id = 'sample' ORDER BY seq`)
  .all()
  .map((row) => columns.split(", ").map((column) => row[column]) as Row);
sampleFile.close();
if (sampleRows.length !== 7) throw new Error(`the sample run stored ${sampleRows.length} checkpoints, not 7`);
const insert = bare.prepare<Row>(`INSERT INTO tsg_checkpoints (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
let threadId = 0;
const bareRun = (oneTransaction: boolean) => {
  const thread = `b${threadId++}`;
  if (oneTransaction) bare.exec("BEGIN IMMEDIATE");
  for (const [, ...rest] of sampleRows) insert.run(thread, ...rest);
  if (oneTransaction) bare.exec("COMMIT");
};
const contenders = {
  plain: () => graph.invoke(input, { maxSteps: 30 }),
  sync: () => graph.invoke(input, { threadId: `r${threadId++}`, checkpointer: report, maxSteps: 30 }),
  async: () => graph.invoke(input, { threadId: `r${threadId++}`, checkpointer: report, maxSteps: 30, durability: "async" }),
  floorSync: async () => bareRun(false),
  floorAsync: async () => bareRun(true),
};
const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, [] as number[]])) as Record<
  keyof typeof contenders,
  number[]
>;
for (let round = 0; round < 600; round++) {
  for (const [name, run] of Object.entries(contenders) as [keyof typeof contenders, () => Promise<unknown>][]) {
    const start = performance.now();
    await run();
    times[name].push(performance.now() - start);
  }
}
report.close();
bare.close();
const us = (name: keyof typeof contenders) => median(times[name].slice(100)) * 1000;
// The mean too: it carries what a median leaves out, the WAL checkpoints' fsyncs among them (and the scheduler's pauses).
const mean = (name: keyof typeof contenders) => (times[name].slice(100).reduce((sum, t) => sum + t, 0) / 500) * 1000;
const [p, sync, async, floorSync, floorAsync] = [us("plain"), us("sync"), us("async"), us("floorSync"), us("floorAsync")];
const ratio = (value: number) => `${(value / p).toFixed(1)}×`;
const meanRatio = (name: keyof typeof contenders) => `${(mean(name) / mean("plain")).toFixed(1)}×`;
lines.push(
  "",
  `The report run (6 supersteps, 7 checkpoints), median of 500 after 100 warm-up: ${p.toFixed(0)} µs plain; ` +
    `with SqliteCheckpointer (NORMAL) ${sync.toFixed(0)} µs in durability sync (**${ratio(sync)}**), ` +
    `${async.toFixed(0)} µs in async (**${ratio(async)}**). Means of the same runs: ${mean("plain").toFixed(0)} µs plain, ` +
    `sync ${mean("sync").toFixed(0)} µs (${meanRatio("sync")}), async ${mean("async").toFixed(0)} µs (${meanRatio("async")}).`,
  "",
  `The floor, the same 7 rows written by ${driver} alone (no code of ours), median: an INSERT each, its own transaction, ` +
    `${floorSync.toFixed(0)} µs (${ratio(floorSync)} the plain run, so sync cannot go below ${ratio(p + floorSync)}); ` +
    `all in one transaction, ${floorAsync.toFixed(0)} µs (${ratio(floorAsync)}: async's floor ${ratio(p + floorAsync)}). ` +
    `Means: ${mean("floorSync").toFixed(0)} µs and ${mean("floorAsync").toFixed(0)} µs.`,
);
console.log(lines.join("\n"));
rmSync(dir, { recursive: true, force: true });
