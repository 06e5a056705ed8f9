/**
 * Running a superstep's admitted tasks for the mini engine's driver (`run.ts`): each on its own copy of
 * the same committed state, a lone task directly, several as a {@link ParallelSuperstep}. The driver
 * only starts tasks and keeps time; what a failure means is the kernel's to decide.
 */
import type { GraphError, PendingWrite } from "../errors.js";
import { unlessAborted } from "./abortable.js";
import type { ExecutableGraph } from "./executable.js";
import type { InterruptHost } from "./interrupt-scope.js";
import { pendingWritesOf } from "./kernel/writes.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { ObservedRun } from "./observed-run.js";
import { ParallelSuperstep, type ParallelHost } from "./parallel-superstep.js";
import type { TaskRunner, TaskWrite } from "./run-settings.js";
import { isThenable } from "../_thenable.js";
import type { State, Task } from "./step.js";
import { SuperstepScope, TaskContext, type EventSink } from "./task-context.js";

/** What running tasks reads of its run: its settings, and its state and tasks as they stand (through getters). */
export interface TaskHost {
  readonly graph: ExecutableGraph;
  readonly signal: AbortSignal | undefined;
  readonly threadId: string | undefined;
  readonly maxConcurrency: number;
  readonly sink: EventSink | undefined;
  readonly observed: ObservedRun | undefined;
  readonly interrupts: InterruptHost | undefined;
  readonly onWrite: ((write: TaskWrite) => void) | undefined;
  readonly runTask: TaskRunner;
  readonly state: State;
  readonly supersteps: number;
  /** The superstep's tasks (a task's position is looked up only if it interrupts). */
  readonly tasks: readonly Task[] | undefined;
  /** The run's error for a task that failed, with the writes its superstep keeps. */
  fail(error: unknown, node: string, pendingWrites?: readonly PendingWrite[]): GraphError;
}

/** Runs a run's supersteps' tasks; one per run. */
export class TaskLauncher {
  readonly #host: TaskHost;
  /** The scope of every superstep of one task (see {@link TaskLauncher.run}). */
  #soloScope: SuperstepScope | undefined;

  constructor(host: TaskHost) {
    this.#host = host;
  }

  /**
   * Runs the admitted tasks, each on its own copy of the same committed state, and returns their updates in order.
   * `positions` are the tasks' places in the superstep, `kept` the updates known when some succeeded before (`Run.restore`).
   */
  run(tasks: readonly Task[], positions?: readonly number[], kept: readonly TaskWrite[] = []): MaybePromise<State[]> {
    const host = this.#host;
    const superstep = host.supersteps + 1;
    if (tasks.length > 1) {
      const scope = new SuperstepScope(host.signal, host.observed);
      return new ParallelSuperstep(this.#parallelHost(scope, superstep), tasks, scope, positions, kept).run();
    }
    // A lone task has no sibling to cancel it: its scope only ever aborts with the run's signal, so
    // every lone task of the run shares one (and one combined signal, if a node reads it).
    const scope = (this.#soloScope ??= new SuperstepScope(host.signal, host.observed));
    const task = tasks[0] as Task;
    let pending: MaybePromise<State>;
    try {
      pending = this.#runInFrame(task, this.#context(task, scope, superstep));
    } catch (error) {
      throw host.fail(error, task.node, pendingWritesOf(kept));
    }
    if (!isThenable(pending)) return [pending];
    return unlessAborted(task.node, pending, host.signal).then(
      (update) => [update],
      (error: unknown) => {
        throw host.fail(error, task.node, pendingWritesOf(kept));
      },
    );
  }

  /** What a parallel superstep asks of this run. */
  #parallelHost(scope: SuperstepScope, superstep: number): ParallelHost {
    const host = this.#host;
    return {
      maxConcurrency: host.maxConcurrency,
      signal: host.signal,
      onWrite: host.onWrite,
      context: (task) => this.#context(task, scope, superstep),
      start: (task, context) => this.#runInFrame(task, context),
      fail: (error, node, kept) => host.fail(error, node, kept === undefined ? undefined : pendingWritesOf(kept)),
    };
  }

  /** A task under its node's policies; in a threaded run, inside its interrupt frame (its position is looked up only if it interrupts). */
  #runInFrame(task: Task, context: TaskContext): MaybePromise<State> {
    const host = this.#host;
    const frame = host.interrupts;
    if (frame === undefined) return host.runTask(host.graph, task, host.state, context);
    const position = () => (host.tasks ?? []).indexOf(task);
    return frame.run(task, context.superstep, position, () => host.runTask(host.graph, task, host.state, context));
  }

  #context(task: Task, scope: SuperstepScope, superstep: number): TaskContext {
    return new TaskContext(scope, task.node, superstep, this.#host.threadId, this.#host.sink?.forTask?.(task) ?? this.#host.sink);
  }
}
