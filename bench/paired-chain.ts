/**
 * The chain of N trivial nodes on this build and on another build of the engine, in alternated single
 * runs (this, other; other, this; …): on a machine too loaded for tinybench's rounds (load 12–15 on 2
 * cores spreads a round's ratio from 0.2× to 6×), the two runs of a pair share the moment's load, and the
 * median of the per-pair ratios with the 10th percentiles of each build's times still say which is faster.
 *
 *   npx tsc -p bench/tsconfig.json && node bench/dist/bench/paired-chain.js --baseline=DIR [--pairs=3000] [--n=1000]
 *
 * `DIR/index.js` is the other build, compiled from its `src/` and placed under bench/ so that its
 * packages resolve (as for profile-chain.js).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { compileGraph } from "../src/index.js";
import { loadAverage } from "./_machine.js";
import { chainGraph, type ChainState } from "./workloads/chain.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const baselineDir = option("baseline");
if (baselineDir === undefined) throw new Error("paired-chain: pass --baseline=DIR, the other build (DIR/index.js).");
const n = Number(option("n") ?? 1000);
const pairs = Number(option("pairs") ?? 3000);
const base: { compileGraph: typeof compileGraph } = await import(pathToFileURL(resolve(baselineDir, "index.js")).href);
const input: ChainState = { i: 0 };
const graphs = { current: chainGraph(n), baseline: chainGraph(n, undefined, base.compileGraph) };

async function timed(which: keyof typeof graphs): Promise<number> {
  const start = performance.now();
  const { state } = await graphs[which].invoke(input, { maxSteps: n });
  const elapsed = performance.now() - start;
  if (state.i !== n) throw new Error(`paired-chain: the ${which} chain ended at ${state.i}, not ${n}`);
  return elapsed;
}

for (let warm = 0; warm < 200; warm++) await Promise.all([timed("current"), timed("baseline")]);
const current: number[] = [];
const baseline: number[] = [];
const before = loadAverage();
for (let pair = 0; pair < pairs; pair++) {
  if (pair % 2 === 0) {
    current.push(await timed("current"));
    baseline.push(await timed("baseline"));
  } else {
    baseline.push(await timed("baseline"));
    current.push(await timed("current"));
  }
}
const quantile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] as number;
const ratios = current.map((time, pair) => time / (baseline[pair] as number));
const ms = (value: number): string => `${value.toFixed(3)} ms`;
console.log(`load before: ${before}; after: ${loadAverage()}`);
console.log(
  `chain N=${n}, ${pairs} alternated pairs: this build ${ms(quantile(current, 0.5))} a run (p10 ${ms(quantile(current, 0.1))}), ` +
    `baseline ${ms(quantile(baseline, 0.5))} (p10 ${ms(quantile(baseline, 0.1))})`,
);
console.log(
  `this build ÷ baseline: median of the pairs ${quantile(ratios, 0.5).toFixed(3)}× (p25 ${quantile(ratios, 0.25).toFixed(3)}, ` +
    `p75 ${quantile(ratios, 0.75).toFixed(3)}); of the p10s ${(quantile(current, 0.1) / quantile(baseline, 0.1)).toFixed(3)}×`,
);
