/**
 * Run limits, shared by every runner (the mini engine, the XState and LangGraph runners) so their
 * defaults, validation and messages cannot drift apart.
 */
import { InvalidOptionError } from "../../errors.js";
import { describeValue } from "../step.js";

/**
 * The default bound on node executions per run: none. The superstep bound (`recursionLimit`, as in
 * LangGraph) stops a runaway loop; a map-reduce of a thousand Sends is one superstep and runs with the
 * defaults. `Number.MAX_SAFE_INTEGER` rather than `Infinity`, so a persisted XState context keeps it in JSON.
 */
export const DEFAULT_MAX_STEPS = Number.MAX_SAFE_INTEGER;
/** The default bound on supersteps per run, as in LangGraph. */
export const DEFAULT_RECURSION_LIMIT = 25;

/** The bounds of a run. */
export interface RunLimits {
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/**
 * Validates and defaults the limits. `maxSteps` has no default bound; `recursionLimit` defaults to 25,
 * or to `maxSteps` when that is larger: a sequential graph (one node per superstep) stops exactly where
 * the `maxSteps` you set says.
 *
 * @example
 * ```ts
 * resolveLimits({ maxSteps: 30 }); // { maxSteps: 30, recursionLimit: 30 }
 * ```
 */
export function resolveLimits(
  options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown } | null | undefined = {},
  api = "invoke",
): RunLimits {
  if (options === null || (options !== undefined && typeof options !== "object")) {
    throw new InvalidOptionError(`${api}: options must be an object such as { maxSteps: 30 }; got ${describeValue(options)}.`);
  }
  const maxSteps = options?.maxSteps === undefined ? undefined : checkPositive(api, "maxSteps", options.maxSteps, "no bound");
  const recursionLimit =
    options?.recursionLimit === undefined
      ? undefined
      : checkPositive(api, "recursionLimit", options.recursionLimit, `${DEFAULT_RECURSION_LIMIT}`);
  return {
    maxSteps: maxSteps ?? DEFAULT_MAX_STEPS,
    recursionLimit: recursionLimit ?? Math.max(DEFAULT_RECURSION_LIMIT, maxSteps ?? 0),
  };
}

/** `maxConcurrency`, checked: a positive integer, or `undefined` for no bound. */
export function resolveConcurrency(value: unknown, api = "invoke"): number {
  return value === undefined ? Number.POSITIVE_INFINITY : checkPositive(api, "maxConcurrency", value, "all nodes of a superstep at once");
}

function checkPositive(api: string, name: string, value: unknown, fallback: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(
      `${api}: ${name} must be a positive integer; got ${describeValue(value)}. Omit it for the default (${fallback}).`,
    );
  }
  return value;
}

/** The message of a `GraphLimitError` (the API's name comes first): which bound, its value, and the node not started. */
export function limitMessage(bound: keyof RunLimits, limit: number, node: string): string {
  const what = bound === "maxSteps" ? "step limit" : "superstep limit";
  return (
    `the ${what} (${bound}: ${limit}) was reached before "${node}" could start. ` +
    `If the graph loops on purpose, raise ${bound}; otherwise check the route that leads back to "${node}".`
  );
}
