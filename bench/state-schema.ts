/**
 * The state schema's cost alone (issue 39), in minutes rather than the whole suite's hour: the report
 * graph without a state schema and with a zod 4, valibot and arktype one, timed in the same interleaved
 * rounds as `npm run bench` times them, with the load average before and after. `npm run bench` runs
 * the same workload as one of its tables and targets.
 *
 *   npx tsc -p bench/tsconfig.json && node bench/dist/bench/state-schema.js [--rounds=9] [--time=300]
 */
import { loadAverage } from "./_machine.js";
import { durationSpread, ratioSpread } from "./_markdown.js";
import { ratioOf, spreadOf, timeRounds } from "./_rounds.js";
import { STATE_SCHEMA, stateSchemaWorkload } from "./workloads/state-schema.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? fallback : Number(value);
};

const workload = await stateSchemaWorkload();
for (const { name, reason } of workload.skipped) console.log(`not measured: ${name}: ${reason}`);
const before = loadAverage();
const timed = await timeRounds(workload, { rounds: flag("rounds", 9), time: flag("time", 300), warmupTime: 100, iterations: 20 });
console.log(`load before: ${before}; after: ${loadAverage()}`);
for (const contender of workload.contenders) {
  const spread = spreadOf(timed, contender.name);
  const ratio = ratioOf(timed, contender.name, STATE_SCHEMA.plain);
  console.log(`${contender.name}: ${spread ? durationSpread(spread) : "–"} a run; ${ratio ? ratioSpread(ratio) : "–"} the graph without`);
}
