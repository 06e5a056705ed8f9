/**
 * Run limits, shared by every runner (the mini engine, the XState and LangGraph runners) so their
 * defaults, validation and messages cannot drift apart.
 */
import { InvalidOptionError } from "../errors.js";
import { describeValue } from "./step.js";

/** The default bound on node executions per run (LangGraph's default recursion limit). */
export const DEFAULT_MAX_STEPS = 25;
/** The default bound on supersteps per run, as in LangGraph. */
export const DEFAULT_RECURSION_LIMIT = 25;

/** The two bounds of a run. */
export interface RunLimits {
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/**
 * Validates and defaults the limits. `recursionLimit` defaults to 25, or to `maxSteps` when that is
 * larger, so that a sequential graph stops exactly where `maxSteps` says.
 *
 * @example
 * ```ts
 * resolveLimits({ maxSteps: 30 }); // { maxSteps: 30, recursionLimit: 30 }
 * ```
 */
export function resolveLimits(options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown } = {}, api = "invoke"): RunLimits {
  const maxSteps = checkLimit(api, "maxSteps", options.maxSteps, DEFAULT_MAX_STEPS);
  return { maxSteps, recursionLimit: checkLimit(api, "recursionLimit", options.recursionLimit, Math.max(DEFAULT_RECURSION_LIMIT, maxSteps)) };
}

function checkLimit(api: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`${api}: ${name} must be a positive integer; got ${describeValue(value)}. Omit it for the default of ${fallback}.`);
  }
  return value;
}

/** The message of a `GraphLimitError`: which bound, its value, and the node that was not started. */
export function limitMessage(bound: keyof RunLimits, limit: number, node: string): string {
  const what = bound === "maxSteps" ? "step limit" : "superstep limit";
  return (
    `invoke: the ${what} (${bound}: ${limit}) was reached before "${node}" could start. ` +
    `If the graph loops on purpose, raise ${bound}; otherwise check the route that leads back to "${node}".`
  );
}
