/**
 * `stateGraph<S>()(options)`: how a graph with reducers is declared. The state is given to the first
 * call and the options to the second, so the compiler infers which fields have a reducer (a call given
 * some type arguments infers none) and the parallel-write check runs without a second type argument.
 */
import { createStateGraph } from "./state-graph.js";
import type { StateGraphFactory } from "./types.js";
import type { InputOf, StateOf, StateSchema } from "../engine/index.js";

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
export function stateGraph<S extends object>(): StateGraphFactory<S>;
/**
 * Declares a state graph whose state is given by a Standard Schema (a zod 4, valibot or arktype object
 * schema): the nodes read the schema's output type, `invoke` takes its input type, and the reducers are
 * declared beside it, `stateGraph(schema)({ reducers })`. Every state that enters the run (the input,
 * each superstep's merged state, a `Command` update, an `updateState` edit) is validated by the schema
 * before it is committed: `INVALID_INPUT` for an input, `INVALID_STATE` for a merged state.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Brief = z.object({ topic: z.string(), events: z.array(z.string()).default([]) });
 * const graph = stateGraph(Brief)({ reducers: { events: append } })
 *   .addNode("draft", (s) => ({ events: [`drafted ${s.topic}`] }))
 *   .addEdge(START, "draft")
 *   .addEdge("draft", END)
 *   .compile();
 * await graph.invoke({ topic: "tides" }); // events defaults to []
 * ```
 */
export function stateGraph<const Schema extends StateSchema>(schema: Schema): StateGraphFactory<StateOf<Schema>, InputOf<Schema>>;
export function stateGraph(...schema: [] | [unknown]): StateGraphFactory<Record<string, unknown>> {
  // The loose runtime builder gets its typed surface here, as `StateGraph` gets it from its constructor type.
  const stateSchema = schema.length === 0 ? undefined : schema[0];
  return ((options: unknown = {}) => createStateGraph(options, "stateGraph", stateSchema)) as StateGraphFactory<Record<string, unknown>>;
}
