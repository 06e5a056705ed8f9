/**
 * A superstep some of whose tasks already succeeded before the run was restored (a thread's pending
 * writes): only the others run, and the updates come back in task order, so the superstep commits all
 * of them together as if none had been interrupted.
 */
import { andThen, type MaybePromise } from "./maybe-promise.js";
import type { TaskWrite } from "./run-settings.js";
import type { State, Task } from "./step.js";

/** Runs `tasks` at their `positions` in the superstep, beside the updates `kept` from before (see `Run`'s `#runTasks`). */
export type RunTasksAt = (tasks: readonly Task[], positions: readonly number[], kept: readonly TaskWrite[]) => MaybePromise<State[]>;

/**
 * The updates of a superstep whose tasks at the positions of `done` already succeeded: `runTasks` runs
 * the others, and every update comes back at its task's position.
 */
export function runRestOfSuperstep(tasks: readonly Task[], done: ReadonlyMap<number, State>, runTasks: RunTasksAt): MaybePromise<State[]> {
  const rest = tasks.flatMap((_, index) => (done.has(index) ? [] : [index]));
  const kept = [...done].map(([task, update]) => ({ task, node: (tasks[task] as Task).node, update }));
  const ran =
    rest.length === 0
      ? []
      : runTasks(
          rest.map((index) => tasks[index] as Task),
          rest,
          kept,
        );
  return andThen(ran, (updates) => tasks.map((_, index) => done.get(index) ?? (updates[rest.indexOf(index)] as State)));
}
