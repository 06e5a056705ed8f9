/**
 * Loop bounds, the kernel's rule for every driver: a bounded node runs at most `max` times per run.
 * A task that would exceed its node's bound goes to the bound's `exit` instead when the superstep's
 * tasks are scheduled ({@link boundedTasks}, from `advance`), so a checkpoint names the exit as the next
 * task; without an exit, `admit` stops the run with `LOOP_BOUND` ({@link loopBoundStop}).
 *
 * The visit counts are the run snapshot's trace (the nodes the run completed, in order) counted per
 * bounded node. A driver keeps them as a running count ({@link visitCounts} once, when a run starts or
 * is restored, then {@link countVisits} per superstep), so a superstep costs a lookup per bounded task,
 * not a walk of the trace. The count is derived, never stored: a checkpoint carries the trace, an older
 * checkpoint has it already, a snapshot whose trace was edited (pending writes kept, a rerouted update)
 * is counted again from it, and a new input on a thread, which starts a new trace, starts them again.
 */
import { END } from "../../spec.js";
import type { NodeBound } from "../executable.js";
import { StepFailure, type Task } from "../step.js";

export type { NodeBound };

/** The part of a compiled graph the bounds read: each bounded node's bound (empty for most graphs). */
export interface BoundTable {
  readonly bounds?: ReadonlyMap<string, NodeBound>;
}

/** How many times each bounded node ran in a run (a node that never ran is absent). */
export type VisitCounts = ReadonlyMap<string, number>;

/**
 * The visit counts of the run whose trace this is: one walk of the trace, counting the bounded nodes
 * only (none in a graph without bounds). The table is the caller's, to keep up with {@link countVisits}.
 *
 * @example
 * ```ts
 * visitCounts(graph, ["collect", "check", "revise", "check"]).get("check"); // 2, when "check" is bounded
 * ```
 */
export function visitCounts(graph: BoundTable, trace: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return counts;
  for (const node of trace) if (bounds.has(node)) counts.set(node, (counts.get(node) ?? 0) + 1);
  return counts;
}

/**
 * Adds a committed superstep's tasks to a run's running counts (`counts` from {@link visitCounts}, kept
 * by the driver). Nothing to do in a graph without bounds.
 *
 * @example
 * ```ts
 * const visits = visitCounts(graph, []);
 * countVisits(graph, visits, [{ node: "check", sent: false }]); // visits.get("check") === 1
 * ```
 */
export function countVisits(graph: BoundTable, counts: Map<string, number>, tasks: readonly Task[]): void {
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return;
  for (const { node } of tasks) if (bounds.has(node)) counts.set(node, (counts.get(node) ?? 0) + 1);
}

/**
 * The next superstep's tasks with the bounds applied: each task of a node that already ran `max` times
 * (counting the tasks before it in the list, so Sends to one node count one by one) is replaced by a
 * task of its exit, or dropped when the exit is END. A task of a bound without an exit stays: `admit`
 * refuses it. Returns `tasks` itself when nothing changed.
 *
 * @example
 * ```ts
 * boundedTasks(graph, [{ node: "revise", sent: false }], visitCounts(graph, ["check", "revise", "check"])); // [{ node: "hold", sent: false }] when max is 1
 * ```
 */
export function boundedTasks<T extends Task>(graph: BoundTable, tasks: readonly T[], visits: VisitCounts): readonly (T | Task)[] {
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return tasks;
  let redirected: (T | Task)[] | undefined;
  const scheduled = new Map<string, number>();
  for (const [index, task] of tasks.entries()) {
    const bound = bounds.get(task.node);
    if (bound === undefined) continue;
    const used = (visits.get(task.node) ?? 0) + (scheduled.get(task.node) ?? 0);
    if (used < bound.max || bound.exit === undefined) {
      scheduled.set(task.node, (scheduled.get(task.node) ?? 0) + 1);
      continue;
    }
    redirected ??= [...tasks];
    redirected[index] = { node: bound.exit, sent: false };
  }
  if (redirected === undefined) return tasks;
  return redirected.filter((task) => task.node !== END);
}

/**
 * `LOOP_BOUND` for the first task whose node already ran its `max` times and has no exit, naming the
 * node, its bound and the cycle the run took back to it (read from the `trace`, only then); `undefined`
 * when every task may run.
 *
 * @example
 * ```ts
 * loopBoundStop(graph, [{ node: "revise", sent: false }], visitCounts(graph, trace), trace)?.failure.code; // "LOOP_BOUND"
 * ```
 */
export function loopBoundStop(
  graph: BoundTable,
  tasks: readonly Task[],
  visits: VisitCounts,
  trace: readonly string[],
): { readonly node: string; readonly failure: StepFailure } | undefined {
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return undefined;
  const scheduled = new Map<string, number>();
  for (const task of tasks) {
    const bound = bounds.get(task.node);
    if (bound === undefined) continue;
    const used = (visits.get(task.node) ?? 0) + (scheduled.get(task.node) ?? 0);
    scheduled.set(task.node, (scheduled.get(task.node) ?? 0) + 1);
    if (used >= bound.max)
      return { node: task.node, failure: new StepFailure("LOOP_BOUND", loopBoundMessage(task.node, bound.max, trace)) };
  }
  return undefined;
}

/** What the run took back to `node` since it last ran (`a → b → a`), or the path to it when it never ran. */
function cycleOf(node: string, trace: readonly string[]): string {
  const last = trace.lastIndexOf(node);
  return [...trace.slice(Math.max(last, 0)), node].map((name) => `"${name}"`).join(" → ");
}

function loopBoundMessage(node: string, max: number, trace: readonly string[]): string {
  const times = max === 1 ? "once" : `${max} times`;
  return (
    `the loop bound of "${node}" (max: ${max}) was reached: it ran ${times} this run, and the cycle ${cycleOf(node, trace)} ` +
    `would run it again. Give the bound an exit ({ bound: { max: ${max}, exit: "<node or END>" } }) to end the loop there, or raise max.`
  );
}
