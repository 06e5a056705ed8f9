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
 * Validates and defaults the limits. Each defaults to 25, or to the other one when that is larger: a
 * sequential graph (one node per superstep) stops exactly where the one you set says.
 *
 * @example
 * ```ts
 * resolveLimits({ maxSteps: 30 }); // { maxSteps: 30, recursionLimit: 30 }
 * ```
 */
export function resolveLimits(options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown } | null | undefined = {}, api = "invoke"): RunLimits {
  if (options === null || (options !== undefined && typeof options !== "object")) {
    throw new InvalidOptionError(`${api}: options must be an object such as { maxSteps: 30 }; got ${describeValue(options)}.`);
  }
  const given = {
    maxSteps: options?.maxSteps === undefined ? undefined : checkLimit(api, "maxSteps", options.maxSteps, DEFAULT_MAX_STEPS),
    recursionLimit: options?.recursionLimit === undefined ? undefined : checkLimit(api, "recursionLimit", options.recursionLimit, DEFAULT_RECURSION_LIMIT),
  };
  return {
    maxSteps: given.maxSteps ?? Math.max(DEFAULT_MAX_STEPS, given.recursionLimit ?? 0),
    recursionLimit: given.recursionLimit ?? Math.max(DEFAULT_RECURSION_LIMIT, given.maxSteps ?? 0),
  };
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
