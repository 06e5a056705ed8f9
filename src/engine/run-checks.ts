/**
 * The checks before a run and the errors after a failure, shared by every runner (the mini engine, the
 * XState and LangGraph runners) so the same input, option or failure gives the same error everywhere.
 */
import {
  GraphError,
  GraphExecutionError,
  GraphLimitError,
  INVALID_UPDATE_CODES,
  InvalidOptionError,
  InvalidUpdateError,
  type ExecutionContext,
  type GraphExecutionCode,
  type InvalidUpdateCode,
} from "../errors.js";
import { START } from "../spec.js";
import { findCopyProblem, isPlainObject } from "./clone.js";
import { Command } from "./command.js";
import type { ExecutableGraph } from "./executable.js";
import { checkJson } from "./json-check.js";
import { quote, quoteList } from "../_describe.js";
import { InterruptError } from "./interrupt-scope.js";
import { describeValue, detach, messageOf, StepFailure, type State } from "./step.js";
import { checkState, checkUpdate } from "./kernel/state-check.js";
import { resolveConcurrency, resolveLimits, type RunLimits } from "./kernel/limits.js";
import { graphLimits } from "./kernel/recursion-limit.js";

/** Why `input` cannot start a run of `graph` (code `INVALID_INPUT`), or `undefined` when it can. */
export function inputFailure(graph: ExecutableGraph, input: unknown): StepFailure | undefined {
  try {
    return shapeFailure(graph, input);
  } catch (error) {
    return unreadableFailure([["input", input]], error) ?? failureOf(error);
  }
}

function failureOf(error: unknown): StepFailure {
  return new StepFailure("INVALID_INPUT", `the input cannot be inspected: ${messageOf(error)}`, { cause: error });
}

/**
 * The `INVALID_INPUT` failure for a caller's value that threw when it was read (a revoked Proxy, a
 * Proxy whose trap throws, a throwing getter), naming where; `undefined` when every value reads
 * cleanly, so `error` came from somewhere else. Called after a raw error, never on the happy path.
 */
export function unreadableFailure(values: readonly (readonly [root: string, value: unknown])[], error: unknown): StepFailure | undefined {
  for (const [root, value] of values) {
    const problem = findCopyProblem(value, root);
    if (problem?.kind === "unreadable")
      return new StepFailure("INVALID_INPUT", `${problem.path} ${problem.reason}; pass plain data.`, { cause: error });
  }
  return undefined;
}

/**
 * What a threaded entry point (`invoke`, `stream`, `updateState`) throws for `error`: an `INVALID_INPUT`
 * `GraphExecutionError` when `value` (a `Command`'s update and resume answer) cannot be read (see
 * {@link unreadableFailure}), else `error`.
 */
export function unreadableInput(api: string, root: string, value: unknown, error: unknown): unknown {
  if (error instanceof GraphError) return error;
  const failure = unreadableFailure(enteredValues(root, value), error);
  return failure === undefined ? error : executionError(api, failure, { node: START, state: {}, trace: [] });
}

/** The values a caller handed in: a Command's update and resume answer, or the value itself. */
function enteredValues(root: string, value: unknown): readonly (readonly [string, unknown])[] {
  try {
    if (value instanceof Command)
      return [
        ["update", value.update],
        ["resume", value.resume],
      ];
  } catch {
    // `instanceof` reads the prototype: a value that throws there is walked (and reported) whole.
  }
  return [[root, value]];
}

function shapeFailure(graph: ExecutableGraph, input: unknown): StepFailure | undefined {
  if (!isPlainObject(input))
    return new StepFailure("INVALID_INPUT", `the input state must be a plain object; got ${describeValue(input)}.`);
  // The copy drops symbol keys; refusing them here says so, where a silent drop would not.
  if (Object.getOwnPropertySymbols(input).length > 0)
    return new StepFailure("INVALID_INPUT", `the input has symbol keys, which the state cannot keep. Use string keys.`);
  const undeclared = graph.fields ? Object.keys(input).filter((key) => !graph.fields?.has(key)) : [];
  if (undeclared.length === 0) return undefined;
  return new StepFailure(
    "INVALID_INPUT",
    `the input has fields the graph does not declare: ${quoteList(undeclared)}. Add them to \`fields\` or remove them.`,
  );
}

