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

/** One durability mode of {@link overheadTable}: its contenders, and how its floor is made. */
export interface OverheadMode {
  /** `sync` or `async`. */
  readonly mode: string;
  /** The floor contender's name, and what it runs. */
  readonly floor: string;
  readonly floorIs: string;
  /** Our store's contender, and the engine on a store that sends only the floor's statements. */
  readonly store: string;
  readonly floorStore: string;
  readonly target: string;
}

/** What {@link overheadTable} found for one mode: ours, and the floor-only store's (the least any store scores). */
export interface ModeOverhead {
  readonly ours: Spread | undefined;
  readonly least: Spread | undefined;
}

/**
 * The overhead table: per durability mode (`sync`, `async`), the formula's floor, the floor-only store's
 * overhead, ours, and ours less the floor-only store's (per round, in floors: what our store's own code
 * adds), so a reader sees which part of a figure is the database's, which the engine's and which our store's.
 */
export function overheadTable(
  figures: RoundFigures,
  plain: string,
  modes: readonly OverheadMode[],
  perRun: (spread: Spread | undefined) => string,
): { markdown: string; modes: ReadonlyMap<string, ModeOverhead> } {
  const rows: string[] = [];
  const found = new Map<string, ModeOverhead>();
  for (const m of modes) {
    const ours = overheadOf(figures, m.store, plain, m.floor);
    const least = overheadOf(figures, m.floorStore, plain, m.floor);
    const ourCode = overheadOf(figures, m.store, m.floorStore, m.floor);
    found.set(m.mode, { ours, least });
    rows.push(
      `| ${m.mode} | ${m.floorIs} | ${perRun(figureOf(figures, m.floor))} | ${overheadText(least)} | **${overheadText(ours)}** | ` +
        `${overheadText(ourCode)} | ${m.target} |`,
    );
  }
  const markdown = [
    "**overhead = (store run − plain run) ÷ floor**, taken within each round; median (min–max) over the rounds. " +
      "The floor: the run's statements sent by the driver alone, back to back, no code of ours. The floor-only store: the engine " +
      "on a store that sends only the floor's statements (no check, JSON or checksum of ours), the least overhead any store " +
      "scores here; ours less it (per round) is what our store's own code adds, in floors.",
    "",
    "| durability | the floor | floor per run | the floor-only store | ours | ours − the floor-only store | target |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  return { markdown, modes: found };
}
