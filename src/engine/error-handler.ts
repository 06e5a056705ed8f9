/**
 * Runs a node's error handler once the node failed for good (after its cache, attempts and timeouts),
 * as the kernel's rule says (`kernel/error-handlers.ts`: which failures, what the handler is told, what
 * follows). Every engine runs a node through `runTask`, and so through this: a handler means the same
 * thing on `invoke`, `stream`, a thread, the XState machine and a DBOS workflow (where the handler runs
 * inside the node's durable step, so its answer is recorded with it).
 */
import { messageOf, quote } from "../_describe.js";
import { isAborted } from "./abortable.js";
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import { handlerError, handlesFailure, markHandled } from "./kernel/error-handlers.js";
import type { NodeErrorHandler } from "./policies.js";
import { isThenable } from "../_thenable.js";
import { acceptUpdate, StepFailure, type State, type Task } from "./step.js";
import type { TaskContext } from "./task-context.js";

/**
 * `run()` (the task under its policies), or, when it fails in a way the kernel lets a handler take, the
 * handler's update in its place, marked as the handler's (so its node's own rule does not route it).
 * A synchronous task and handler stay synchronous.
 */
export function withErrorHandler(
  graph: ExecutableGraph,
  task: Task,
  state: State,
  context: TaskContext,
  handler: NodeErrorHandler<never>,
  run: () => State | Promise<State>,
): State | Promise<State> {
  let pending: State | Promise<State>;
  try {
    pending = run();
  } catch (failure) {
    return handle(graph, task, state, context, handler, failure);
  }
  if (!isThenable(pending)) return pending;
  return pending.then(undefined, (failure: unknown) => handle(graph, task, state, context, handler, failure));
}

function handle(
  graph: ExecutableGraph,
  task: Task,
  state: State,
  context: TaskContext,
  handler: NodeErrorHandler<never>,
  failure: unknown,
): State | Promise<State> {
  if (!(failure instanceof StepFailure) || !handlesFailure(failure, isAborted(context.superstepSignal))) throw failure;
  const { node } = task;
  const error = handlerError(node, failure, context.threadId !== undefined);
  let output: unknown;
  try {
    output = (handler as (state: unknown, failure: { node: string; error: unknown }) => unknown)(
      cloneState(task.sent ? (task.input as State) : state),
      { node, error },
    );
  } catch (thrown) {
    throw handlerFailed(node, thrown, failure);
  }
  if (!isThenable(output)) return accepted(graph, node, output);
  return Promise.resolve(output).then(
    (resolved) => accepted(graph, node, resolved),
    (thrown: unknown) => {
      throw handlerFailed(node, thrown, failure);
    },
  );
}

/** The handler's answer, checked as a node's update is (its Command's goto within the node's `ends`). */
function accepted(graph: ExecutableGraph, node: string, output: unknown): State {
  try {
    return markHandled(acceptUpdate(graph, node, output));
  } catch (refused) {
    if (!(refused instanceof StepFailure)) throw refused;
    // Said of the handler, not the node: the node's own failure is why the handler ran.
    throw new StepFailure(refused.code, `the error handler of ${refused.message}`, { cause: refused.cause });
  }
}

function handlerFailed(node: string, thrown: unknown, failure: StepFailure): StepFailure {
  return new StepFailure(
    "ERROR_HANDLER_FAILED",
    `the error handler of node ${quote(node)} threw: ${messageOf(thrown)} (it was handling: ${failure.message}). ` +
      "A handler's failure is never handled: catch inside the handler what it may meet.",
    { cause: thrown },
  );
}
