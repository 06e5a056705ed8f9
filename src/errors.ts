/**
 * Every error the library raises. Each has an explicit `name` (minifiers and bundlers keep it)
 * and a `code` a program can switch on; every one extends {@link GraphError}, so one `instanceof`
 * tells the library's errors from anything else. Each list of codes below is data, so the table in
 * docs/concepts.md is checked against it.
 */

/**
 * The base of every error the library raises: `code` names the fault (one code per fault), `message`
 * starts with the API that raised it and says how to fix it, `cause` keeps what was thrown inside.
 *
 * @example
 * ```ts
 * try { await graph.invoke(input); } catch (error) {
 *   if (error instanceof GraphError) console.log(error.code); // "NODE_FAILED", "INVALID_OPTION", …
 *   else throw error; // not ours
 * }
 * ```
 */
export class GraphError<C extends string = string> extends Error {
  override readonly name: string = "GraphError";
  readonly code: C;

  constructor(code: C, message: string, options?: { readonly cause?: unknown }) {
    super(message, options !== undefined && "cause" in options ? { cause: options.cause } : undefined);
    this.code = code;
  }
}

/** The codes of the problems `compile()`'s validation (and `bindSpec`'s) can report, one per fault. */
export const GRAPH_PROBLEM_CODES = [
  "MISSING_START_EDGE",
  "UNKNOWN_NODE",
  "INVALID_ENDPOINT",
  "INVALID_NODE_NAME",
  "DUPLICATE_NODE",
  "NO_OUTGOING_RULE",
  "DUPLICATE_RULE",
  "EMPTY_PATH_MAP",
  "EMPTY_ROUTE_KEY",
  "EMPTY_FAN_OUT",
  "DUPLICATE_TARGET",
  "INVALID_SPEC",
  "UNKNOWN_REDUCER_FIELD",
  "DUPLICATE_REDUCER",
  "MISSING_IMPLEMENTATION",
  "EXTRA_IMPLEMENTATION",
  "INVALID_POLICY",
  "INVALID_BOUND",
  "UNBOUNDED_CYCLE",
  "UNREACHABLE_NODE",
  "NO_PATH_TO_END",
  "INVALID_STATE_SCHEMA",
] as const;

/** One problem found by `compile()`'s validation. */
export interface GraphProblem {
  readonly code: GraphProblemCode;
  /** The node (or `__start__`) the problem is about. */
  readonly node: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/** The codes a {@link GraphProblem} can carry. */
export type GraphProblemCode = (typeof GRAPH_PROBLEM_CODES)[number];

/** The most problems a {@link GraphValidationError}'s message lists; `problems` holds every one. */
const LISTED_PROBLEMS = 50;
/** The most characters of one problem's message that the error's message repeats. */
const PROBLEM_MESSAGE_LENGTH = 600;

/**
 * `compile()` (or `bindSpec`, `compileGraph`) found problems in the graph. `message` lists them (the
 * first 50: a spec with thousands of problems still gives a readable message); `problems` holds each
 * one with its own code.
 *
 * @example
 * ```ts
 * try { builder.compile(); } catch (error) {
 *   if (error instanceof GraphValidationError) console.log(error.problems.map((p) => p.code));
 * }
 * ```
 */
export class GraphValidationError extends GraphError<"GRAPH_VALIDATION"> {
  override readonly name = "GraphValidationError";
  readonly problems: readonly GraphProblem[];

  /** `api` is the entry point that validated, named once at the start of the message. */
  constructor(problems: readonly GraphProblem[], api = "StateGraph.compile") {
    super("GRAPH_VALIDATION", validationMessage(api, problems));
    this.problems = problems;
  }
}

function validationMessage(api: string, problems: readonly GraphProblem[]): string {
  const count = problems.length;
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `  - [${p.code}] ${clipProblem(p.message)}`);
  const rest = count - listed.length;
  if (rest > 0) listed.push(`  … and ${rest.toLocaleString("en-US")} more (error.problems lists every one).`);
  return `${api}: the graph has ${count.toLocaleString("en-US")} problem${count === 1 ? "" : "s"}:\n${listed.join("\n")}`;
}

function clipProblem(message: string): string {
  return message.length <= PROBLEM_MESSAGE_LENGTH ? message : `${message.slice(0, PROBLEM_MESSAGE_LENGTH)}…`;
}

