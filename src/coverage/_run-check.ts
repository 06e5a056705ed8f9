/**
 * Whether a recorded run could have happened on a graph: `coverageReport` refuses a run that does not
 * follow the graph (`RUN_MISMATCH`) instead of counting transitions it never took. A hand-made record
 * `{ trace: ["collect", "publish"] }` must not count as taking `collect → write_draft`, nor a `hold`
 * route as taken when `hold` never ran.
 */
import type { RouteTaken } from "../engine/index.js";
import { END, START, type GraphSpec } from "../spec.js";
import { displayName, type GraphTransition } from "./transitions.js";

/** A recorded run, as `coverageReport` reads it (its `RecordedRun`). */
interface RecordedRun {
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
}

/** Why a run does not fit the graph, for `coverageReport`'s message; `undefined` when it fits. */
export function runMismatch(
  spec: GraphSpec,
  run: RecordedRun,
  fixedFrom: ReadonlyMap<string, readonly GraphTransition[]>,
): string | undefined {
  // A paused threaded run (status "interrupted") stops between two nodes: its last route may lead to a node still to run.
  const paused = (run as { readonly status?: unknown }).status === "interrupted";
  const ran = new Set(run.trace);
  for (const route of run.routes) {
    if (route.from !== START && !ran.has(route.from))
      return `it took the route ${describe(route)}, but ${displayName(route.from)} never ran`;
    if (!paused && route.to !== END && !ran.has(route.to))
      return `it took the route ${describe(route)}, but ${displayName(route.to)} never ran`;
  }
  return isLinear(spec, run) ? walkMismatch(spec, run, paused, fixedFrom) : undefined;
}

/**
 * Whether each superstep of the run ran one node, so its trace is a walk from START: no fan-out, no
 * join, no router that may start several nodes (a list path map), no node's Command ends, and, when the
 * run says, as many supersteps as nodes.
 */
function isLinear(spec: GraphSpec, run: RecordedRun): boolean {
  if ((spec.fanOuts?.length ?? 0) > 0 || (spec.joins?.length ?? 0) > 0 || spec.routes.some((route) => route.sends === true)) return false;
  // A node's Command goto may run beside its edge or route, or run several nodes at once.
  if ((spec.ends?.length ?? 0) > 0) return false;
  const { supersteps } = run as { readonly supersteps?: unknown };
  return typeof supersteps !== "number" || supersteps === run.trace.length;
}

/** Follows the trace from START, each step by a fixed edge or by the next recorded route. */
function walkMismatch(
  spec: GraphSpec,
  run: RecordedRun,
  paused: boolean,
  fixedFrom: ReadonlyMap<string, readonly GraphTransition[]>,
): string | undefined {
  const routed = new Set(spec.routes.map((route) => route.from));
  let at: string = START;
  let next = 0;
  for (const to of paused ? run.trace : [...run.trace, END]) {
    const arrival = to === END ? "the run ended" : `${to} ran next`;
    if (routed.has(at)) {
      const route = run.routes[next];
      if (route === undefined || route.from !== at)
        return `after ${displayName(at)} its routes do not say which key ${displayName(at)}'s router returned`;
      if (route.to !== to) return `it took the route ${describe(route)} after ${displayName(at)}, but ${arrival}`;
      next += 1;
    } else if (!(fixedFrom.get(at) ?? []).some((edge) => edge.to === to)) {
      return `after ${displayName(at)} ${arrival}, which no edge of this graph allows`;
    }
    at = to;
  }
  // Paused after a router chose, before its destination ran.
  if (paused && run.routes[next]?.from === at) next += 1;
  const unfollowed = run.routes[next];
  return unfollowed === undefined ? undefined : `its route ${describe(unfollowed)} does not follow its trace`;
}

const describe = (route: RecordedRun["routes"][number]): string => `${displayName(route.from)} [${route.key}] → ${displayName(route.to)}`;
