/**
 * The transitions of a graph, read from its spec: each fixed edge, and each key of each route.
 * They are what coverage counts: a plan takes every one, a report says which ones runs took.
 */
import { END, START, type GraphSpec } from "../spec.js";

/**
 * A fixed edge: after `from`, `to` runs. A fan-out or a join counts as one fixed edge per pair: a
 * fan-out's edge is taken when its source runs (every target starts together), a join's edge when that
 * source arrives at the barrier (the target runs once every source has arrived).
 */
export interface EdgeTransition {
  readonly kind: "edge";
  /** Which rule declared it: `addEdge(from, to)`, a fan-out `addEdge(from, [...])` or a join `addEdge([...], to)`. */
  readonly rule: "edge" | "fanOut" | "join";
  readonly from: string;
  readonly to: string;
  /** For messages and test names: `"collect → write_draft"`, with START and END spelled so. */
  readonly label: string;
}

/** One key of a route: after `from`, its router returned `key`, and `to` runs. */
export interface RouteTransition {
  readonly kind: "route";
  readonly from: string;
  readonly key: string;
  readonly to: string;
  /** For messages and test names: `"check_draft [accept] → publish"`. */
  readonly label: string;
}

/** One destination of a node's `Command` (its `ends`): after `from`, its goto runs `to`. */
export interface GotoTransition {
  readonly kind: "goto";
  readonly from: string;
  readonly to: string;
  /** Marks it as a run's routes mark a goto (so diagrams read a report's transitions and a run's routes alike). */
  readonly goto: true;
  /** For messages and test names: `"triage [goto] → page"`. */
  readonly label: string;
}

/** A transition of the graph: a fixed edge, one route key, or one destination of a node's Command. */
export type GraphTransition = EdgeTransition | RouteTransition | GotoTransition;

/** Anything with a spec: a compiled graph, or `{ spec }`. */
export interface HasSpec {
  readonly spec: GraphSpec;
}

/**
 * Every transition of a graph, grouped by source (START first, then the nodes in declaration order):
 * fixed edges, then each fan-out target and join, then each route's keys in path-map order, then each
 * node's Command ends.
 *
 * @example
 * ```ts
 * transitionsOf(buildReportGraph()).map((t) => t.label);
 * // ["START → collect", "collect → write_draft", …, "check_draft [accept] → publish", …]
 * ```
 */
export function transitionsOf(graph: HasSpec): GraphTransition[] {
  const { spec } = graph;
  const bySource = new Map<string, GraphTransition[]>([[START, []], ...spec.nodes.map((node): [string, GraphTransition[]] => [node, []])]);
  const listFor = (source: string): GraphTransition[] => {
    let list = bySource.get(source);
    if (list === undefined) bySource.set(source, (list = []));
    return list;
  };
  const edge = (rule: EdgeTransition["rule"], from: string, to: string): void => {
    listFor(from).push({ kind: "edge", rule, from, to, label: `${displayName(from)} → ${displayName(to)}` });
  };
  for (const { from, to } of spec.edges) edge("edge", from, to);
  for (const fanOut of spec.fanOuts ?? []) for (const to of fanOut.to) edge("fanOut", fanOut.from, to);
  for (const join of spec.joins ?? []) for (const from of join.from) edge("join", from, join.to);
  for (const { from, paths } of spec.routes) {
    for (const [key, to] of Object.entries(paths)) {
      listFor(from).push({ kind: "route", from, key, to, label: `${displayName(from)} [${key}] → ${displayName(to)}` });
    }
  }
  for (const { from, to: ends } of spec.ends ?? []) {
    for (const to of ends)
      listFor(from).push({ kind: "goto", from, to, goto: true, label: `${displayName(from)} [goto] → ${displayName(to)}` });
  }
  return [...bySource.values()].flat();
}

/** The identity of a route transition within its graph: its source and its key. */
export function routeKey(from: string, key: string): string {
  return `${from}\u0000${key}`;
}

/**
 * Whether a graph's plan can be single START→END paths: no fan-out, no join, and no node whose Command
 * ends come on top of an edge or a route (its goto then runs beside what the rule leads to). A router
 * with a list path map may start several nodes, but each of its keys alone is a run too, and so is each
 * goto of a node whose only rule is its ends: their plans stay paths.
 */
export function isSequential(spec: GraphSpec): boolean {
  if ((spec.fanOuts?.length ?? 0) > 0 || (spec.joins?.length ?? 0) > 0) return false;
  const ruled = new Set([...spec.edges.map((e) => e.from), ...spec.routes.map((r) => r.from)]);
  return (spec.ends ?? []).every((ends) => !ruled.has(ends.from));
}

/** The route a run records when a node's Command goto takes `transition`. */
export function gotoRoute(transition: GotoTransition): { from: string; key: string; to: string; goto: true } {
  return { from: transition.from, key: transition.to, to: transition.to, goto: true };
}

/** START and END as a reader knows them. */
export function displayName(name: string): string {
  return name === START ? "START" : name === END ? "END" : name;
}
