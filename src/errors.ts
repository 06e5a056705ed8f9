/**
 * Every error the library raises. Each has an explicit `name` (minifiers and bundlers keep it)
 * and a `code` a program can switch on.
 */

/** One problem found by `compile()`'s validation. */
export interface GraphProblem {
  readonly code: GraphProblemCode;
  /** The node (or `__start__`) the problem is about. */
  readonly node: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/** The codes a {@link GraphProblem} can carry. */
export type GraphProblemCode =
  | "MISSING_START_EDGE"
  | "UNKNOWN_NODE"
  | "INVALID_NODE_NAME"
  | "DUPLICATE_NODE"
  | "NO_OUTGOING_RULE"
  | "DUPLICATE_RULE"
  | "EMPTY_PATH_MAP"
  | "EMPTY_ROUTE_KEY"
  | "EMPTY_FAN_OUT"
  | "DUPLICATE_TARGET"
  | "INVALID_SPEC"
  | "UNKNOWN_REDUCER_FIELD"
  | "UNREACHABLE_NODE"
  | "NO_PATH_TO_END";

/**
 * `compile()` found problems in the graph's topology. `message` lists every problem;
 * `problems` holds each one with its own code.
 *
 * @example
 * ```ts
 * try { builder.compile(); } catch (error) {
 *   if (error instanceof GraphValidationError) console.log(error.problems.map((p) => p.code));
 * }
 * ```
 */
export class GraphValidationError extends Error {
  override readonly name = "GraphValidationError";
  readonly code = "GRAPH_VALIDATION" as const;
  readonly problems: readonly GraphProblem[];

  constructor(problems: readonly GraphProblem[]) {
    super(
      `StateGraph.compile: the graph has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
        problems.map((p) => `  - [${p.code}] ${p.message}`).join("\n"),
    );
    this.problems = problems;
  }
}

/** The codes a {@link GraphExecutionError} can carry. */
export type GraphExecutionCode =
  | "INVALID_INPUT"
  | "INVALID_UPDATE"
  | "NODE_FAILED"
  | "ROUTER_FAILED"
  | "UNKNOWN_ROUTE_KEY"
  | "REDUCER_FAILED"
  | "STEP_LIMIT"
  | "JOIN_INCOMPLETE"
  | "ABORTED";

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
export class GraphExecutionError extends Error {
  override readonly name: string = "GraphExecutionError";
  readonly code: GraphExecutionCode;
  readonly node: string;
  readonly state: Record<string, unknown>;
  readonly trace: readonly string[];
  /** Where it failed, through subgraphs, e.g. `["research", "web"]` for node "web" of the subgraph node "research". */
  readonly path: readonly string[];

  constructor(code: GraphExecutionCode, message: string, context: ExecutionContext) {
    super(message, "cause" in context ? { cause: context.cause } : undefined);
    this.code = code;
    this.node = context.node;
    this.state = context.state;
    this.trace = context.trace;
    this.path = context.path ?? [context.node];
  }
}

/**
 * A run reached `maxSteps`. `node` is the node the engine did not start.
 *
 * @example
 * ```ts
 * await graph.invoke(input, { maxSteps: 2 }).catch((e: GraphLimitError) => e.node); // "check_draft"
 * ```
 */
export class GraphLimitError extends GraphExecutionError {
  override readonly name = "GraphLimitError";
  constructor(message: string, context: ExecutionContext) {
    super("STEP_LIMIT", message, context);
  }
}

/**
 * A node returned something that is not a partial update (or named a field the graph does not declare).
 *
 * @example
 * ```ts
 * // a node that returns null, a string, an array or a class instance raises InvalidUpdateError
 * ```
 */
export class InvalidUpdateError extends GraphExecutionError {
  override readonly name = "InvalidUpdateError";
  constructor(message: string, context: ExecutionContext) {
    super("INVALID_UPDATE", message, context);
  }
}

/**
 * An option passed to an API is invalid (for example `maxSteps: 0`).
 *
 * @example
 * ```ts
 * await graph.invoke(input, { maxSteps: 0 }); // rejects with InvalidOptionError, code "INVALID_OPTION"
 * ```
 */
export class InvalidOptionError extends TypeError {
  override readonly name = "InvalidOptionError";
  readonly code = "INVALID_OPTION" as const;
}
