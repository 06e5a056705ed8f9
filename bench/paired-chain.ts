/**
 * A workload on this build and on another build of the engine, in alternated samples (this, other;
 * other, this; …): on a machine too loaded for tinybench's rounds (load 12–15 on 2 cores spreads a
 * round's ratio from 0.2× to 6×), the two samples of a pair share the moment's load, and the median of
 * the per-pair ratios with the 10th percentiles of each build's times still say which is faster.
 *
 *   npx tsc -p bench/tsconfig.json && node bench/dist/bench/paired-chain.js --baseline=DIR
 *     [--workload=chain|report|report-plain] [--pairs=3000] [--n=1000] [--runs=R]
 *
 * `DIR/index.js` is the other build, compiled from its `src/` and placed under bench/ so that its
 * packages resolve (as for profile-chain.js). The workloads:
 * - `chain` (the default): the chain of N trivial nodes, one run a sample;
 * - `report`: each build's own report example (`DIR/examples/report/index.js`'s `buildReportGraph()`,
 *   its state schema included), R runs a sample (default 10);
 * - `report-plain`: the report graph compiled by each build's `compileGraph` from the same spec and node
 *   functions without a state schema: with `report`, it tells the engine's share of a change from the
 *   schema's.
 *
 * After the timing, each build runs `--gc-samples` samples (default 300) in a block of its own while the
 * young generation's collections are counted: how much a build allocates, which the machine's load does
 * not change. `node --max-semi-space-size=1 …` makes the count finer (a collection per MB allocated).
 */
import { resolve } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { compileGraph } from "../src/index.js";
import type { buildReportGraph } from "../src/examples/report/index.js";
import * as current from "../src/index.js";
import * as currentReport from "../src/examples/report/index.js";
import { loadAverage } from "./_machine.js";
import { chainGraph, type ChainState } from "./workloads/chain.js";
import { MAX_STEPS } from "./workloads/report.js";
import { reportGraphWith } from "./workloads/state-schema.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const baselineDir = option("baseline");
if (baselineDir === undefined) throw new Error("paired-chain: pass --baseline=DIR, the other build (DIR/index.js).");
const workload = option("workload") ?? "chain";
const n = Number(option("n") ?? 1000);
const pairs = Number(option("pairs") ?? 3000);
const runs = Number(option("runs") ?? (workload === "chain" ? 1 : 10));
const gcSamples = Number(option("gc-samples") ?? 300);

/** What one build runs for one sample, and the check that it ran to the end. */
type Sample = () => Promise<void>;

/** A build's engine and its report example. */
interface Build {
  readonly compileGraph: typeof compileGraph;
  readonly buildReportGraph: typeof buildReportGraph;
}

const load = async (dir: string): Promise<Build> => {
  const engine: { compileGraph: typeof compileGraph } = await import(pathToFileURL(resolve(dir, "index.js")).href);
  const report: { buildReportGraph: typeof buildReportGraph } = await import(pathToFileURL(resolve(dir, "examples/report/index.js")).href);
  return { compileGraph: engine.compileGraph, buildReportGraph: report.buildReportGraph };
};

function sampleOf(build: Build, which: string): Sample {
  if (workload === "chain") {
    const graph = chainGraph(n, undefined, build.compileGraph);
    const input: ChainState = { i: 0 };
    return async () => {
      for (let run = 0; run < runs; run++) {
        const { state } = await graph.invoke(input, { maxSteps: n });
        if (state.i !== n) throw new Error(`paired-chain: the ${which} chain ended at ${state.i}, not ${n}`);
      }
    };
  }
  if (workload !== "report" && workload !== "report-plain") {
    throw new Error(`paired-chain: --workload=${workload} is not one of chain, report, report-plain.`);
  }
  const graph = workload === "report" ? build.buildReportGraph() : reportGraphWith(undefined, build.compileGraph);
  const input = currentReport.initialReportState();
  return async () => {
    for (let run = 0; run < runs; run++) {
      const { state } = await graph.invoke(input, { maxSteps: MAX_STEPS });
      if (state.status !== "completed") throw new Error(`paired-chain: the ${which} report run ended ${state.status}`);
    }
  };
}

const samples = {
  current: sampleOf({ compileGraph: current.compileGraph, buildReportGraph: currentReport.buildReportGraph }, "current"),
  baseline: sampleOf(await load(baselineDir), "baseline"),
};

async function timed(which: keyof typeof samples): Promise<number> {
  const start = performance.now();
  await samples[which]();
  return performance.now() - start;
}

for (let warm = 0; warm < 200; warm++) await Promise.all([timed("current"), timed("baseline")]);
const currentTimes: number[] = [];
const baselineTimes: number[] = [];
const before = loadAverage();
for (let pair = 0; pair < pairs; pair++) {
  if (pair % 2 === 0) {
    currentTimes.push(await timed("current"));
    baselineTimes.push(await timed("baseline"));
  } else {
    baselineTimes.push(await timed("baseline"));
    currentTimes.push(await timed("current"));
  }
}
/** The young generation's collections while `which` runs `gcSamples` samples alone. */
async function minorCollections(which: keyof typeof samples): Promise<number> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail: unknown = Reflect.get(entry, "detail"); // a gc entry's { kind }
      if (typeof detail === "object" && detail !== null && Reflect.get(detail, "kind") === constants.NODE_PERFORMANCE_GC_MINOR) count++;
    }
  });
  await settle();
  observer.observe({ entryTypes: ["gc"] });
  for (let sample = 0; sample < gcSamples / 2; sample++) await samples[which]();
  await settle(); // the entries arrive after the collections
  observer.disconnect();
  return count;
}
// Two half blocks each, in the order this, other, other, this: neither build always goes first.
const collections = { current: await minorCollections("current"), baseline: await minorCollections("baseline") };
collections.baseline += await minorCollections("baseline");
collections.current += await minorCollections("current");

const quantile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] as number;
const ratios = currentTimes.map((time, pair) => time / (baselineTimes[pair] as number));
const perRun = (value: number): string => `${((value * 1000) / runs).toFixed(1)} µs`;
const title = workload === "chain" ? `chain N=${n}` : workload === "report" ? "report example" : "report graph, no state schema";
console.log(`load before: ${before}; after: ${loadAverage()}`);
console.log(
  `${title}, ${pairs} alternated pairs of ${runs} run(s): this build ${perRun(quantile(currentTimes, 0.5))} a run ` +
    `(p10 ${perRun(quantile(currentTimes, 0.1))}), baseline ${perRun(quantile(baselineTimes, 0.5))} (p10 ${perRun(quantile(baselineTimes, 0.1))})`,
);
console.log(
  `this build ÷ baseline: median of the pairs ${quantile(ratios, 0.5).toFixed(3)}× (p25 ${quantile(ratios, 0.25).toFixed(3)}, ` +
    `p75 ${quantile(ratios, 0.75).toFixed(3)}); of the p10s ${(quantile(currentTimes, 0.1) / quantile(baselineTimes, 0.1)).toFixed(3)}×`,
);
console.log(
  `young-generation collections in ${gcSamples} samples: this build ${collections.current}, baseline ${collections.baseline}` +
    (collections.baseline > 0 ? ` (${(collections.current / collections.baseline).toFixed(3)}×)` : ""),
);
