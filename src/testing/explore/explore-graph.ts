/**
 * `exploreGraph`: fast-check drives a graph. Each generated run draws an input, the outcomes of the
 * nodes not under test and the answers to its interrupts, runs on the mini engine on a memory thread,
 * and is checked after every superstep. A failing run is shrunk by fast-check to a minimal one and
 * reported with its path, its seed and a replay command; with a coverage plan, the report says which
 * planned paths some run took.
 */
import * as fc from "fast-check";
import type { CompiledGraph } from "../../engine/index.js";
import { graphView } from "../../engine/_kernel.js";
import { InvalidOptionError } from "../../errors.js";
import { ExplorationError } from "./errors.js";
import { describeRun, pathKey, planCoverage } from "./report.js";
import { answerSource, nodeSource, runOnce, type DrawSources } from "./run-once.js";
import { schemaAnswers } from "./schema-answers.js";
import { engineDifference, loadRunners } from "./differential.js";
import type { DifferentialEngine, ExplorationReport, ExploredRun, ExploreOptions, NodeOutcome } from "./types.js";

/** The environment variable that replays one case: `TSG_REPLAY=<seed>:<path>`, as a failure prints it. */
export const REPLAY_ENV = "TSG_REPLAY";
const DEFAULT_RUNS = 100;

/**
 * Explores a graph with fast-check: many runs, each with a generated input, generated outcomes for the
 * nodes you replace (a model, a tool) and generated answers to its interrupts; after every superstep
 * your invariants must hold, and every run must end (END, or an error code you expect) within the step
 * limit. Resolves with what the runs covered; rejects with an {@link ExplorationError} naming the
 * shrunk failing run, its path, and the command that replays it (`TSG_REPLAY=<seed>:<path>` set while
 * the same test runs again makes `exploreGraph` run that one case).
 *
 * @example
 * ```ts
 * const report = await exploreGraph(buildReportGraph(), {
 *   input: fc.constant(initialReportState()),
 *   nodes: { check_draft: fc.constantFrom({ verdict: "ok" }, { verdict: "revise" }) },
 *   invariants: { "within the allowance": (s) => s.revisions <= 2 || `revisions = ${s.revisions}` },
 *   plan: coveragePlan(buildReportGraph()),
 * });
 * report.coverage?.notReached; // planned paths no run took
 * ```
 */
export async function exploreGraph<S extends object, N extends string>(
  graph: CompiledGraph<S, N>,
  options: ExploreOptions<S, N>,
): Promise<ExplorationReport<S>> {
  checkOptions(graph, options);
  const runs: ExploredRun<S>[] = [];
  let failed: ExploredRun<S> | undefined;
  const sources = drawSources(graph, options);
  const runners = await loadRunners(options.differential ?? []);
  const property = fc.asyncProperty(options.input, listsOf(sources), fc.gen(), async (input, lists, gen) => {
    const explored = await runOnce(graph, { input, lists, more: (_key, factory) => gen(factory) }, sources, options);
    const difference = explored.failure === undefined ? await engineDifference(graph, explored, runners, options.maxSteps) : undefined;
    const run = difference === undefined ? explored : { ...explored, failure: difference };
    if (run.failure === undefined) {
      runs.push(run);
      return true;
    }
    failed = run; // fast-check's last failing run is the shrunk counterexample
    return false;
  });
  const replay = replayParameters();
  const details = await fc.check(property, {
    numRuns: options.runs ?? DEFAULT_RUNS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...replay,
  });
  if (details.failed) {
    const seed = details.seed;
    const path = details.counterexamplePath ?? "";
    const cause = details.errorInstance;
    throw new ExplorationError(
      "EXPLORATION_FAILED",
      `exploreGraph: ${failed?.failure ?? `the property failed: ${String(cause)}`}\n` +
        (failed === undefined ? "" : `${describeRun(failed)}\n`) +
        `fast-check: seed ${seed}, path "${path}", after ${details.numRuns} runs and ${details.numShrinks} shrinks.\n` +
        `Replay this run: ${REPLAY_ENV}=${seed}:${path} with the same test (for example ${REPLAY_ENV}=${seed}:${path} npx vitest run <file> -t "<test name>").`,
      { seed, path, run: failed },
    );
  }
  const distinct = new Set(runs.map(pathKey));
  return {
    runs: details.numRuns,
    distinctPaths: distinct.size,
    ...(options.plan === undefined ? {} : { coverage: planCoverage(options.plan, runs) }),
    ...(runners.size === 0 ? {} : { differential: differentialCounts(runners.keys(), runs) }),
  };
}

