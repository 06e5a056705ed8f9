/**
 * The kernel's routing rule (`advance`) and the order tasks run in (`schedule`): from what each source
 * of a superstep leads to, the next superstep's tasks. Pure and synchronous, over the run's joins and
 * visit counts; the driver has run the routers already (see `superstep.ts` for the whole superstep).
 */
import { END } from "../../spec.js";
import type { ExecutableGraph } from "../executable.js";
import { boundedTasks, type BoundTable, type VisitCounts } from "./bounds.js";
import { deferTasks, type DeferTable } from "./defer.js";
import { gotoRoutes } from "../command-goto.js";
import type { RouteTaken, Successors, Task } from "../step.js";

// What a source whose node failed and whose error handler answered leads to: a driver asks it before the node's rule.
export { handledSuccessors } from "./error-handlers.js";

/**
 * A source that ran, and what its rule leads to (`undefined` for a join's source: the join decides),
 * plus the tasks its `Command` goto added, which run whatever its rule says.
 */
export interface Arrival {
  readonly source: string;
  readonly successors: Successors | undefined;
  readonly goto?: readonly Task[] | undefined;
}

/** What {@link advance} decided: the next superstep's tasks, the deferred tasks still waiting, the joins' arrivals, and the routes taken. */
export interface Advance {
  readonly tasks: Task[];
  /** Plain tasks of deferred nodes that wait while another node has a task pending (see `defer.ts`); empty for most graphs. */
  readonly deferred: readonly Task[];
  readonly joins: (readonly string[])[];
  /** Every route taken, in the sources' order. */
  readonly routes: readonly RouteTaken[];
  /** Per arrival: the route key(s) its router took (a list when it returned a list), or `undefined`. */
  readonly keys: readonly (string | string[] | undefined)[];
}

/** No deferred task waits. */
const NO_TASKS: readonly Task[] = Object.freeze([]);

/** The keys of one arrival that took no route (every step of a chain): one list for all. */
const NO_KEY: readonly (string | string[] | undefined)[] = [undefined];

/**
 * The next superstep's tasks, from what each source of the last one leads to: joins whose sources have
 * all arrived fire, END is dropped, plain tasks are de-duplicated (Sends never are), and the result is
 * sorted in declaration order (stably: Sends to one node keep their order). The `deferred` tasks that
 * were waiting join them, and a deferred node's task waits again while another node has one
 * (`deferTasks`). Given the run's `visits` (the superstep just run counted), a task of a node whose
 * loop bound is reached goes to the bound's exit.
 *
 * @example
 * ```ts
 * const next = advance(graph, snapshot.joins, [{ source: "a", successors: successorsOf(graph, "a", state) }]);
 * next.tasks; // [{ node: "b", sent: false }]
 * ```
 */
export function advance(
  graph: Pick<ExecutableGraph, "order" | "joins" | "transitions"> & BoundTable & DeferTable,
  joins: readonly (readonly string[])[],
  arrivals: readonly Arrival[],
  visits?: VisitCounts,
  deferred: readonly Task[] = NO_TASKS,
): Advance {
  // One source with no Command goto (every step of a sequential graph): no list to collect into.
  // A graph with loop bounds or deferred nodes takes the general path, where those rules are applied to the scheduled tasks.
  const only =
    arrivals.length === 1 && (visits === undefined || (graph.bounds?.size ?? 0) === 0) && (graph.deferred?.size ?? 0) === 0
      ? arrivals[0]
      : undefined;
  if (only?.successors !== undefined && only.goto === undefined) {
    const { successors } = only;
    return {
      tasks: schedule(graph, successors.tasks),
      deferred: NO_TASKS,
      joins: joins as (readonly string[])[],
      routes: successors.routes,
      keys: successors.routes.length === 0 && !successors.list ? NO_KEY : [routeKeys(successors)],
    };
  }
  const tasks: Task[] = [];
  const routes: RouteTaken[] = [];
  const keys: (string | string[] | undefined)[] = [];
  let nextJoins = joins as (readonly string[])[];
  for (const { source, successors, goto } of arrivals) {
    if (successors === undefined) {
      keys.push(undefined);
      const transition = graph.transitions.get(source);
      if (transition?.kind === "join") {
        if (nextJoins === joins) nextJoins = [...joins];
        nextJoins[transition.join] = arrive(graph, transition.join, nextJoins[transition.join] ?? [], source, tasks);
      }
    } else {
      for (const task of successors.tasks) tasks.push(task);
      keys.push(routeKeys(successors));
      for (const route of successors.routes) routes.push(route);
    }
    // LangGraph's rule: a Command goto adds destinations; the source's edge, route or join still applies.
    if (goto !== undefined) {
      tasks.push(...goto);
      routes.push(...gotoRoutes(source, goto));
    }
  }
  for (const task of deferred) tasks.push(task);
  const waiting = deferTasks(graph, schedule(graph, tasks));
  const scheduled = waiting.tasks;
  if (visits === undefined) return { tasks: scheduled, deferred: waiting.deferred, joins: nextJoins, routes, keys };
  const bounded = boundedTasks(graph, scheduled, visits);
  const next = bounded === scheduled ? scheduled : schedule(graph, bounded);
  return { tasks: next, deferred: waiting.deferred, joins: nextJoins, routes, keys };
}

/** The route key(s) a source's router took: a list when it returned one, else its one key, or `undefined` for no router. */
function routeKeys(successors: Successors): string | string[] | undefined {
  if (successors.list) return successors.routes.map((route) => route.key);
  return successors.routes[0]?.key;
}

/** A join source ran: the join's target is activated once every source has, and its arrivals start again. */
function arrive(
  graph: Pick<ExecutableGraph, "joins">,
  index: number,
  arrived: readonly string[],
  source: string,
  tasks: Task[],
): readonly string[] {
  const join = graph.joins[index];
  if (join === undefined) return arrived;
  const next = arrived.includes(source) ? arrived : [...arrived, source];
  if (next.length < join.sources.size) return next;
  tasks.push({ node: join.to, sent: false });
  return [];
}

/**
 * Tasks in the order they run and merge: END dropped, plain tasks de-duplicated, declaration order
 * (stable, so Sends to one node keep the order they were sent in).
 *
 * @example
 * ```ts
 * schedule(graph, [{ node: "b", sent: false }, { node: "a", sent: false }, { node: "b", sent: false }]); // a, b
 * ```
 */
export function schedule<T extends Task>(graph: Pick<ExecutableGraph, "order">, tasks: readonly T[]): T[] {
  if (tasks.length === 1) {
    const only = tasks[0] as T;
    return only.node === END ? [] : [only];
  }
  const seen = new Set<string>();
  const scheduled = tasks.filter((task) => {
    if (task.node === END) return false;
    if (task.sent) return true;
    if (seen.has(task.node)) return false;
    seen.add(task.node);
    return true;
  });
  const { order } = graph;
  // Array.prototype.sort is stable. Plain tasks come before Sends to the same node, as LangGraph runs them.
  return scheduled.sort((a, b) => (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0) || Number(a.sent) - Number(b.sent));
}
