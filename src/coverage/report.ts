/**
 * Coverage reports: which transitions recorded runs took, and which they never did. A report reads the
 * spec and the runs' traces and routes; nothing runs again.
 */
import type { RouteTaken } from "../engine/index.js";
import { START } from "../spec.js";
import { runMismatch } from "./_run-check.js";
import { CoverageError } from "./errors.js";
import { routeKey, transitionsOf, type GraphTransition, type HasSpec } from "./transitions.js";

/**
 * What a report needs of a run: a `RunResult` (a paused threaded run's too), or the `trace` and `routes`
 * you recorded of a finished run.
 */
export interface RecordedRun {
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
}

/** One transition and how many times the runs took it. */
export interface TransitionCount {
  readonly transition: GraphTransition;
  readonly count: number;
}

/** Which transitions a set of runs exercised. */
export interface CoverageReport {
  /** Every transition of the graph, with how often the runs took it. */
  readonly counts: readonly TransitionCount[];
  readonly exercised: readonly GraphTransition[];
  readonly missing: readonly GraphTransition[];
  /** `exercised.length`. */
  readonly covered: number;
  readonly total: number;
  /** How many runs were read. */
  readonly runs: number;
}

/**
 * Reads recorded runs and says which fixed edges, route keys and Command gotos they exercised and which
 * they never did. A route key (or a goto) counts when the run's `routes` holds it; a fixed edge (fan-outs and joins included)
 * counts each time its source completed, as it does in a finished run.
 *
 * Each run is checked against the graph first. Every run: its nodes and routes are declared, and each
 * route's source and destination ran. A run with one node per superstep (no fan-out, join or list path
 * map): its trace is a walk from START to END, each step a fixed edge or the next recorded route.
 *
 * @throws CoverageError `RUN_MISMATCH` when a run does not fit the graph, naming the run and why.
 * @example
 * ```ts
 * const runs = [await graph.invoke(initialReportState(), { maxSteps: 30 })];
 * const report = coverageReport(graph, runs);
 * report.missing.map((t) => t.label); // ["check_draft [hold] → hold", "hold → END"]
 * ```
 */
export function coverageReport(graph: HasSpec, runs: Iterable<RecordedRun>): CoverageReport {
  const transitions = transitionsOf(graph);
  const counts = new Map<GraphTransition, number>(transitions.map((t) => [t, 0]));
  const fixedFrom = new Map<string, GraphTransition[]>();
  const routes = new Map<string, GraphTransition>();
  const gotos = new Map<string, GraphTransition>();
  for (const t of transitions) {
    if (t.kind === "route") routes.set(routeKey(t.from, t.key), t);
    else if (t.kind === "goto") gotos.set(routeKey(t.from, t.to), t);
    else fixedFrom.set(t.from, [...(fixedFrom.get(t.from) ?? []), t]);
  }
  const take = (t: GraphTransition): void => void counts.set(t, (counts.get(t) ?? 0) + 1);
  const nodes = new Set(graph.spec.nodes);

  let read = 0;
  for (const run of runs) {
    read += 1;
    checkRun(run, read);
    if (run.trace.length > 0) for (const t of fixedFrom.get(START) ?? []) take(t);
    for (const node of run.trace) {
      if (!nodes.has(node)) throw mismatch(read, `its trace names "${node}", which is not a node of this graph`);
      for (const t of fixedFrom.get(node) ?? []) take(t);
    }
    for (const route of run.routes) {
      const t = route.goto === true ? gotos.get(routeKey(route.from, route.to)) : routes.get(routeKey(route.from, route.key));
      if (t === undefined || t.to !== route.to) {
        throw mismatch(read, `it took the route ${JSON.stringify(route)}, which this graph does not declare`);
      }
      take(t);
    }
    const why = runMismatch(graph.spec, run, fixedFrom);
    if (why !== undefined) throw mismatch(read, why);
  }
  const exercised = transitions.filter((t) => (counts.get(t) ?? 0) > 0);
  const missing = transitions.filter((t) => counts.get(t) === 0);
  return {
    counts: transitions.map((transition) => ({ transition, count: counts.get(transition) ?? 0 })),
    exercised,
    missing,
    covered: exercised.length,
    total: transitions.length,
    runs: read,
  };
}

function checkRun(run: unknown, index: number): asserts run is RecordedRun {
  const candidate = run as Partial<RecordedRun> | null;
  if (typeof candidate !== "object" || candidate === null || !Array.isArray(candidate.trace) || !Array.isArray(candidate.routes)) {
    throw mismatch(index, "it is not a run: pass RunResults (what invoke resolves with), or objects { trace, routes }");
  }
}

function mismatch(index: number, why: string): CoverageError {
  return new CoverageError("RUN_MISMATCH", `coverageReport: run #${index} does not fit the graph: ${why}. Report runs of this graph only.`);
}