/** The run's own copy of a checked input; throws a `StepFailure` (`INVALID_INPUT`) naming what cannot be copied. */
export function detachInput(input: unknown): State {
  return detach(input as State, "input", "INVALID_INPUT", "the input cannot be used:");
}

/**
 * The state a new run starts from: its own copy of a checked input, each field with a field schema
 * validated by it, then the whole validated by the state schema when the graph has one (the schema's
 * output: its defaults filled in). Throws a `StepFailure` (`INVALID_INPUT`).
 */
export function startingState(graph: Pick<ExecutableGraph, "stateCheck" | "fieldChecks">, input: unknown): State {
  let state = detachInput(input);
  if (graph.fieldChecks !== undefined) {
    // Each field the input sets is START's write of it: its field schema checks it, as a node's update.
    const fields = checkUpdate(graph.fieldChecks, state, START);
    if (!fields.ok) throw fields.failure;
    state = fields.update;
  }
  if (graph.stateCheck === undefined) return state;
  const checked = checkState(graph.stateCheck, state, [START]);
  if (!checked.ok) throw checked.failure;
  return checked.state;
}

/**
 * The state a driver's run starts from, or the error every engine throws for `input`: the input's
 * shape (`inputFailure`), then its own copy checked by the state schema (`startingState`), each failure
 * an `INVALID_INPUT` `GraphExecutionError` at `START` that names `api`. With `stored` (the input is
 * kept as JSON, as a durable workflow keeps it), a `NotSerializableError` first for what JSON cannot
 * keep. One call, so no driver words or orders these checks itself.
 *
 * @example
 * ```ts
 * const state = checkedStart(executableOf(graph), input, "invoke"); // throws INVALID_INPUT for { undeclared: 1 }
 * ```
 */
export function checkedStart(graph: ExecutableGraph, input: unknown, api: string, stored = false): State {
  // A run whose input is stored (a durable workflow) refuses what JSON cannot keep first, as a threaded invoke does.
  if (stored) checkJson(input, "input", api);
  const context: ExecutionContext = { node: START, state: {}, trace: [] };
  const failure = inputFailure(graph, input);
  if (failure !== undefined) throw executionError(api, failure, context);
  try {
    return startingState(graph, input);
  } catch (error) {
    throw executionError(api, error, context);
  }
}

/** A run's options as {@link runOptionsOf} checked them. */
export interface CheckedRunOptions {
  readonly limits: RunLimits;
  readonly signal: AbortSignal | undefined;
  /** `undefined` when the caller set no bound. */
  readonly maxConcurrency: number | undefined;
}

/**
 * The run options every engine reads, checked and defaulted as the mini engine does: the limits
 * (`resolveLimits`), the signal and `maxConcurrency`; an `InvalidOptionError` naming `api` otherwise.
 *
 * @example
 * ```ts
 * runOptionsOf({ maxSteps: 30 }, "invoke").limits; // { maxSteps: 30, recursionLimit: 30 }
 * ```
 *
 * With `graph`, the default `recursionLimit` is the graph's computed one (`graphLimits`: the most
 * supersteps a run can take when every cycle is bounded), so every engine stops at the same superstep.
 */
export function runOptionsOf(
  options:
    | { readonly maxSteps?: unknown; readonly recursionLimit?: unknown; readonly maxConcurrency?: unknown; readonly signal?: unknown }
    | undefined,
  api: string,
  graph?: ExecutableGraph,
): CheckedRunOptions {
  // In the mini engine's order (the limits, the signal, maxConcurrency): the same options fail with the same error everywhere.
  const limits = graph === undefined ? resolveLimits(options, api) : graphLimits(graph, options, api);
  const signal = checkSignal(options?.signal, api);
  const maxConcurrency = options?.maxConcurrency === undefined ? undefined : resolveConcurrency(options.maxConcurrency, api);
  return { limits, signal, maxConcurrency };
}

