/**
 * The kernel's rule for the writes a superstep that did not commit keeps (a thread's pending writes):
 * a task that finished on its own keeps its update, so a resume runs only the others. A task cancelled
 * by a sibling's failure, or paused at an interrupt, keeps nothing and runs again.
 */
import type { PendingWrite } from "../../errors.js";
import { cloneState } from "../clone.js";
import { withoutGoto } from "../command-goto.js";
import { visibleUpdate } from "../command-list.js";
import type { State, Task } from "../step.js";
import type { Settled } from "./failures.js";
import { keepsNoWrite } from "./handoff.js";

/** A task's update, by the task's position in its superstep. */
export interface KeptWrite {
  readonly task: number;
  readonly node: string;
  readonly update: State;
}

/**
 * The writes a failed superstep keeps: those of the tasks that succeeded on their own (not after a
 * sibling's failure cancelled them), in task order. `positions` are the tasks' places in the superstep
 * when only some of its tasks ran.
 *
 * @example
 * ```ts
 * writesKeptOnFailure([{ node: "a", sent: false }], [{ failed: false, cancelled: false }], [{ n: 1 }]); // [{ task: 0, node: "a", update: { n: 1 } }]
 * ```
 */
export function writesKeptOnFailure(
  tasks: readonly Task[],
  settled: readonly (Settled | undefined)[],
  updates: readonly State[],
  positions?: readonly number[],
): KeptWrite[] {
  return tasks.flatMap((task, index) => {
    const outcome = settled[index];
    return outcome?.failed === false && !outcome.cancelled && !keepsNoWrite(updates[index])
      ? [{ task: positions?.[index] ?? index, node: task.node, update: updates[index] as State }]
      : [];
  });
}

/**
 * The writes a superstep that paused at in-node interrupts keeps: those of the tasks that did not
 * pause, in task order. Nothing of the superstep commits.
 *
 * @example
 * ```ts
 * writesKeptOnPause([{ node: "a", sent: false }, { node: "b", sent: false }], [{ n: 1 }, {}], new Set([1])); // a's only
 * ```
 */
export function writesKeptOnPause(tasks: readonly Task[], updates: readonly State[], paused: ReadonlySet<number>): KeptWrite[] {
  return tasks.flatMap((task, index) =>
    paused.has(index) || keepsNoWrite(updates[index]) ? [] : [{ task: index, node: task.node, update: updates[index] as State }],
  );
}

/**
 * What a failed superstep's error carries of the writes kept (`error.pendingWrites`): detached copies,
 * in task order, each without its `Command` goto.
 *
 * @example
 * ```ts
 * pendingWritesOf([{ task: 0, node: "a", update: { n: 1 } }]); // [{ node: "a", update: { n: 1 } }]
 * ```
 */
export function pendingWritesOf(writes: readonly KeptWrite[]): PendingWrite[] {
  return writes.map((write) => ({ node: write.node, update: cloneState(visibleUpdate(withoutGoto(write.update))) }));
}
