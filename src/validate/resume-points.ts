/**
 * Every place a thread of a graph can be found paused or stopped, read from its spec alone: what a newer
 * version must be able to take for such a thread to continue on it (`assertResumable`, `tsg check
 * --against`). Pure over a {@link GraphSpec}; the run-time resume can list the same points.
 */
import type { GraphSpec } from "../spec.js";

/**
 * What kind of place a {@link ResumePoint} is:
 * - `before`: the node is a task of the next superstep (a static `interruptBefore`, a failed or aborted
 *   superstep, a crash): the thread resumes by running it;
 * - `after`: the node ran and the thread paused there (`interruptAfter`); its trace names the node;
 * - `interrupt`: the node called `interrupt()` and waits for an answer (any node may: it reruns with it);
 * - `send`: a `Send` to the node is pending, with its payload (a route that may send, or a `Command` goto);
 * - `join`: the join waits, some of its sources arrived.
 */
export type ResumePointKind = "before" | "after" | "interrupt" | "send" | "join";

/** One place a thread can be found paused or stopped. */
export interface ResumePoint {
  /**
   * Stable and readable: `before:draft`, `after:draft`, `interrupt:draft`, `send:worker`, `join:synthesize`;
   * inside a subgraph node the node's path, `interrupt:research/web`.
   */
  readonly id: string;
  readonly kind: ResumePointKind;
  /** The node, through subgraphs (`["research", "web"]`); for a join, its target. */
  readonly path: readonly string[];
  /** A join's sources, in declaration order. */
  readonly sources?: readonly string[];
}

/**
 * The resume points of a spec: for each node in declaration order, `before`, `interrupt` (a subgraph node
 * instead has its child graph's points, under its name), `after`, and `send` when something may send to
 * it; then each join. Subgraphs nest to any depth.
 *
 * @example
 * ```ts
 * resumePoints(graph.spec).map((point) => point.id);
 * // ["before:collect", "interrupt:collect", "after:collect", …, "join:synthesize"]
 * ```
 */
export function resumePoints(spec: GraphSpec): ResumePoint[] {
  return pointsUnder(spec, []);
}

function pointsUnder(spec: GraphSpec, prefix: readonly string[]): ResumePoint[] {
  const sent = sendTargets(spec);
  const points: ResumePoint[] = [];
  for (const node of spec.nodes) {
    const path = [...prefix, node];
    const child = spec.subgraphs?.[node];
    points.push(point("before", path));
    if (child === undefined) points.push(point("interrupt", path));
    else points.push(...pointsUnder(child, path));
    points.push(point("after", path));
    if (sent.has(node)) points.push(point("send", path));
  }
  const joins = spec.joins ?? [];
  for (const join of joins) {
    // Two joins into one node are told apart by their sources; one keeps the short id.
    const shared = joins.filter((other) => other.to === join.to).length > 1;
    const id = `join:${[...prefix, join.to].join("/")}${shared ? `(${join.from.join(",")})` : ""}`;
    points.push({ id, kind: "join", path: [...prefix, join.to], sources: join.from });
  }
  return points;
}

function point(kind: Exclude<ResumePointKind, "join">, path: readonly string[]): ResumePoint {
  return { id: `${kind}:${path.join("/")}`, kind, path };
}

/** The nodes a `Send` may target: the destinations of a route that may send, and of a node's `Command` ends (END is no node: never listed). */
function sendTargets(spec: GraphSpec): Set<string> {
  const targets = new Set<string>();
  for (const route of spec.routes) if (route.sends === true) for (const to of Object.values(route.paths)) targets.add(to);
  for (const ends of spec.ends ?? []) for (const to of ends.to) targets.add(to);
  return targets;
}
