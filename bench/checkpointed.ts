/**
 * The checkpointed report workload alone (the stores and LangGraph.js + PostgresSaver on one embedded
 * server), for a quick figure without the whole runtime suite, which times it too.
 *
 * Run: npx tsc -p bench/tsconfig.json; node bench/dist/bench/checkpointed.js [--rounds=N] [--time=MS]
 */
import { loadavg } from "node:os";
import { durationSpread, ratioSpread, table } from "./_markdown.js";
import { ratioOf, spreadOf, timeRounds } from "./_rounds.js";
import { FULL_RUN } from "./runtime-suite.js";
import { CHECKPOINTED, checkpointedWorkload } from "./workloads/checkpointed.js";

const flag = (name: string): number | undefined => {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? undefined : Number(value);
};

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}`,
);
const workload = await checkpointedWorkload();
let timed;
try {
  timed = await timeRounds(workload, { ...FULL_RUN, rounds: flag("rounds") ?? 5, time: flag("time") ?? FULL_RUN.time });
} finally {
  await workload.close();
}
const rows = workload.contenders.map((c) => {
  const spread = spreadOf(timed, c.name);
  const ratio = ratioOf(timed, c.name, c.baseline ?? workload.baseline);
  return [c.name, spread ? durationSpread(spread) : "–", spread ? durationSpread(spread, c.steps) : "–", ratio ? ratioSpread(ratio) : "–"];
});
console.log(
  table(
    ["contender", "per run", "per step", `× ${workload.baselineLabel}`],
    [...rows, ...workload.skipped.map((s) => [s.name, s.reason, "", ""])],
  ),
);
for (const [mode, ours, theirs, target] of [
  ["sync", CHECKPOINTED.postgres, CHECKPOINTED.langGraphPostgres, 12],
  ["async", CHECKPOINTED.postgresAsync, CHECKPOINTED.langGraphPostgresAsync, 20],
] as const) {
  const faster = ratioOf(timed, theirs, ours);
  console.log(
    `PostgresCheckpointer vs LangGraph.js + PostgresSaver, both durability ${mode}: ${faster ? `${ratioSpread(faster)} faster` : "not measured"} (target ≥ ${target}×)`,
  );
}
for (const name of [CHECKPOINTED.sqlite, CHECKPOINTED.sqliteAsync]) {
  const ratio = ratioOf(timed, name, CHECKPOINTED.plain);
  // The SQLite target is the overhead over the driver's floor: bench/sqlite-overhead.ts.
  console.log(`${name} ÷ the run without: ${ratio ? ratioSpread(ratio) : "not measured"}`);
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}`,
);
