/**
 * Coverage plans: START→END paths (for a graph that fans out or joins: runs, superstep by superstep)
 * that together take every fixed edge and every route key of a graph, back-edges and self-loops
 * included. A plan reads only the spec: no node or router runs.
 */
import { InvalidOptionError } from "../errors.js";
import { describeValue } from "../_describe.js";
import { END, START } from "../spec.js";
import { planRuns } from "./_runs.js";
import { CoverageError } from "./errors.js";
import { pathFrom, type CoveragePath } from "./path.js";
import { isSequential, transitionsOf, type GraphTransition, type HasSpec } from "./transitions.js";

/**
 * How a plan is computed: the library's own linear-time cover, or XState's path generator, from
 * xstate's `xstate/graph` subpath or from the separate `@xstate/graph` package.
 */
export type CoveragePlanner = "linear" | "xstate" | "@xstate/graph";

/** Options of {@link coveragePlan}. */
export interface CoveragePlanOptions {
  /**
   * Default `"linear"`. `"xstate"` asks `xstate/graph` for the paths, `"@xstate/graph"` the
   * `@xstate/graph` package (both return a Promise).
   */
  readonly via?: CoveragePlanner;
}

/** START→END paths (or planned runs) that take every transition of a graph at least once. */
export interface CoveragePlan {
  readonly via: CoveragePlanner;
  /** START→END paths; for a graph that fans out or joins, planned runs (see {@link CoveragePath.supersteps}). */
  readonly paths: readonly CoveragePath[];
  /** Every transition of the graph (see `transitionsOf`). */
  readonly transitions: readonly GraphTransition[];
  /** How many of `transitions` the paths take: always `total` for a validated graph. */
  readonly covered: number;
  readonly total: number;
}

/**
 * Plans START→END paths that together take every fixed edge and every route key of a graph. Each path
 * lists the route key taken at each conditional, so a test can replay it (`replayPath`) or look for a
 * run that takes it.
 *
 * By default the plan is computed in linear time (two breadth-first searches, then one path per
 * transition no earlier path took: the shortest way to its source, the transition, the shortest way
 * to END). `{ via: "xstate" }` asks `xstate/graph` instead, on the abstract coverage model; it
 * returns a Promise, since xstate is loaded on demand.
 *
 * A graph that fans out or joins is planned as *runs*: each is a sequence of supersteps (`supersteps`)
 * with the key(s) each router returns (`choices`), found by the same search over the scheduler's
 * configurations (the next tasks and each join's arrivals) instead of nodes.
 *
 * @throws CoverageError `UNCOVERABLE` when a transition lies on no START→END path (an unvalidated spec);
 * `PLAN_TOO_LARGE` when a parallel graph has too many configurations; `XSTATE_PLAN_UNSUPPORTED` for
 * `via: "xstate"` on a graph with fan-outs or joins (XState's coverage model has one state per node).
 * @example
 * ```ts
 * const plan = coveragePlan(buildReportGraph());
 * plan.paths.map((p) => p.name); // ["accept", "revise → accept", "hold"]
 * `${plan.covered}/${plan.total}`; // "9/9"
 * const viaXState = await coveragePlan(buildReportGraph(), { via: "xstate" }); // 4 paths, 9/9
 * ```
 */
export function coveragePlan(graph: HasSpec, options?: { readonly via?: "linear" }): CoveragePlan;
export function coveragePlan(graph: HasSpec, options: { readonly via: "xstate" | "@xstate/graph" }): Promise<CoveragePlan>;
export function coveragePlan(graph: HasSpec, options?: CoveragePlanOptions): CoveragePlan | Promise<CoveragePlan>;
export function coveragePlan(graph: HasSpec, options: CoveragePlanOptions = {}): CoveragePlan | Promise<CoveragePlan> {
  const via: unknown = options.via ?? "linear";
  const sequential = isSequential(graph.spec);
  if (via === "linear") return sequential ? linearPlan(graph) : runPlan(graph);
  const viaXState = via === "xstate" || via === "@xstate/graph";
  if (viaXState && !sequential) {
    // A rejection, as every other failure of this Promise-returning form is.
    return Promise.reject(
      new CoverageError(
        "XSTATE_PLAN_UNSUPPORTED",
        `coveragePlan: via "${via}" plans on the coverage model, which has one state per node and one event per choice, so it cannot hold ` +
          "several active nodes or a join's arrivals. Omit `via`: the built-in planner plans this graph's runs superstep by superstep.",
      ),
    );
  }
  if (viaXState) return xstatePlan(graph, via);
  throw new InvalidOptionError(
    `coveragePlan: via must be "linear", "xstate" or "@xstate/graph"; got ${describeValue(via)}. Omit it for the built-in linear plan.`,
  );
}

