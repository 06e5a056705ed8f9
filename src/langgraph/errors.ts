/**
 * The errors of the `typed-state-graph/langgraph` entry. Each has an explicit `name` and a `code`.
 * Errors of a run on LangGraph.js are the core's own (GraphExecutionError, GraphLimitError…), so
 * code that handles a mini-engine run handles a LangGraph run unchanged.
 */
import { GraphError, type GraphExecutionCode } from "../errors.js";

// A record, not a list, so that a code missing here (or one too many) fails to compile.
/** The codes a {@link LangGraphInteropError} can carry, as data (docs/concepts.md's table is checked against it). */
export const LANGGRAPH_INTEROP_CODES = Object.keys({
  LANGGRAPH_FIELDS_REQUIRED: true,
  LANGGRAPH_FIELD_NAME: true,
  LANGGRAPH_NODE_NAME: true,
  LANGGRAPH_CHECKPOINTER_REQUIRED: true,
  LANGGRAPH_COMMAND_GOTO: true,
  LANGGRAPH_LOOP_BOUND: true,
  LANGGRAPH_ERROR_HANDLER: true,
  LANGGRAPH_NOT_INSTALLED: true,
  LANGGRAPH_LOAD_FAILED: true,
} satisfies Record<LangGraphInteropCode, true>) as readonly LangGraphInteropCode[];

/** The codes a {@link LangGraphInteropError} can carry. */
export type LangGraphInteropCode =
  /** The graph does not declare its fields, and LangGraph.js drops every key that has no channel. */
  | "LANGGRAPH_FIELDS_REQUIRED"
  /** A state field LangGraph.js cannot hold as a channel: one named after an `Object.prototype` member (`toString`, `constructor`, …). */
  | "LANGGRAPH_FIELD_NAME"
  /** A node name LangGraph.js refuses: the name of a state field, or one containing `|` or `:`. */
  | "LANGGRAPH_NODE_NAME"
  /** A graph compiled with `interruptBefore`/`interruptAfter` exported without LangGraph's checkpointer, which it needs to pause. */
  | "LANGGRAPH_CHECKPOINTER_REQUIRED"
  /**
   * A `Command({ goto })` resuming a thread with pending tasks: LangGraph.js runs the `goto` nodes beside
   * the pending ones, where the mini engine runs them instead.
   */
  | "LANGGRAPH_COMMAND_GOTO"
  /**
   * A graph with error handlers (`addNode(…, { errorHandler })`, `compile({ errorHandler })`): not exported
   * yet. LangGraph.js 1.7.3 has its own `errorHandler`, with the same rule; the mapping is to come.
   */
  | "LANGGRAPH_ERROR_HANDLER"
  /**
   * A node's loop bound LangGraph.js cannot keep: it schedules the next nodes itself and counts no
   * visits, so a bound with an `exit` is refused, and `toLangGraph` refuses every bound (runOnLangGraph
   * enforces a bound without an exit, since the kernel admits each superstep there).
   */
  | "LANGGRAPH_LOOP_BOUND"
  /** `@langchain/langgraph` (or one of its peers) is not installed. */
  | "LANGGRAPH_NOT_INSTALLED"
  /** `@langchain/langgraph` is installed but failed to load. */
  | "LANGGRAPH_LOAD_FAILED";

/**
 * A graph cannot be exported to LangGraph.js, or LangGraph.js cannot be loaded. Never replaced by a
 * silent fallback: nothing runs on the mini engine under LangGraph's name.
 *
 * @example
 * ```ts
 * try { await toLangGraph(graph); } catch (error) {
 *   if (error instanceof LangGraphInteropError && error.code === "LANGGRAPH_FIELDS_REQUIRED") console.log(error.message);
 * }
 * ```
 */
export class LangGraphInteropError extends GraphError<LangGraphInteropCode> {
  override readonly name = "LangGraphInteropError";

  constructor(code: LangGraphInteropCode, message: string, options?: { cause: unknown }) {
    super(code, message, options);
  }
}

/**
 * A node (or the router after it) failed inside a LangGraph.js run. `code` is the one the mini
 * engine would report; `runOnLangGraph` turns this into the core's GraphExecutionError.
 *
 * @example
 * ```ts
 * await lgGraph.invoke(input).catch((e) => e instanceof LangGraphNodeError && e.code); // "INVALID_UPDATE"
 * ```
 */
export class LangGraphNodeError extends GraphError<GraphExecutionCode> {
  override readonly name = "LangGraphNodeError";
  /** The node that failed (for a router failure, the node the router runs after, or `__start__`). */
  readonly node: string;

  constructor(code: GraphExecutionCode, node: string, message: string, options?: { cause: unknown }) {
    super(code, message, options);
    this.node = node;
  }
}
