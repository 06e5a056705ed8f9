/**
 * What a driver hands the mini engine's `Run` beyond the caller's options (`RunSettings`), how a task
 * executes (`TaskRunner`), and a task's update by its place in the superstep (`TaskWrite`).
 */
import type { PendingWrite } from "../errors.js";
import type { ExecutableGraph } from "./executable.js";
import type { InterruptHost } from "./interrupt-scope.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { ObservedSettings } from "./observed-run.js";
import type { RunOptions } from "./run-types.js";
import type { State, Task } from "./step.js";
import type { EventSink, TaskContext } from "./task-context.js";

/** What a driver of `Run` may add to the caller's options. */
export interface RunSettings extends RunOptions, ObservedSettings {
  /** The thread a threaded run belongs to (`context.threadId`). */
  readonly threadId?: string;
  /** Where `context.writer` events go; without it they are dropped. */
  readonly sink?: EventSink;
  /** The API named in error messages. Default `invoke`. */
  readonly api?: string;
  /** A threaded run's interrupts: each task runs in its frame, and a superstep that paused throws `SuperstepPaused` before it commits. */
  readonly interrupts?: InterruptHost;
  /**
   * Called as each task of a parallel superstep succeeds on its own (not after a sibling's failure
   * cancelled it), before the superstep commits: a threaded run stores it as a pending write. It must
   * not throw, and must copy `write.update` if it keeps it.
   */
  readonly onWrite?: (write: TaskWrite) => void;
  /** Called once a superstep's tasks are admitted, before any of them runs (`stream`'s `tasks` and `debug` modes). It must not throw. */
  readonly onTasks?: (superstep: number, tasks: readonly Task[], state: State) => void;
  /**
   * How a task executes: `runTask` (its node under its policies) unless a driver records it, as the
   * DBOS driver does by running it as a durable step. The kernel's rules around it stay the same.
   */
  readonly runTask?: TaskRunner;
}

/** A task's update, by the task's position in its superstep (see {@link RunSettings.onWrite} and {@link Run.restore}). */
export interface TaskWrite extends PendingWrite {
  readonly task: number;
}

/** Executes one task of a superstep on the committed state (see `runTask`). */
export type TaskRunner = (graph: ExecutableGraph, task: Task, state: State, context: TaskContext) => MaybePromise<State>;

/**
 * What a `Run` starts from, so each state is validated once: `"input"`, a caller's input (its shape and
 * the state schema are checked); `"checked"`, a state the kernel's commit already validated (a thread's
 * input merged with its state) or `checkedStart` returned; `"restored"`, a committed snapshot.
 */
export type RunStart = "input" | "checked" | "restored";
