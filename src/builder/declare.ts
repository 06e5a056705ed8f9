/**
 * `stateGraph<S>()(options)`: how a graph with reducers is declared. The state is given to the first
 * call and the options to the second, so the compiler infers which fields have a reducer (a call given
 * some type arguments infers none) and the parallel-write check runs without a second type argument.
 */
import { createStateGraph } from "./state-graph.js";
import type { StateGraphFactory } from "./types.js";

/**
 * Declares a state graph of state `S`: `stateGraph<S>()({ reducers, fields, orderedMerge })` returns
 * the same typed builder as `new StateGraph<S>()`, knowing which fields have a reducer. Two nodes that
 * one superstep runs together and that both surely write a field without a reducer are then a compile
 * error at the edge or route that starts them (with `new StateGraph<S>({ reducers })` the compiler
 * cannot learn the reducers' fields, and leaves that to the run-time check).
 *
 * @example
 * ```ts
 * interface Brief { topic: string; events: string[] }
 * const graph = stateGraph<Brief>()({ reducers: { events: append } })
 *   .addNode("draft", (s) => ({ events: [`drafted ${s.topic}`] }))
 *   .addEdge(START, "draft")
 *   .addEdge("draft", END)
 *   .compile();
 * ```
 */
export function stateGraph<S extends object>(): StateGraphFactory<S> {
  // The loose runtime builder gets its typed surface here, as `StateGraph` gets it from its constructor type.
  return ((options: unknown = {}) => createStateGraph(options, "stateGraph")) as StateGraphFactory<S>;
}
