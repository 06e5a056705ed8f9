/**
 * Interleaved rounds. Each round times every contender of a workload once with tinybench (which warms
 * each task up first), in an order rotated by one each round, so that load that comes and goes on a
 * shared machine falls on every contender alike. A round's figure is tinybench's mean latency, which
 * includes the garbage collection a contender causes; the tables give the median, min and max of the
 * rounds, and ratios are taken round by round, between figures of the same round.
 */
import { Bench } from "tinybench";
import type { Contender, VerifiedWorkload } from "./_workload.js";

/** How long to time each contender per round. */
export interface RoundOptions {
  /** Timed rounds, after one untimed warm-up round. */
  readonly rounds: number;
  /** Milliseconds per contender per round (tinybench `time`). */
  readonly time: number;
  /** Milliseconds of tinybench warm-up per contender per round. */
  readonly warmupTime: number;
  /** The fewest runs per contender per round (tinybench `iterations`). */
  readonly iterations: number;
}

/** A workload's timings: for each contender, its figure (ms per run) in each round. */
export interface TimedWorkload {
  readonly workload: VerifiedWorkload;
  readonly rounds: ReadonlyMap<string, readonly number[]>;
}

/** The spread of a figure over the rounds. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Times every contender of a verified workload. */
export async function timeRounds(workload: VerifiedWorkload, options: RoundOptions): Promise<TimedWorkload> {
  const { contenders } = workload;
  await runRound(contenders, 0, options);
  const rounds = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const figures = await runRound(contenders, round, options);
    for (const [name, figure] of figures) rounds.get(name)?.push(figure);
  }
  return { workload, rounds };
}

async function runRound(contenders: readonly Contender[], round: number, options: RoundOptions): Promise<Map<string, number>> {
  const bench = new Bench({
    time: options.time,
    warmupTime: options.warmupTime,
    iterations: options.iterations,
    warmupIterations: 1,
    throws: true,
  });
  const shift = contenders.length === 0 ? 0 : round % contenders.length;
  for (const contender of [...contenders.slice(shift), ...contenders.slice(0, shift)])
    bench.add(contender.name, contender.run, { async: true });
  const figures = new Map<string, number>();
  for (const task of await bench.run()) {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`timeRounds: "${task.name}" did not complete (state ${result.state}).`);
    figures.set(task.name, result.latency.mean);
  }
  return figures;
}

/** A contender's figure (ms per run) over the rounds. */
export function spreadOf(timed: TimedWorkload, name: string): Spread | undefined {
  const figures = timed.rounds.get(name);
  return figures === undefined || figures.length === 0 ? undefined : spread(figures);
}

/** `numerator / denominator`, taken within each round, over the rounds; `scale` divides each (per-step ratios). */
export function ratioOf(timed: TimedWorkload, numerator: string, denominator: string, scale = 1): Spread | undefined {
  const top = timed.rounds.get(numerator);
  const bottom = timed.rounds.get(denominator);
  if (top === undefined || bottom === undefined || top.length === 0 || top.length !== bottom.length) return undefined;
  return spread(top.map((figure, round) => figure / (bottom[round] as number) / scale));
}

/** Order statistics of a handful of round figures (the per-sample statistics are tinybench's). */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
}
