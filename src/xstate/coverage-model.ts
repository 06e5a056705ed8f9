/**
 * The abstract coverage model: the graph's shape as an XState machine with no context, where each
 * route key is an event (`route.accept`) and each fixed edge the event `next`. Path generators such as
 * `xstate/graph` explore by sending events, so this is the one mapping in which they see every branch.
 */
import { setup, type SnapshotFrom } from "xstate";
import { END, START, type GraphSpec } from "../spec.js";
import { checkNodeNames, checkRouteKeys, checkSequential, stateIds } from "./_names.js";

/** The event that follows a fixed edge. */
export interface NextEvent {
  readonly type: "next";
}

/** The event that takes one route key: `route.<key>`. */
export interface RouteEvent {
  readonly type: `route.${string}`;
}

/** An event of the coverage model. */
export type CoverageModelEvent = NextEvent | RouteEvent;

/** The coverage model's states: START, one per node, and a final END. */
type ModelStates = Record<string, { id?: string; on?: Record<string, string>; type?: "final" }>;

/**
 * Builds the abstract coverage model of a graph. It reads only the spec: nothing runs.
 *
 * @throws XStateExportError `UNSUPPORTED_NAME` for node names that start with `#`, and route keys with `*`;
 * `UNSUPPORTED_GRAPH` for fan-outs and joins.
 * @example
 * ```ts
 * import { createTestModel } from "xstate/graph";
 * const model = toCoverageModel(buildReportGraph());
 * createTestModel(model).getShortestPaths().length; // one path per reachable transition, before joining to END
 * ```
 */
export function toCoverageModel(graph: { readonly spec: GraphSpec }) {
  const { spec } = graph;
  checkSequential(spec, "toCoverageModel", { allowListRoutes: true });
  checkNodeNames(spec, "toCoverageModel", []);
  checkRouteKeys(spec, "toCoverageModel");
  const ids = stateIds(spec, "coverage");
  const ref = (state: string): string => `#${ids.get(state) ?? state}`;
  const states: ModelStates = {};
  for (const source of [START, ...spec.nodes]) states[source] = { id: ids.get(source) as string, on: {} };
  for (const { from, to } of spec.edges) (states[from] ??= {}).on = { next: ref(to) };
  for (const { from, paths } of spec.routes) {
    (states[from] ??= {}).on = Object.fromEntries(Object.entries(paths).map(([key, to]) => [routeEvent(key), ref(to)]));
  }
  states[END] = { id: ids.get(END) as string, type: "final" };
  return setup({ types: { events: {} as CoverageModelEvent } }).createMachine({ id: "coverage", initial: START, states });
}

/** The coverage model's machine type. */
export type CoverageModel = ReturnType<typeof toCoverageModel>;

/** A snapshot of the coverage model: its `value` is the current node (or START / END). */
export type CoverageModelSnapshot = SnapshotFrom<CoverageModel>;

/**
 * The event type that takes a route key in the coverage model.
 *
 * @example
 * ```ts
 * routeEvent("accept"); // "route.accept"
 * ```
 */
export function routeEvent(key: string): `route.${string}` {
  return `route.${key}`;
}
