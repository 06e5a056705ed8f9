/** One START→END path of a coverage plan, in the shapes a test needs. */
import type { RouteTaken } from "../engine/step.js";
import { END, START } from "../spec.js";
import { displayName, type GraphTransition } from "./transitions.js";

/**
 * A START→END path: the transitions it takes, the trace a run along it records, and the route key
 * taken at each conditional.
 *
 * @example
 * ```ts
 * const [path] = coveragePlan(graph).paths;
 * path.name;   // "accept"
 * path.trace;  // ["collect", "write_draft", "check_draft", "publish"]
 * path.routes; // [{ from: "check_draft", key: "accept", to: "publish" }]
 * ```
 */
export interface CoveragePath {
  /**
   * A short name for a test: the route keys in order (`"revise → accept"`), or the trace when the path
   * takes no route.
   */
  readonly name: string;
  /** The nodes that run, in order: what a run's `trace` holds. */
  readonly trace: readonly string[];
  /** Each conditional choice, in order (START's included): what a run's `routes` holds. */
  readonly routes: readonly RouteTaken[];
  /** Every transition, from START to END. */
  readonly transitions: readonly GraphTransition[];
}

/** Builds a path from its transitions, which must lead from START to END. */
export function pathFrom(transitions: readonly GraphTransition[]): CoveragePath {
  const first = transitions[0];
  const last = transitions.at(-1);
  if (first?.from !== START || last?.to !== END) {
    throw new TypeError("pathFrom: a coverage path leads from START to END; this list of transitions does not.");
  }
  const trace = transitions.slice(1).map((t) => t.from);
  const routes = transitions.flatMap((t): RouteTaken[] => (t.kind === "route" ? [{ from: t.from, key: t.key, to: t.to }] : []));
  const name = routes.length > 0 ? routes.map((r) => r.key).join(" → ") : trace.join(" → ");
  return { name, trace, routes, transitions };
}

/**
 * A path on one line: `START → collect → check_draft [accept] → publish → END`, each route key after
 * the node (or START) whose router returned it.
 *
 * @example
 * ```ts
 * formatPath(plan.paths[0]); // "START → collect → write_draft → check_draft [accept] → publish → END"
 * ```
 */
export function formatPath(path: CoveragePath): string {
  const parts = [displayName(START)];
  for (const t of path.transitions) {
    if (t.kind === "route") parts[parts.length - 1] += ` [${t.key}]`;
    parts.push(displayName(t.to));
  }
  return parts.join(" → ");
}
