/**
 * The deferred-node rule (LangGraph.js's `addNode(name, fn, { defer: true })`): a deferred node that
 * an edge, a route, a join or a `Command` goto leads to waits until no other node has a task pending,
 * then runs (the reduce step of a map-reduce whose branches have different lengths). LangGraph decides
 * it with channels that become available only once a superstep's writes trigger no node
 * (`LastValueAfterFinish`); here it is one pure function over the next superstep's tasks.
 */
import type { Task } from "../step.js";

/** The part of a compiled graph the rule reads: its deferred nodes (absent or empty for most graphs). */
export interface DeferTable {
  readonly deferred?: ReadonlySet<string>;
}

/** What {@link deferTasks} decided: the tasks the next superstep runs, and the deferred ones that keep waiting. */
export interface Deferral<T extends Task = Task> {
  readonly tasks: T[];
  /** Plain tasks of deferred nodes held back, in declaration order; empty when none waits. */
  readonly deferred: readonly T[];
}

/** No deferred task waits (shared: most runs never hold one). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * Splits a superstep's scheduled tasks (already de-duplicated and in declaration order, the deferred
 * tasks still waiting included) into those that run and those that wait. A plain task of a deferred
 * node waits while a plain task of a node that is not deferred is scheduled; once none is, every
 * deferred task runs, together with any `Send`s. A `Send` is never deferred and never holds one back:
 * in LangGraph it triggers no node's channel, so it does not keep a deferred node waiting either.
 *
 * @example
 * ```ts
 * // "reduce" is deferred; branch "b2" still has a step to go
 * deferTasks(graph, [{ node: "b2", sent: false }, { node: "reduce", sent: false }]);
 * // → { tasks: [b2], deferred: [reduce] }; a superstep later, with b2 done: { tasks: [reduce], deferred: [] }
 * ```
 */
export function deferTasks<T extends Task>(graph: DeferTable, scheduled: T[]): Deferral<T> {
  const { deferred } = graph;
  if (deferred === undefined || deferred.size === 0) return { tasks: scheduled, deferred: NONE };
  let waits = false;
  let others = false;
  for (const task of scheduled) {
    if (task.sent) continue;
    if (deferred.has(task.node)) waits = true;
    else others = true;
  }
  if (!waits || !others) return { tasks: scheduled, deferred: NONE };
  return {
    tasks: scheduled.filter((task) => task.sent || !deferred.has(task.node)),
    deferred: scheduled.filter((task) => !task.sent && deferred.has(task.node)),
  };
}
