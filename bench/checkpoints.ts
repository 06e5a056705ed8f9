/**
 * Small checkpoints (issue 20): what a SQLite-checkpointed thread costs as it grows. Prints, as markdown:
 * - the bytes each checkpoint adds to the file (row body + trace delta) at thread lengths 10, 1k, 2k and
 *   10k, on a loop whose state keeps one size (target: flat within 1.5× from 10 to 10k);
 * - listing a 2k-checkpoint history on a fresh connection (target: < 50 ms), and reading every entry's trace;
 * - the report run's overhead on a SqliteCheckpointer in both durability modes: (store run − plain run) ÷
 *   floor, the floor being the same rows written by the SQLite binding alone (targets ≤ 1.3 sync, ≤ 1.5 async).
 *
 * Run: npx tsc -p bench/tsconfig.json && node bench/dist/bench/checkpoints.js (part of npm run bench).
 * TSG_SQLITE_DRIVER=better-sqlite3 for the other driver.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { END, START, StateGraph } from "../src/index.js";
import { SqliteCheckpointer, sqliteDriver } from "../src/persistence/index.js";
import { sqliteOverhead } from "./sqlite-overhead.js";

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

// The report run, plain and SQLite-checkpointed in both durability modes, against the floors under
// them: the overhead formula of bench/_overhead.ts, in alternated rounds (bench/sqlite-overhead.ts).
lines.push("", (await sqliteOverhead(driver, { rounds: 30, runs: 20 })).markdown);
console.log(lines.join("\n"));
rmSync(dir, { recursive: true, force: true });
