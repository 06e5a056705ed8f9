/**
 * The checks a run's input and step limit pass before the first node, worded as the mini engine words
 * them, so that both engines reject the same input with the same code.
 */
import type { ExecutableGraph } from "../engine/_kernel.js";
import { graphLimits, type RunLimits } from "../engine/_kernel.js";
import { checkSignal, executionError, inputFailure, startingState } from "../engine/_kernel.js";
import type { State } from "../engine/_kernel.js";
import { START } from "../spec.js";

/** Returns a detached copy of a valid input (the state schema's output, with one), or throws the mini engine's `INVALID_INPUT` error. */
export function checkedInput(graph: ExecutableGraph, input: unknown, api: string): State {
  const failure = inputFailure(graph, input);
  const context = { node: START, state: {}, trace: [] };
  if (failure !== undefined) throw executionError(api, failure, context);
  try {
    return startingState(graph, input);
  } catch (error) {
    throw executionError(api, error, context);
  }
}

/** The two bounds of a run, checked and defaulted as the mini engine does. */
export type Limits = RunLimits;

/**
 * Returns the run's bounds, or throws `InvalidOptionError` for anything but positive integers. The
 * default `recursionLimit` is the mini engine's: the graph's computed superstep bound when every cycle
 * is bounded and that is above 25.
 */
export function checkedLimits(
  graph: ExecutableGraph,
  options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown },
  api: string,
): Limits {
  return graphLimits(graph, options, api);
}

/** Returns the signal, or throws `InvalidOptionError` for anything but an AbortSignal. */
export function checkedSignal(value: unknown, api: string): AbortSignal | undefined {
  return checkSignal(value, api);
}