function linearPlan(graph: HasSpec): CoveragePlan {
  const transitions = transitionsOf(graph);
  const outgoing = groupBy(transitions, (t) => t.from);
  const incoming = groupBy(transitions, (t) => t.to);
  // The first transition of a shortest path into each reachable source, and out of each source toward END.
  const arrivedBy = breadthFirst(START, outgoing, (t) => t.to);
  const leftBy = breadthFirst(END, incoming, (t) => t.from);

  const uncoverable = transitions.filter((t) => !arrivedBy.byNode.has(t.from) || !leftBy.byNode.has(t.to));
  if (uncoverable.length > 0) {
    throw new CoverageError(
      "UNCOVERABLE",
      `coveragePlan: ${uncoverable.length} transition(s) lie on no path from START to END: ${uncoverable.map((t) => t.label).join(", ")}. ` +
        "Pass a compiled graph (compile() validates reachability), or fix the spec.",
      { transitions: uncoverable },
    );
  }

  const taken = new Set<GraphTransition>();
  const paths: CoveragePath[] = [];
  // Sources in breadth-first order, so the plan starts with the shortest paths.
  for (const source of arrivedBy.order) {
    for (const transition of outgoing.get(source) ?? []) {
      if (taken.has(transition)) continue;
      const steps = [...wayTo(transition.from, arrivedBy.byNode), transition, ...wayFrom(transition.to, leftBy.byNode)];
      for (const step of steps) taken.add(step);
      paths.push(pathFrom(steps));
    }
  }
  return { via: "linear", paths, transitions, covered: taken.size, total: transitions.length };
}

function runPlan(graph: HasSpec): CoveragePlan {
  const transitions = transitionsOf(graph);
  const paths = planRuns(graph.spec, transitions);
  return { via: "linear", paths, transitions, covered: new Set(paths.flatMap((p) => p.transitions)).size, total: transitions.length };
}

interface Search {
  /** Node → the transition that first reached it (`null` for the origin). */
  readonly byNode: ReadonlyMap<string, GraphTransition | null>;
  /** Nodes in the order they were reached. */
  readonly order: readonly string[];
}

function breadthFirst(origin: string, edges: ReadonlyMap<string, GraphTransition[]>, across: (t: GraphTransition) => string): Search {
  const byNode = new Map<string, GraphTransition | null>([[origin, null]]);
  const order = [origin];
  for (let i = 0; i < order.length; i++) {
    for (const transition of edges.get(order[i] as string) ?? []) {
      const next = across(transition);
      if (byNode.has(next)) continue;
      byNode.set(next, transition);
      order.push(next);
    }
  }
  return { byNode, order };
}

/** The shortest transitions from START to `node`. */
function wayTo(node: string, arrivedBy: ReadonlyMap<string, GraphTransition | null>): GraphTransition[] {
  const way: GraphTransition[] = [];
  for (let t = arrivedBy.get(node); t; t = arrivedBy.get(t.from)) way.push(t);
  return way.reverse();
}

/** The shortest transitions from `node` to END. */
function wayFrom(node: string, leftBy: ReadonlyMap<string, GraphTransition | null>): GraphTransition[] {
  const way: GraphTransition[] = [];
  for (let t = leftBy.get(node); t; t = leftBy.get(t.to)) way.push(t);
  return way;
}

function groupBy(transitions: readonly GraphTransition[], by: (t: GraphTransition) => string): Map<string, GraphTransition[]> {
  const groups = new Map<string, GraphTransition[]>();
  for (const t of transitions) {
    const key = by(t);
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  return groups;
}

async function xstatePlan(graph: HasSpec, via: "xstate" | "@xstate/graph"): Promise<CoveragePlan> {
  // Loaded on demand: the main entry must not load xstate.
  const { planWithXState } = await import("./_xstate-plan.js");
  const transitions = transitionsOf(graph);
  const paths = await planWithXState(graph, transitions, via);
  return { via, paths, transitions, covered: new Set(paths.flatMap((p) => p.transitions)).size, total: transitions.length };
}