/** Per engine compared, how many passing runs were compared and how many paused (not compared). */
function differentialCounts(
  engines: Iterable<DifferentialEngine>,
  runs: readonly ExploredRun<unknown>[],
): NonNullable<ExplorationReport<unknown>["differential"]> {
  const paused = runs.filter((run) => run.paused).length;
  return Object.fromEntries([...engines].map((engine) => [engine, { compared: runs.length - paused, paused }]));
}

/** The longest list drawn up front per source; later calls draw on demand. */
const LIST_LENGTH = 8;

/** One list per source, drawn up front, which fast-check shrinks by dropping values (see {@link RunDraw}). */
function listsOf<S>(sources: DrawSources<S>): fc.Arbitrary<Record<string, unknown[]>> {
  const lists: Record<string, fc.Arbitrary<unknown[]>> = {};
  for (const [node, source] of sources.nodes) lists[nodeSource(node)] = fc.array(source(), { maxLength: LIST_LENGTH });
  for (const [name, source] of sources.answers) lists[answerSource(name)] = fc.array(source(), { maxLength: LIST_LENGTH });
  return fc.record(lists);
}

/**
 * Each arbitrary behind one stable factory per exploration (fast-check's generator keys draws by it).
 * Answers: the ones given, then, unless one arbitrary answers every interrupt (`answers: arb` or a
 * `"*"` entry), one drawn from the answer schema of each interrupt the graph declares.
 */
function drawSources<S extends object, N extends string>(graph: CompiledGraph<S, N>, options: ExploreOptions<S, N>): DrawSources<S> {
  const nodes = new Map<string, () => fc.Arbitrary<NodeOutcome<S>>>();
  for (const [node, arbitrary] of Object.entries(options.nodes ?? {}) as [string, fc.Arbitrary<NodeOutcome<S>> | undefined][]) {
    if (arbitrary !== undefined) nodes.set(node, () => arbitrary);
  }
  const answers = new Map<string, () => fc.Arbitrary<unknown>>();
  const given = options.answers;
  if (isArbitrary(given)) answers.set("*", () => given);
  else for (const [name, arbitrary] of Object.entries(given ?? {})) answers.set(name, () => arbitrary);
  if (!answers.has("*")) {
    for (const [name, arbitrary] of schemaAnswers(graph, new Set(answers.keys()))) answers.set(name, () => arbitrary);
  }
  return { nodes, answers };
}

/** fast-check's replay parameters from `TSG_REPLAY=<seed>:<path>`, when set. */
function replayParameters(): { seed: number; path: string; endOnFailure: true } | {} {
  const value = process.env[REPLAY_ENV];
  if (value === undefined || value === "") return {};
  const match = /^(-?\d+):([\d:]*)$/.exec(value);
  if (match === null) {
    throw new InvalidOptionError(
      `exploreGraph: ${REPLAY_ENV} must be <seed>:<path>, as a failure prints it (for example 42:3:1:0); got "${value.slice(0, 80)}".`,
    );
  }
  return { seed: Number(match[1]), path: match[2] ?? "", endOnFailure: true };
}

/**
 * Whether a value is a fast-check arbitrary, by its shape: `instanceof` fails across two copies of
 * fast-check (a user's module loaded through tsx may get the CommonJS build, this package the ESM one).
 */
function isArbitrary(value: unknown): value is fc.Arbitrary<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { generate?: unknown }).generate === "function" &&
    typeof (value as { shrink?: unknown }).shrink === "function"
  );
}

function checkOptions<S extends object, N extends string>(graph: CompiledGraph<S, N>, options: ExploreOptions<S, N>): void {
  void graphView(graph).executable; // a coded error now, not inside the first run, for an object that is not a compiled graph
  if (!isArbitrary(options.input)) {
    throw new InvalidOptionError(
      "exploreGraph: options.input must be a fast-check arbitrary of the run's input (fc.constant(state) for a fixed one).",
    );
  }
  const known = new Set<string>(graph.spec.nodes);
  for (const node of Object.keys(options.nodes ?? {})) {
    if (!known.has(node)) {
      throw new InvalidOptionError(
        `exploreGraph: options.nodes names "${node.slice(0, 80)}", which is not a node of the graph (${[...known].join(", ")}).`,
      );
    }
  }
  for (const [name, value] of [
    ["runs", options.runs],
    ["maxPauses", options.maxPauses],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      throw new InvalidOptionError(`exploreGraph: options.${name} must be a positive integer; got ${String(value)}.`);
    }
  }
}
