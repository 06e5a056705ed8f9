/**
 * Memory per run: the bytes a run allocates (summed over the garbage collections it caused, from
 * `v8.GCProfiler`), and the heap still in use after many runs and a full collection. An engine keeps
 * nothing between runs, so the second figure must be about zero.
 */
import { getHeapSpaceStatistics, getHeapStatistics, GCProfiler, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Contender } from "../_workload.js";

/** What one contender's memory looks like. */
export interface MemoryFigures {
  readonly name: string;
  /** Bytes allocated per run, averaged over `allocationRuns` runs. */
  readonly allocatedPerRun: number;
  readonly allocationRuns: number;
  /** Data heap in use after `retentionRuns` runs and a full collection, minus before them, in two blocks of runs. */
  readonly retainedBlocks: readonly [number, number];
  /** The smaller block: what a leak cannot hide from. */
  readonly retained: number;
  readonly retentionRuns: number;
}

/** How many runs each figure averages over. */
export interface MemoryOptions {
  readonly allocationRuns: number;
  readonly retentionRuns: number;
}

/** Measures one contender; its runs are sequential, as the timings are. */
export async function measureMemory(contender: Contender, options: MemoryOptions): Promise<MemoryFigures> {
  for (let k = 0; k < 20; k++) await contender.run();
  const allocated = await allocatedBytes(contender, options.allocationRuns);
  const retainedBlocks = await retainedBytes(contender, options.retentionRuns);
  return {
    name: contender.name,
    allocatedPerRun: allocated / options.allocationRuns,
    allocationRuns: options.allocationRuns,
    retainedBlocks,
    retained: Math.min(...retainedBlocks),
    retentionRuns: options.retentionRuns,
  };
}

/** Everything allocated during `runs` runs: the growth of the heap plus what every collection freed. */
async function allocatedBytes(contender: Contender, runs: number): Promise<number> {
  fullCollection();
  const profiler = new GCProfiler();
  const before = getHeapStatistics().used_heap_size;
  profiler.start();
  for (let k = 0; k < runs; k++) await contender.run();
  const after = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  const freed = statistics.reduce((sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize, 0);
  return after - before + freed;
}

/**
 * The data heap's growth over `runs` runs, measured twice in a row; the smaller growth counts. A leak
 * grows the heap in both blocks alike; the first thousands of runs of a process still grow it with type
 * feedback and optimized-code metadata, which is no leak. A tenth of the runs goes before the first block.
 */
async function retainedBytes(contender: Contender, runs: number): Promise<readonly [number, number]> {
  for (let k = 0; k < Math.ceil(runs / 10); k++) await contender.run();
  const block = async (): Promise<number> => {
    fullCollection();
    const before = dataHeapInUse();
    for (let k = 0; k < runs; k++) await contender.run();
    fullCollection();
    return dataHeapInUse() - before;
  };
  const first = await block();
  return [first, await block()];
}

/** Heap in use without the code space (where the JIT puts compiled functions). */
export function dataHeapInUse(): number {
  return getHeapSpaceStatistics().reduce((sum, space) => (space.space_name === "code_space" ? sum : sum + space.space_used_size), 0);
}

let collect: (() => void) | undefined;

/** `gc()`, available without `--expose-gc`: the flag can be set at run time and read from a fresh context. */
export function fullCollection(): void {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed === undefined) setFlagsFromString("--expose-gc");
    collect = exposed ?? (runInNewContext("gc") as () => void);
  }
  collect();
  collect();
}
