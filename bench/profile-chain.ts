/**
 * The trivial step alone (issue 34, "the hot path"): the chain of N trivial nodes and the report graph,
 * each on the mini engine and in its hand-written loop, timed in the same interleaved rounds as
 * `npm run bench` times them (tinybench, order rotated each round), with the load average printed
 * beside each figure. Much shorter than the whole suite, so a change to the run path can be measured
 * before and after in minutes on a loaded machine.
 *
 *   npx tsc -p bench/tsconfig.json && node bench/dist/bench/profile-chain.js [--rounds=9] [--time=300] [--n=1000]
 *
 * `--baseline=DIR` adds the chain on another build of the engine (`DIR/index.js`, compiled from `src/`,
 * placed under bench/ so that its packages resolve), timed in the same rounds: before and after a change.
 *
 * `--spin=MS` only runs the chain's `invoke` for that long and times nothing: the run to profile with
 * `node --cpu-prof bench/dist/bench/profile-chain.js --spin=5000`.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { compileGraph } from "../src/index.js";
import type { Contender } from "./_workload.js";
import { loadAverage } from "./_machine.js";
import { ratioSpread, durationSpread } from "./_markdown.js";
import { ratioOf, spreadOf, timeRounds } from "./_rounds.js";
import type { VerifiedWorkload } from "./_workload.js";
import { chainGraph, chainLoop, chainNames, type ChainState } from "./workloads/chain.js";
import { REPORT, reportWorkload } from "./workloads/report.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? fallback : Number(value);
};
const n = flag("n", 1000);
const input: ChainState = { i: 0 };
const graph = chainGraph(n);
const nodes = Array.from({ length: n }, () => (state: ChainState) => ({ i: state.i + 1 }));
const names = chainNames(n);

const spin = flag("spin", 0);
const baselineDir = args.find((arg) => arg.startsWith("--baseline="))?.split("=")[1];
const baselineName = `mini engine invoke, N=${n}, baseline build`;

/** The chain on the baseline build, when one was given. */
async function baselineContender(): Promise<Contender[]> {
  if (baselineDir === undefined) return [];
  const base: { compileGraph: typeof compileGraph } = await import(pathToFileURL(resolve(baselineDir, "index.js")).href);
  const other = chainGraph(n, undefined, base.compileGraph);
  const { state } = await other.invoke(input, { maxSteps: n });
  if (state.i !== n) throw new Error(`profile-chain: the baseline chain ended at ${state.i}, not ${n}`);
  return [{ name: baselineName, steps: n, run: async () => (await other.invoke(input, { maxSteps: n })).state }];
}
if (spin > 0) {
  const until = performance.now() + spin;
  let runs = 0;
  while (performance.now() < until) {
    const { state } = await graph.invoke(input, { maxSteps: n });
    if (state.i !== n) throw new Error(`profile-chain: the chain ended at ${state.i}, not ${n}`);
    runs++;
  }
  console.log(`${runs} runs of chain N=${n} in ${spin} ms: ${((spin * 1000) / (runs * n)).toFixed(3)} µs per step`);
} else {
  const report = await reportWorkload("mini engine only");
  const workload: VerifiedWorkload = {
    title: `chain N=${n} and the report graph`,
    baseline: names.loop,
    contenders: [
      { name: names.loop, steps: n, run: () => chainLoop(input, nodes) },
      { name: names.invoke, steps: n, run: async () => (await graph.invoke(input, { maxSteps: n })).state },
      ...(await baselineContender()),
      ...report.contenders.filter((c) => c.name === REPORT.loop || c.name === REPORT.invoke),
    ],
    skipped: [],
  };
  const before = loadAverage();
  const timed = await timeRounds(workload, { rounds: flag("rounds", 9), time: flag("time", 300), warmupTime: 100, iterations: 20 });
  const after = loadAverage();
  const chain = ratioOf(timed, names.invoke, names.loop);
  const reportRatio = ratioOf(timed, REPORT.invoke, REPORT.loop);
  const perStep = spreadOf(timed, names.invoke);
  const loopPerStep = spreadOf(timed, names.loop);
  console.log(`load before: ${before}; after: ${after}`);
  console.log(`chain N=${n}: mini engine ${chain ? ratioSpread(chain) : "–"} the loop`);
  console.log(
    `  per step: mini engine ${perStep ? durationSpread(perStep, n) : "–"}, loop ${loopPerStep ? durationSpread(loopPerStep, n) : "–"}`,
  );
  const versus = ratioOf(timed, names.invoke, baselineName);
  const basePerStep = spreadOf(timed, baselineName);
  if (versus && basePerStep)
    console.log(`  baseline build: ${durationSpread(basePerStep, n)} per step; this build takes ${ratioSpread(versus)} its time`);
  console.log(`report graph: mini engine ${reportRatio ? ratioSpread(reportRatio) : "–"} the loop`);
}
