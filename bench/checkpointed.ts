/**
 * The checkpointed report workload alone (the stores and LangGraph.js + PostgresSaver on one embedded
 * server), for a quick figure without the whole runtime suite, which times it too.
 *
 * Run: npx tsc -p bench/tsconfig.json; node bench/dist/bench/checkpointed.js [--rounds=N] [--time=MS]
 */
import { durationSpread, ratioSpread, table } from "./_markdown.js";
import { ratioOf, spreadOf, timeRounds } from "./_rounds.js";
import { FULL_RUN } from "./runtime-suite.js";
import { CHECKPOINTED, checkpointedWorkload } from "./workloads/checkpointed.js";

const flag = (name: string): number | undefined => {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? undefined : Number(value);
};

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
const faster = ratioOf(timed, CHECKPOINTED.langGraphPostgres, CHECKPOINTED.postgres);
console.log(
  `\nPostgresCheckpointer vs LangGraph.js + PostgresSaver: ${faster ? `${ratioSpread(faster)} faster` : "not measured"} (target ≥ 10×)`,
);
