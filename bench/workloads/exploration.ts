/**
 * Exploring the report graph (issue 41): `exploreGraph` on the graph `tsg test report` explores, with its
 * input arbitraries and invariants, against its coverage plan, for a fixed number of runs and a fixed
 * seed. One exploration, timed whole: the row gives the time per run (fast-check's generation and
 * shrinking included), the distinct paths the runs took, and how many planned paths some run reached.
 */
import { coveragePlan } from "../../src/coverage/index.js";
import { reportExplorationGraph, reportExploration } from "../../src/examples/report/exploration.js";
import { exploreGraph } from "../../src/testing/index.js";

/** What one exploration of the report graph measured. */
export interface ExplorationFigures {
  readonly runs: number;
  /** Wall time of the whole exploration, in milliseconds. */
  readonly totalMs: number;
  readonly perRunMs: number;
  /** Distinct node paths the runs took. */
  readonly distinctPaths: number;
  /** Planned paths (the library's coverage plan of the graph) some run took, and how many were planned. */
  readonly reached: number;
  readonly planned: number;
}

/**
 * The planned paths a run can take: 2 of the plan's 3. The explored graph writes its first draft without
 * the fixed-data notice (`draftStyle: "missing-notice"`), so "accept the first draft" is planned but
 * infeasible: the path `tsg test report` writes as a todo (test/cli/test-command.test.ts).
 */
export const FEASIBLE_PLANNED_PATHS = 2;

/** The exploration's seed: the same runs every time, so two measurements explore the same paths. */
const SEED = 41;

/** Explores the report graph for `runs` runs and times it. */
export async function exploreReport(runs: number): Promise<ExplorationFigures> {
  const graph = reportExplorationGraph();
  const plan = await coveragePlan(graph);
  const start = performance.now();
  const report = await exploreGraph(graph, { ...reportExploration, runs, seed: SEED, plan });
  const totalMs = performance.now() - start;
  const reached = report.coverage?.feasible.length ?? 0;
  return { runs, totalMs, perRunMs: totalMs / runs, distinctPaths: report.distinctPaths, reached, planned: plan.paths.length };
}

/** The row's measured text: time per run, then the paths. */
export function explorationText(figures: ExplorationFigures): string {
  return (
    `${figures.perRunMs.toFixed(2)} ms per run (${(figures.totalMs / 1000).toFixed(2)} s for ${figures.runs.toLocaleString("en-US")} runs); ` +
    `${figures.distinctPaths} distinct paths; ${figures.reached} of ${figures.planned} planned paths reached`
  );
}