/** The codes of a run that failed ({@link GraphExecutionError} itself; its subclasses have their own). */
export const RUN_FAILURE_CODES = [
  "INVALID_INPUT",
  "INVALID_STATE",
  "NODE_FAILED",
  "ROUTER_FAILED",
  "UNKNOWN_ROUTE_KEY",
  "UNDECLARED_GOTO",
  "REDUCER_FAILED",
  "JOIN_INCOMPLETE",
  "ABORTED",
  "NODE_TIMEOUT",
  // A node's error handler threw while it handled the node's failure (handler failures are never handled).
  "ERROR_HANDLER_FAILED",
  // A node returned a Command for the parent graph (Command.PARENT) in a graph run on its own.
  "NO_PARENT_GRAPH",
  // LangGraph.js itself failed (its checkpointer, its own checks), not a node, router or reducer: runOnLangGraph only.
  "LANGGRAPH_FAILED",
] as const;
/** The codes of an {@link InvalidUpdateError}. */
export const INVALID_UPDATE_CODES = [
  "INVALID_UPDATE",
  "UNDECLARED_FIELD",
  "RESERVED_FIELD",
  "UNCOPYABLE_UPDATE",
  "RESUME_IN_NODE",
  "CONCURRENT_WRITE",
  "AMBIGUOUS_UPDATE",
  "INVALID_FIELD",
] as const;
/** The codes of a {@link GraphLimitError}: a run limit (`maxSteps`, `recursionLimit`) or a node's loop bound. */
export const LIMIT_CODES = ["STEP_LIMIT", "LOOP_BOUND"] as const;
/** The codes a {@link GraphLimitError} can carry. */
export type LimitCode = (typeof LIMIT_CODES)[number];

/**
 * The codes an {@link InvalidUpdateError} can carry, one per fault: an update that is not a plain object
 * (`INVALID_UPDATE`), names a field the graph does not declare (`UNDECLARED_FIELD`), a node's plain
 * update with the reserved goto field (`RESERVED_FIELD`), a value the run cannot copy
 * (`UNCOPYABLE_UPDATE`), a node's Command with `resume` (`RESUME_IN_NODE`), two nodes writing one field
 * (`CONCURRENT_WRITE`), an `updateState` without `asNode` after a parallel superstep (`AMBIGUOUS_UPDATE`),
 * a field's value its field schema refuses (`INVALID_FIELD`, `fieldSchemas`).
 */
export type InvalidUpdateCode = (typeof INVALID_UPDATE_CODES)[number];
/** The codes a {@link GraphExecutionError} can carry (its subclasses' included). */
export type GraphExecutionCode = (typeof RUN_FAILURE_CODES)[number] | InvalidUpdateCode | LimitCode;

/** What a run had achieved when it failed. */
export interface ExecutionContext {
  /** The node that failed, or the node the engine did not start. */
  readonly node: string;
  /** The last successfully merged state (a detached copy). */
  readonly state: Record<string, unknown>;
  /** The nodes that completed, in order. */
  readonly trace: readonly string[];
  readonly cause?: unknown;
  /** Where it failed, through subgraphs: `["parent", "child"]`. Default: `[node]`. */
  readonly path?: readonly string[];
  /** Every attempt's error, when a retry policy ran the node several times. */
  readonly attempts?: readonly unknown[];
  /** The updates of the failed superstep's nodes that succeeded, in declaration order: never committed. */
  readonly pendingWrites?: readonly PendingWrite[];
}

/** A node of a failed superstep that succeeded, and the update it returned (kept, not committed). */
export interface PendingWrite {
  readonly node: string;
  readonly update: Record<string, unknown>;
}

/**
 * A run failed. The error keeps the last good state and the trace, so nothing committed is lost.
 *
 * @example
 * ```ts
 * try { await graph.invoke(input); } catch (error) {
 *   if (error instanceof GraphExecutionError) console.log(error.node, error.trace, error.state);
 * }
 * ```
 */