/** The signal, or an `InvalidOptionError` for anything but an AbortSignal. */
export function checkSignal(value: unknown, api = "invoke"): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidOptionError(`${api}: signal must be an AbortSignal; got ${describeValue(value)}.`);
}

/**
 * The `GraphExecutionError` for a failure at `context.node`: a `StepFailure` keeps its code; a failure
 * inside a subgraph node keeps its inner path (`parent/child`), its code and its class (a child's step
 * limit is a `GraphLimitError` of the parent too); anything else is `NODE_FAILED`.
 * `context.state` must already be a detached copy.
 */
export function executionError(api: string, error: unknown, context: ExecutionContext): GraphExecutionError {
  if (error instanceof GraphExecutionError) return error;
  if (!(error instanceof StepFailure))
    return new GraphExecutionError("NODE_FAILED", `${api}: ${messageOf(error)}`, { ...context, cause: error });
  const child = error.cause instanceof GraphExecutionError ? error.cause : undefined;
  const inner = child?.path ?? [];
  const detached: ExecutionContext = {
    ...context,
    ...("cause" in error ? { cause: error.cause } : {}),
    ...(error.attempts === undefined ? {} : { attempts: error.attempts }),
    path: [context.node, ...inner],
  };
  const message = child
    ? `${api}: node "${[context.node, ...inner].join("/")}" failed: ${innerMessage(child)}`
    : `${api}: ${error.message}`;
  return errorOfCode(child?.code ?? error.code, message, detached);
}

/**
 * A node that called `interrupt()` in a run that cannot pause: the run rejects with the
 * `InterruptError` itself (`INTERRUPT_OUTSIDE_THREAD`, its whole sentence, the node named), not a
 * `NODE_FAILED` that keeps the real code on `cause` and clips its message.
 */
export function interruptOutsideThread(api: string, node: string, error: unknown): InterruptError | undefined {
  const cause = error instanceof StepFailure && error.code === "NODE_FAILED" ? error.cause : undefined;
  if (!(cause instanceof InterruptError) || cause.code !== "INTERRUPT_OUTSIDE_THREAD") return undefined;
  const sentence = cause.message.replace(/^[\w.]+: called /, "");
  return new InterruptError("INTERRUPT_OUTSIDE_THREAD", `${api}: node ${quote(node)} called interrupt() ${sentence}`, { cause });
}

/**
 * The error class a run failure's code belongs to, with that code: `STEP_LIMIT` and `LOOP_BOUND` a `GraphLimitError`,
 * the `INVALID_UPDATE_CODES` an `InvalidUpdateError`, any other a `GraphExecutionError`. The one
 * mapping: a failure recorded as data (a DBOS outcome) comes back through it as the same class.
 *
 * @example
 * ```ts
 * errorOfCode("CONCURRENT_WRITE", "invoke: …", context) instanceof InvalidUpdateError; // true
 * ```
 */
export function errorOfCode(code: GraphExecutionCode, message: string, context: ExecutionContext): GraphExecutionError {
  if (code === "STEP_LIMIT" || code === "LOOP_BOUND") return new GraphLimitError(message, context, code);
  if (isInvalidUpdateCode(code)) return new InvalidUpdateError(message, context, code);
  return new GraphExecutionError(code, message, context);
}

function isInvalidUpdateCode(code: string): code is InvalidUpdateCode {
  return (INVALID_UPDATE_CODES as readonly string[]).includes(code);
}

function innerMessage(cause: unknown): string {
  return cause instanceof Error ? messageOf(cause).replace(/^[\w.]+: /, "") : messageOf(cause);
}
