/**
 * The one entry through which a driver that starts tasks itself (the DBOS workflow's durable step, the
 * LangGraph runner's node and router wrappers) runs a task as the mini engine does: the node under its
 * policies, in an interrupt frame, with a context made from the driver's I/O (its signal, superstep,
 * thread and event writer); and hands back what the kernel reads of it: the update and its `Command`
 * goto apart, and whether a failure was the node's own or a cancellation.
 */
import { isAborted } from "./abortable.js";
import { runTask } from "./attempts.js";
import { nodeOutput } from "./command-list.js";
import type { ExecutableGraph } from "./executable.js";
import { currentFrame, runInInterruptFrame, type InterruptFrame, type TaskFrame } from "./interrupt-scope.js";
import type { MaybePromise } from "./maybe-promise.js";
import { successorsOf, type State, type Successors, type Task } from "./step.js";
import { RouterCallContext, SuperstepScope, TaskContext, type EventSink } from "./task-context.js";

/** What a driver that starts a task itself knows of where it runs. */
export interface TaskIO {
  /** The task's signal, as the driver's own loop hands it over. */
  readonly signal: AbortSignal | undefined;
  /** The superstep it runs in, counted as the mini engine counts (START's task is 0). */
  readonly superstep: number;
  readonly threadId: string | undefined;
  /** Where the node's `context.writer` events go. */
  readonly writer?: EventSink | undefined;
}

/** A task's return, as the kernel reads it: the update, and the tasks its `Command` goto adds. */
export interface TaskOutput {
  readonly update: State;
  /** The updates to write in order: one, unless the node returned a list of Commands that wrote a field twice. */
  readonly parts: readonly State[];
  readonly goto: readonly Task[] | undefined;
}

/**
 * Running a task for a driver. `run` is the mini engine's own task runner (what `Run` calls when no
 * driver replaces it), so a task behaves the same whichever engine starts it.
 *
 * @example
 * ```ts
 * const context = taskEntry.context("draft", { signal, superstep: 1, threadId: undefined });
 * const output = taskEntry.output(await taskEntry.run(graph, { node: "draft", sent: false }, state, context));
 * ```
 */
export const taskEntry = {
  /** Runs `task` on `state` under its node's policies; inside `frame` when given (a driver's own interrupt frame). */
  run(graph: ExecutableGraph, task: Task, state: State, context: TaskContext, frame?: InterruptFrame): MaybePromise<State> {
    if (frame === undefined) return runTask(graph, task, state, context);
    return runInInterruptFrame(frame, () => runTask(graph, task, state, context));
  },

  /** The context of a task the driver starts itself: its own scope, aborted with the driver's signal. */
  context(node: string, io: TaskIO): TaskContext {
    return new TaskContext(new SuperstepScope(io.signal), node, io.superstep, io.threadId, io.writer);
  },

  /** The interrupt frame a threaded run put the running task in, if any. */
  frame(): TaskFrame | undefined {
    return currentFrame();
  },

  /** A node's output split as the kernel reads it: the update without the goto, its parts in order, and the goto's tasks. */
  output(output: State): TaskOutput {
    return nodeOutput(output);
  },

  /** Whether a task that failed was cancelled (its signal had aborted and it read it), not failing on its own. */
  cancelled(context: TaskContext, signal: AbortSignal | undefined): boolean {
    return isAborted(signal) && context.readSignal;
  },

  /** The router after `source`, run as the mini engine runs it (its keys checked against the path map). */
  route(graph: ExecutableGraph, source: string, state: State, io: TaskIO): MaybePromise<Successors> {
    return successorsOf(graph, source, state, new RouterCallContext(io.signal, source, io.superstep, io.threadId));
  },
};
