/**
 * The errors of the `typed-state-graph/langgraph` entry. Each has an explicit `name` and a `code`.
 * Errors of a run on LangGraph.js are the core's own (GraphExecutionError, GraphLimitError…), so
 * code that handles a mini-engine run handles a LangGraph run unchanged.
 */
import type { GraphExecutionCode } from "../errors.js";

/** The codes a {@link LangGraphInteropError} can carry. */
export type LangGraphInteropCode =
  /** The graph does not declare its fields, and LangGraph.js drops every key that has no channel. */
  | "LANGGRAPH_FIELDS_REQUIRED"
  /** A node name LangGraph.js refuses: the name of a state field, or one containing `|` or `:`. */
  | "LANGGRAPH_NODE_NAME"
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
export class LangGraphInteropError extends Error {
  override readonly name = "LangGraphInteropError";
  readonly code: LangGraphInteropCode;

  constructor(code: LangGraphInteropCode, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.code = code;
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
export class LangGraphNodeError extends Error {
  override readonly name = "LangGraphNodeError";
  readonly code: GraphExecutionCode;
  /** The node that failed (for a router failure, the node the router runs after, or `__start__`). */
  readonly node: string;

  constructor(code: GraphExecutionCode, node: string, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.code = code;
    this.node = node;
  }
}
