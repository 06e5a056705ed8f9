/**
 * The kernel's rule for a node's error handler (LangGraph.js 1.7.3's `errorHandler`): which failures a
 * handler takes instead of the run failing, what it is told, and what follows a handled task. The
 * driver runs the handler (user code, `error-handler.ts`); these functions only decide.
 *
 * A handled task's update travels with a reserved key, {@link HANDLED}, as a Command's goto does (see
 * `command-goto.ts`): so a thread's pending write, a cached update and a DBOS step record keep it, and a
 * resumed run routes exactly as the interrupted one would have.
 */
import { HANDLED } from "../command-goto.js";
import { NodePaused } from "../node-paused.js";
import { NEVER_RETRIED_CODES } from "./retry.js";
import { StepFailure, type State, type Successors } from "../step.js";

/**
 * The codes of a task's own failure, the ones a handler takes: its node threw or timed out, or returned
 * an update it may not. A thread records the same ones as the task's `error` (`getState().tasks[i].error`).
 */
export const TASK_FAILURE_CODES: ReadonlySet<string> = new Set([
  "NODE_FAILED",
  "NODE_TIMEOUT",
  "UNDECLARED_FIELD",
  "RESERVED_FIELD",
  "UNCOPYABLE_UPDATE",
  "UNDECLARED_GOTO",
]);

/**
 * A node's failure as a handler reads it on a thread: plain JSON, so a resumed run (in another process,
 * from the checkpoint) hands the handler the same value the first run did. `code` says which fault
 * (`NODE_FAILED`: the node threw, and `name`/`message` are what it threw).
 *
 * @example
 * ```ts
 * const failure: NodeErrorJson = { node: "fetch", code: "NODE_FAILED", name: "Error", message: "503" };
 * ```
 */
export interface NodeErrorJson {
  readonly node: string;
  readonly code: string;
  readonly name: string;
  readonly message: string;
}

/**
 * Whether an error handler takes `failure` (what the node's last attempt failed with, after its
 * retries): a task's own failure ({@link TASK_FAILURE_CODES}), unless the node paused at an interrupt
 * (a pause is no failure), it threw one of the {@link NEVER_RETRIED_CODES} (a usage error), or the superstep was `cancelled` (the run aborted, or a sibling's failure
 * cancelled it: the run fails anyway, and a handler would only run user code in vain).
 *
 * @example
 * ```ts
 * handlesFailure(new StepFailure("NODE_FAILED", "node \"a\" threw: 503", { cause: new Error("503") }), false); // true
 * handlesFailure(new StepFailure("ABORTED", "aborted"), false); // false
 * ```
 */
export function handlesFailure(failure: unknown, cancelled: boolean): boolean {
  if (cancelled || !(failure instanceof StepFailure) || !TASK_FAILURE_CODES.has(failure.code)) return false;
  if (failure.code !== "NODE_FAILED") return true;
  const { cause } = failure;
  if (cause instanceof NodePaused) return false;
  // The run's own refusal or a usage error thrown inside the node (interrupt() off a thread, a child's
  // limit): never retried, and never handled either; it says what to fix, not what went wrong.
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return !(typeof code === "string" && NEVER_HANDLED.has(code));
}

const NEVER_HANDLED: ReadonlySet<string> = new Set(NEVER_RETRIED_CODES);

/**
 * What the handler of `node` is told of `failure`: off a thread, what the node threw (the failure
 * itself, an Error with a `code`, when the run detected it: a timeout, a bad update); on a thread,
 * {@link NodeErrorJson}.
 *
 * @example
 * ```ts
 * handlerError("fetch", failure, true); // { node: "fetch", code: "NODE_FAILED", name: "Error", message: "503" }
 * ```
 */
export function handlerError(node: string, failure: StepFailure, onThread: boolean): unknown {
  const thrown = failure.code === "NODE_FAILED" ? failure.cause : failure;
  if (!onThread) return thrown;
  const { name, message } = thrown instanceof Error ? thrown : { name: "Error", message: String(thrown) };
  return { node, code: failure.code, name: thrown === failure ? "GraphExecutionError" : name, message };
}

/** A handler's update, marked as such (`update` is already the engine's own copy). */
export function markHandled(update: State): State {
  update[HANDLED] = true;
  return update;
}

/** What a handled task leads to by its node's rule: nothing (its edge, route or join does not apply). */
const NO_SUCCESSORS: Successors = Object.freeze({ tasks: Object.freeze([]), routes: Object.freeze([]), list: false });

/**
 * What follows a task whose node failed and whose handler answered, as LangGraph.js runs it: only the
 * handler's `Command` goto (the node's edge, route or join does not apply, and its router does not run,
 * since the node never finished). `undefined` for any other task: its node's rule applies.
 *
 * @example
 * ```ts
 * handledSuccessors({ note: "recovered", __handled__: true }); // { tasks: [], routes: [], list: false }
 * handledSuccessors({ note: "ok" }); // undefined
 * ```
 */
export function handledSuccessors(update: State | undefined): Successors | undefined {
  return update !== undefined && Object.hasOwn(update, HANDLED) ? NO_SUCCESSORS : undefined;
}
