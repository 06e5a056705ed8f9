/**
 * `typed-state-graph/langgraph`: export a typed graph to LangGraph.js and run it there.
 * `@langchain/langgraph` is an optional peer dependency, loaded on first use.
 *
 * @module typed-state-graph/langgraph
 */

export { toLangGraph } from "./to-langgraph.js";
export type { ToLangGraphOptions } from "./to-langgraph.js";
export type { LangGraphGraph, LangGraphChannels, LangGraphRunOptions } from "./_types.js";
export { runOnLangGraph, streamOnLangGraph, langGraphRecursionLimit } from "./run.js";
export type { LangGraphThreadOptions, LangGraphThreadResult } from "./run.js";
export { LangGraphInteropError, LangGraphNodeError } from "./errors.js";
export type { LangGraphInteropCode } from "./errors.js";
