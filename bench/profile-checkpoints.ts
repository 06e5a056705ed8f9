/**
 * A small driver to profile a SQLite-checkpointed report run: runs it in a loop for a few seconds, so
 * `node --cpu-prof` sees the checkpoint path and little else.
 *
 * Run: npx tsc -p bench/tsconfig.json && node --cpu-prof --cpu-prof-dir=/tmp/prof bench/dist/bench/profile-checkpoints.js [sync|async|plain] [seconds]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildReportGraph, initialReportState } from "../src/examples/report/index.js";
import { SqliteCheckpointer } from "../src/persistence/index.js";

const mode = process.argv[2] ?? "sync";
const seconds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), "tsg-profile-"));
const store = new SqliteCheckpointer(join(dir, "profile.sqlite"));
const graph = buildReportGraph();
const input = initialReportState();
let runs = 0;
const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  if (mode === "plain") await graph.invoke(input, { maxSteps: 30 });
  else
    await graph.invoke(input, { threadId: `t${runs}`, checkpointer: store, maxSteps: 30, durability: mode === "async" ? "async" : "sync" });
  runs++;
}
store.close();
rmSync(dir, { recursive: true, force: true });
console.log(`${mode}: ${runs} runs in ${seconds} s, ${((seconds * 1e6) / runs).toFixed(0)} µs a run`);
