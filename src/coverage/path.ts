/**
 * One planned run of a coverage plan, in the shapes a test needs. For a sequential graph it is a
 * START→END path; for a graph that fans out or joins it is a run superstep by superstep.
 */
import type { RouteTaken } from "../engine/index.js";
import { invalidArgument } from "../errors.js";
import { END, START } from "../spec.js";
import { displayName, gotoRoute, type GraphTransition } from "./transitions.js";

/**
 * One router call of a planned run: the source whose router runs, and the key(s) it returns. A router
 * returns one key, or several at once (a list path map, or a router that returns a list).
 */
export interface RouteChoice {
  readonly from: string;
  readonly keys: readonly string[];
}

/**
 * A planned run: the transitions it takes, the trace and routes a run along it records, its supersteps,
 * and the key(s) each router returns. For a sequential graph it is a START→END path, one node per
 * superstep.
 *
 * @example
 * ```ts
 * const [path] = coveragePlan(graph).paths;
 * path.name;       // "accept"
 * path.trace;      // ["collect", "write_draft", "check_draft", "publish"]
 * path.routes;     // [{ from: "check_draft", key: "accept", to: "publish" }]
 * path.supersteps; // [["collect"], ["write_draft"], ["check_draft"], ["publish"]]
 * ```
 */
export interface CoveragePath {
  /**
   * A short name for a test: the route keys in order (`"revise → accept"`; keys returned together are
   * joined with `+`), or, when the run takes no route, its nodes (supersteps in braces).
   */
  readonly name: string;
  /** The nodes that run, in order (superstep by superstep, declaration order within one): what a run's `trace` holds. */
  readonly trace: readonly string[];
  /** Each conditional choice, in order (START's included): what a run's `routes` holds. */
  readonly routes: readonly RouteTaken[];
  /** Every transition it takes, in order: from START to END for a path; superstep by superstep for a parallel run. */
  readonly transitions: readonly GraphTransition[];
  /** The nodes of each superstep, in declaration order: one node each in a sequential graph. */
  readonly supersteps: readonly (readonly string[])[];
  /** Each router call, in the order the run makes them: what `scriptedGraph` forces. */
  readonly choices: readonly RouteChoice[];
}

/** Builds a path from its transitions, which must lead from START to END. */
export function pathFrom(transitions: readonly GraphTransition[]): CoveragePath {
  const first = transitions[0];
  const last = transitions.at(-1);
  if (first?.from !== START || last?.to !== END) {
    throw invalidArgument("pathFrom: a coverage path leads from START to END; this list of transitions does not.");
  }
  const trace = transitions.slice(1).map((t) => t.from);
  const routes = transitions.flatMap((t): RouteTaken[] =>
    t.kind === "route" ? [{ from: t.from, key: t.key, to: t.to }] : t.kind === "goto" ? [gotoRoute(t)] : [],
  );
  const name = routes.length > 0 ? routes.map((r) => (r.goto ? `goto ${r.to}` : r.key)).join(" → ") : trace.join(" → ");
  return {
    name,
    trace,
    routes,
    transitions,
    supersteps: trace.map((node) => [node]),
    // A goto is the node's own choice, not a router's: nothing to force.
    choices: routes.flatMap(({ from, key, goto }) => (goto ? [] : [{ from, keys: [key] }])),
  };
}

/**
 * A planned run of a parallel graph, from its supersteps, its router calls (START's first), the
 * transitions each took, and the routes a run records (the routers' keys and the Commands' gotos, in order).
 */
export function runFrom(
  supersteps: readonly (readonly string[])[],
  choices: readonly RouteChoice[],
  transitions: readonly GraphTransition[],
  routes: readonly RouteTaken[],
): CoveragePath {
  const name = choices.length > 0 ? choices.map((c) => c.keys.join(" + ")).join(" → ") : supersteps.map(group).join(" → ");
  return { name, trace: supersteps.flat(), routes, transitions, supersteps, choices };
}

/**
 * A planned run on one line, superstep by superstep, each router's key(s) in brackets after the node
 * (or START) whose router returned them: `START → collect → check_draft [accept] → publish → END`,
 * or `START → plan → {web, papers, internal} → synthesize → END`.
 *
 * @example
 * ```ts
 * formatPath(plan.paths[0]); // "START → collect → write_draft → check_draft [accept] → publish → END"
 * ```
 */
export function formatPath(path: CoveragePath): string {
  let next = 0;
  const withKeys = (node: string): string => {
    const choice = path.choices[next];
    if (choice === undefined || choice.from !== node) return displayName(node);
    next += 1;
    return `${displayName(node)} [${choice.keys.join(", ")}]`;
  };
  const parts = [withKeys(START)];
  for (const superstep of path.supersteps) {
    const nodes = superstep.map(withKeys);
    parts.push(nodes.length === 1 ? (nodes[0] as string) : `{${nodes.join(", ")}}`);
  }
  parts.push(displayName(END));
  return parts.join(" → ");
}

function group(nodes: readonly string[]): string {
  return nodes.length === 1 ? (nodes[0] as string) : `{${nodes.join(", ")}}`;
}
