/**
 * The overhead formula every checkpointed table uses (issue 40): a store's run costs the plain run, plus
 * the database's own cost (the floor: the same rows written by the driver alone, no code of ours), plus
 * what we add. **overhead = (store run − plain run) ÷ floor**, taken within each round, and the median
 * over the rounds: 1.00 is a store that adds nothing to what its database costs.
 *
 * A round runs every contender `runs` times in a row, in an order rotated by one each round (so load that
 * comes and goes falls on all alike), and a contender's figure for the round is the median of those runs:
 * medians, not means, since a mean carries the WAL's checkpoints and `fsync`s that fall on a few runs.
 */
import { performance } from "node:perf_hooks";
import { spread as spreadOf, type Spread } from "./_rounds.js";

/** A contender of alternated rounds: one complete run per call. */
export interface Timed {
  readonly name: string;
  readonly run: () => unknown;
}

/** How many rounds, and runs of each contender per round. */
export interface AlternatedOptions {
  /** Timed rounds (at least 20 for a published figure), after `warmupRounds` untimed ones. */
  readonly rounds: number;
  readonly runs: number;
  readonly warmupRounds?: number;
}

/** For each contender, its figure (ms per run: the median of the round's runs) in each round. */
export type RoundFigures = ReadonlyMap<string, readonly number[]>;

/** Times `contenders` in alternated rounds; see the module comment. */
export async function timeAlternated(contenders: readonly Timed[], options: AlternatedOptions): Promise<RoundFigures> {
  const figures = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const warmup = options.warmupRounds ?? 2;
  const samples: number[] = [];
  for (let round = 0; round < warmup + options.rounds; round++) {
    const shift = round % contenders.length;
    for (const contender of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
      samples.length = 0;
      for (let run = 0; run < options.runs; run++) {
        const start = performance.now();
        await contender.run();
        samples.push(performance.now() - start);
      }
      if (round >= warmup) figures.get(contender.name)?.push(medianOf(samples));
    }
  }
  return figures;
}

/** `(store − plain) ÷ floor` in each round, over the rounds; `undefined` when one of the three was not timed. */
export function overheadOf(figures: RoundFigures, store: string, plain: string, floor: string): Spread | undefined {
  const [s, p, f] = [figures.get(store), figures.get(plain), figures.get(floor)];
  if (s === undefined || p === undefined || f === undefined || s.length === 0) return undefined;
  return spreadOf(s.map((value, round) => (value - (p[round] as number)) / (f[round] as number)));
}

/** `numerator ÷ denominator` in each round, over the rounds. */
export function roundRatio(figures: RoundFigures, numerator: string, denominator: string): Spread | undefined {
  const [n, d] = [figures.get(numerator), figures.get(denominator)];
  if (n === undefined || d === undefined || n.length === 0) return undefined;
  return spreadOf(n.map((value, round) => value / (d[round] as number)));
}

/** A contender's figure (ms per run) over the rounds. */
export function figureOf(figures: RoundFigures, name: string): Spread | undefined {
  const values = figures.get(name);
  return values === undefined || values.length === 0 ? undefined : spreadOf(values);
}

/** The median of a few numbers (the mean of the middle two for an even count). */
export function medianOf(values: readonly number[]): number {
  return spreadOf(values).median;
}

/** `2.34 (1.90–2.80)`: an overhead and its spread over the rounds. */
export function overheadText(spread: Spread | undefined): string {
  return spread === undefined ? "–" : `${spread.median.toFixed(2)} (${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;
}