export class GraphExecutionError extends GraphError<GraphExecutionCode> {
  override readonly name: string = "GraphExecutionError";
  readonly node: string;
  /**
   * The last merged state (a detached copy). Like `attempts` and `pendingWrites`, not enumerable: a
   * printed error (`console.error`, an uncaught rejection) shows its message, code and node, not a
   * state of thousands of values.
   */
  declare readonly state: Record<string, unknown>;
  readonly trace: readonly string[];
  /** Where it failed, through subgraphs, e.g. `["research", "web"]` for node "web" of the subgraph node "research". */
  readonly path: readonly string[];
  /** Every attempt's error, in order, when a retry policy ran the node several times; else empty. */
  declare readonly attempts: readonly unknown[];
  /**
   * When a node of a parallel superstep failed: the updates of its siblings that succeeded before the
   * failure, in declaration order. Nothing of the superstep was committed; a threaded run keeps them in
   * its checkpoint.
   */
  declare readonly pendingWrites: readonly PendingWrite[];

  constructor(code: GraphExecutionCode, message: string, context: ExecutionContext) {
    super(code, message, "cause" in context ? { cause: context.cause } : undefined);
    this.node = context.node;
    this.trace = context.trace;
    this.path = context.path ?? [context.node];
    Object.defineProperties(this, {
      state: { value: context.state, enumerable: false },
      attempts: { value: context.attempts ?? [], enumerable: false },
      pendingWrites: { value: context.pendingWrites ?? [], enumerable: false },
    });
  }
}

/**
 * A run reached a bound: `maxSteps` or `recursionLimit` (`STEP_LIMIT`), or a node's own loop bound
 * declared with `{ bound: { max } }` and no `exit` (`LOOP_BOUND`). `node` is the node the engine did not start.
 *
 * @example
 * ```ts
 * await graph.invoke(input, { maxSteps: 2 }).catch((e: GraphLimitError) => e.node); // "check_draft"
 * ```
 */
export class GraphLimitError extends GraphExecutionError {
  override readonly name = "GraphLimitError";
  declare readonly code: LimitCode;
  constructor(message: string, context: ExecutionContext, code: LimitCode = "STEP_LIMIT") {
    super(code, message, context);
  }
}

/**
 * A node's update cannot be merged: it is not a plain object (`INVALID_UPDATE`), names a field the
 * graph does not declare (`UNDECLARED_FIELD`), holds a value that cannot be copied
 * (`UNCOPYABLE_UPDATE`), or two nodes of one superstep wrote a field that has no reducer
 * (`CONCURRENT_WRITE`); {@link InvalidUpdateCode} lists every one.
 *
 * @example
 * ```ts
 * // a node that returns null, a string, an array or a class instance raises InvalidUpdateError
 * await graph.invoke(input).catch((e: InvalidUpdateError) => e.code); // "INVALID_UPDATE"
 * ```
 */
export class InvalidUpdateError extends GraphExecutionError {
  override readonly name = "InvalidUpdateError";
  declare readonly code: InvalidUpdateCode;
  constructor(message: string, context: ExecutionContext, code: InvalidUpdateCode = "INVALID_UPDATE") {
    super(code, message, context);
  }
}

/** The codes of an {@link InvalidOptionError}: a bad field of an options object, or a bad argument of a call. */
export const INVALID_OPTION_CODES = ["INVALID_OPTION", "INVALID_ARGUMENT"] as const;
/** The codes an {@link InvalidOptionError} can carry. */
export type InvalidOptionCode = (typeof INVALID_OPTION_CODES)[number];

/**
 * An API was called wrongly: an option is invalid (`INVALID_OPTION`, for example `maxSteps: 0`), or an
 * argument is (`INVALID_ARGUMENT`, for example `addNode("a", "not a function")`). Not a `TypeError`
 * (it was before 0.2): test `instanceof InvalidOptionError` or `instanceof GraphError`.
 *
 * @example
 * ```ts
 * await graph.invoke(input, { maxSteps: 0 }); // rejects with InvalidOptionError, code "INVALID_OPTION"
 * ```
 */
export class InvalidOptionError extends GraphError<InvalidOptionCode> {
  override readonly name = "InvalidOptionError";

  constructor(message: string, options: { readonly code?: InvalidOptionCode; readonly cause?: unknown } = {}) {
    super(options.code ?? "INVALID_OPTION", message, "cause" in options ? { cause: options.cause } : undefined);
  }
}

/** An {@link InvalidOptionError} for a bad argument (`INVALID_ARGUMENT`): what builder calls throw. @internal */
export function invalidArgument(message: string, cause?: { readonly cause: unknown }): InvalidOptionError {
  return new InvalidOptionError(message, { code: "INVALID_ARGUMENT", ...cause });
}
