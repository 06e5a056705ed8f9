/**
 * What `quickCheck: true` costs when a SqliteCheckpointer opens a file (sqlite/verify.ts): PRAGMA quick_check
 * and, for comparison, integrity_check, on a file of 10,000 checkpoints (1,429 runs of the report workflow,
 * a thread each), median of 7 on fresh connections. Prints one markdown line.
 *
 * Run: npx tsx bench/quick-check.ts (TSG_SQLITE_DRIVER=better-sqlite3 for the other driver).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildReportGraph, initialReportState } from "../src/examples/report/index.js";
import { SqliteCheckpointer, sqliteDriver } from "../src/persistence/index.js";

const driver = process.env.TSG_SQLITE_DRIVER === "better-sqlite3" ? "better-sqlite3" : "libsql";
const dir = mkdtempSync(join(tmpdir(), "tsg-bench-quick-check-"));
const file = join(dir, "10k.sqlite");
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const checkpointer = new SqliteCheckpointer(file, { driver });
const graph = buildReportGraph();
for (let thread = 0; thread < 1429; thread++) await graph.invoke(initialReportState(), { threadId: `t${thread}`, checkpointer });
checkpointer.close();
const raw = sqliteDriver(driver).open(file, { mode: "readwrite", busyTimeoutMs: 5000 });
raw.pragma("wal_checkpoint(TRUNCATE)");
const rows = raw.prepare<[], { n: number }>("SELECT count(*) AS n FROM tsg_checkpoints").get()?.n ?? 0;
raw.close();

const timed = (pragma: string) => {
  const times: number[] = [];
  for (let round = 0; round < 7; round++) {
    const connection = sqliteDriver(driver).open(file, { mode: "readonly", busyTimeoutMs: 5000 });
    const start = performance.now();
    const result = connection.pragma(pragma);
    times.push(performance.now() - start);
    connection.close();
    if (result !== "ok") throw new Error(`${pragma}: ${String(result)}`);
  }
  return median(times);
};
const quick = timed("quick_check");
const integrity = timed("integrity_check");
const megabytes = statSync(file).size / 1e6;
console.log(
  `PRAGMA quick_check on ${rows} checkpoints (${megabytes.toFixed(1)} MB, ${driver}), median of 7: ${quick.toFixed(1)} ms ` +
    `(${(quick / megabytes).toFixed(1)} ms a MB); integrity_check ${integrity.toFixed(1)} ms.`,
);
rmSync(dir, { recursive: true, force: true });
