/**
 * The default `recursionLimit` of a graph whose every cycle crosses a bounded node: the most supersteps
 * its runs can take (validate/superstep-bound.ts), when that is above the usual default. The drivers ask
 * {@link graphLimits} instead of `resolveLimits`, so every engine stops a run at the same superstep.
 */
import type { GraphSpec } from "../../spec.js";
import { superstepBound } from "../../validate/superstep-bound.js";
import type { ExecutableGraph } from "../executable.js";
import { resolveLimits, type RunLimits } from "./limits.js";

/** The superstep bound of each spec, computed on a graph's first run (`null`: a cycle crosses no bound). */
const computed = new WeakMap<GraphSpec, number | null>();

/**
 * The most supersteps any run of the graph can take, or `undefined` when a cycle crosses no bounded node.
 * Computed once per spec.
 *
 * @example
 * ```ts
 * computedRecursionLimit(executableOf(reportGraph)); // undefined until its revise loop is bounded
 * ```
 */
export function computedRecursionLimit(graph: ExecutableGraph): number | undefined {
  const { spec } = graph;
  let bound = computed.get(spec);
  if (bound === undefined) {
    bound = superstepBound(spec) ?? null;
    computed.set(spec, bound);
  }
  return bound ?? undefined;
}

/**
 * The run's limits, checked and defaulted as `resolveLimits` does, except that a graph whose every
 * cycle is bounded gets its computed superstep bound as `recursionLimit` when that is larger than the
 * default. An explicit `recursionLimit` wins; the default never goes below 25 (LangGraph's), so edits
 * between runs (`updateState`, which counts a superstep) keep the room they had.
 *
 * @example
 * ```ts
 * graphLimits(executableOf(graph), {}, "invoke"); // { maxSteps: MAX_SAFE_INTEGER, recursionLimit: 61 } for a graph bounded to 61 supersteps
 * ```
 */
export function graphLimits(
  graph: ExecutableGraph,
  options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown } | null | undefined,
  api: string,
): RunLimits {
  const limits = resolveLimits(options, api);
  if (options?.recursionLimit !== undefined) return limits;
  const bound = computedRecursionLimit(graph);
  return bound === undefined || bound <= limits.recursionLimit ? limits : { ...limits, recursionLimit: bound };
}
