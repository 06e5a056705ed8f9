/**
 * Every place a thread of a graph can be found paused or stopped: read from its spec alone, what a newer
 * version must be able to take for such a thread to continue on it (`assertResumable`, `tsg check
 * --against`); read from a stored thread's position, the points that thread is at (the run-time
 * migration's list of points a new version cannot take). The one definition of a resume point, for both.
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
  for (const join of spec.joins ?? []) points.push(joinPoint(spec, join, prefix));
  return points;
}

type Join = NonNullable<GraphSpec["joins"]>[number];

function joinPoint(spec: GraphSpec, join: Join, prefix: readonly string[]): ResumePoint {
  // Two joins into one node are told apart by their sources; one keeps the short id.
  const shared = (spec.joins ?? []).filter((other) => other.to === join.to).length > 1;
  const id = `join:${[...prefix, join.to].join("/")}${shared ? `(${join.from.join(",")})` : ""}`;
  return { id, kind: "join", path: [...prefix, join.to], sources: join.from };
}

/** A task of a stored thread, as a resume point reads it. */
interface PositionTask {
  readonly node: string;
  readonly sent: boolean;
}

/**
 * What a resume point reads of a stored thread: its checkpoint, structurally (`validate` imports no
 * engine type). `joins[i]` holds the sources arrived at the spec's join `i`.
 */
export interface ThreadPosition {
  readonly tasks: readonly PositionTask[];
  readonly deferred?: readonly PositionTask[];
  readonly interrupts?: readonly { readonly id: string }[];
  readonly joins: readonly (readonly string[])[];
}

/** A resume point a stored thread is at, and where its checkpoint says so (`tasks[0]`, `deferred[0]`, `joins[1]`). */
export interface PositionPoint extends ResumePoint {
  readonly at: string;
}

/**
 * The resume points a thread at `position` is at, as {@link resumePoints} names them for the spec of
 * the graph that wrote it (a checkpoint is never at a point its spec lacks: test/validate checks it):
 * each task is a pending `Send` (`send:`), a node paused in `interrupt()` (`interrupt:`, through the
 * subgraphs it is nested in), or the next task (`before:`); each deferred task waiting is `before:` its
 * node; each join with arrivals is its `join:` point.
 *
 * @example
 * ```ts
 * positionPoints(await checkpointer.latest("t1"), graph.spec).map((point) => point.id); // ["before:publish"]
 * ```
 */
export function positionPoints(position: ThreadPosition, spec: GraphSpec): PositionPoint[] {
  const points: PositionPoint[] = position.tasks.map((task, index) => {
    const paused = pausedPath(position, task.node, index);
    const at = `tasks[${index}]`;
    if (task.sent) return { ...point("send", [task.node]), at };
    return paused === undefined ? { ...point("before", [task.node]), at } : { ...point("interrupt", paused), at };
  });
  (position.deferred ?? []).forEach((task, index) => points.push({ ...point("before", [task.node]), at: `deferred[${index}]` }));
  (spec.joins ?? []).forEach((join, index) => {
    if ((position.joins[index]?.length ?? 0) > 0) points.push({ ...joinPoint(spec, join, []), at: `joins[${index}]` });
  });
  return points;
}

/**
 * The node path an `interrupt()` of task `index` (of `node`) waits in. Its id is `node:superstep:task:call`;
 * inside subgraphs, each subgraph task's `node:superstep:task/` comes first (`review:3:0/ask:1:0:0`).
 * Read from each level's end, as the engine orders them, so a node's name may hold a colon or a slash.
 */
function pausedPath(position: ThreadPosition, node: string, index: number): string[] | undefined {
  for (const { id } of position.interrupts ?? []) {
    const levels = id.split(/(?<=:\d+:\d+)\//);
    const innermost = levels.pop() ?? "";
    const nodes = [...levels.map((level) => withoutNumbers(level, 2)), withoutNumbers(innermost, 3)];
    const outer = levels[0] ?? innermost;
    const task = outer.split(":").at(levels.length === 0 ? -2 : -1);
    if (nodes[0] === node && task === String(index)) return nodes;
  }
  return undefined;
}

/** `name:1:2` without its last `count` numbers: `name`. */
function withoutNumbers(level: string, count: number): string {
  let end = level.length;
  for (let n = 0; n < count; n++) end = level.lastIndexOf(":", end - 1);
  return level.slice(0, Math.max(end, 0));
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
