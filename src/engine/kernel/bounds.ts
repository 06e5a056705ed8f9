/**
 * Loop bounds, the kernel's rule for every driver: a bounded node runs at most `max` times per run.
 * A task that would exceed its node's bound goes to the bound's `exit` instead when the superstep's
 * tasks are scheduled ({@link boundedTasks}, from `advance`), so a checkpoint names the exit as the next
 * task; without an exit, `admit` stops the run with `LOOP_BOUND` ({@link loopBoundStop}).
 *
 * The visit counts are read from the run snapshot's trace (the nodes the run completed, in order): a
 * checkpoint carries them as it carries the trace, an older checkpoint has them already, and a new
 * input on a thread, which starts a new trace, starts them again.
 */
import { END } from "../../spec.js";
import type { NodeBound } from "../executable.js";
import { StepFailure, type Task } from "../step.js";

export type { NodeBound };

/** The part of a compiled graph the bounds read: each bounded node's bound (empty for most graphs). */
export interface BoundTable {
  readonly bounds?: ReadonlyMap<string, NodeBound>;
}

/**
 * How many times `node` ran in the run whose trace this is.
 *
 * @example
 * ```ts
 * visitsOf(["collect", "check", "revise", "check"], "check"); // 2
 * ```
 */
export function visitsOf(trace: readonly string[], node: string): number {
  let visits = 0;
  for (const name of trace) if (name === node) visits += 1;
  return visits;
}

/**
 * The next superstep's tasks with the bounds applied: each task of a node that already ran `max` times
 * (counting the tasks before it in the list, so Sends to one node count one by one) is replaced by a
 * task of its exit, or dropped when the exit is END. A task of a bound without an exit stays: `admit`
 * refuses it. Returns `tasks` itself when nothing changed.
 *
 * @example
 * ```ts
 * boundedTasks(graph, [{ node: "revise", sent: false }], ["check", "revise", "check"]); // [{ node: "hold", sent: false }] when max is 1
 * ```
 */
export function boundedTasks<T extends Task>(graph: BoundTable, tasks: readonly T[], trace: readonly string[]): readonly (T | Task)[] {
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return tasks;
  let redirected: (T | Task)[] | undefined;
  const scheduled = new Map<string, number>();
  for (const [index, task] of tasks.entries()) {
    const bound = bounds.get(task.node);
    if (bound === undefined) continue;
    const used = visitsOf(trace, task.node) + (scheduled.get(task.node) ?? 0);
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
 * node, its bound and the cycle the run took back to it; `undefined` when every task may run.
 *
 * @example
 * ```ts
 * loopBoundStop(graph, [{ node: "revise", sent: false }], trace)?.failure.code; // "LOOP_BOUND"
 * ```
 */
export function loopBoundStop(
  graph: BoundTable,
  tasks: readonly Task[],
  trace: readonly string[],
): { readonly node: string; readonly failure: StepFailure } | undefined {
  const bounds = graph.bounds;
  if (bounds === undefined || bounds.size === 0) return undefined;
  const scheduled = new Map<string, number>();
  for (const task of tasks) {
    const bound = bounds.get(task.node);
    if (bound === undefined) continue;
    const used = visitsOf(trace, task.node) + (scheduled.get(task.node) ?? 0);
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
