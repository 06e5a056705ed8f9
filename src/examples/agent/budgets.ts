/** The agent's business budgets: how many model requests and tool runs one run may spend. */
import { InvalidOptionError } from "../../index.js";

/** The default number of model requests per run. */
export const DEFAULT_MAX_MODEL_STEPS = 6;
/** The default number of tool handler runs per run. */
export const DEFAULT_MAX_TOOL_CALLS = 6;

/** The budgets of one agent graph. */
export interface AgentBudgets {
  /** Model requests a run may make, failed ones included: a positive integer. */
  readonly maxModelSteps: number;
  /** Tool handlers a run may start, failed ones included: a non-negative integer. */
  readonly maxToolCalls: number;
}

/**
 * Checks budgets and fills in the defaults. Throws {@link InvalidOptionError} naming the option;
 * `api` is the function named in the message.
 *
 * @example
 * ```ts
 * resolveAgentBudgets({ maxToolCalls: 0 }); // { maxModelSteps: 6, maxToolCalls: 0 }
 * ```
 */
export function resolveAgentBudgets(options: Partial<AgentBudgets> = {}, api = "resolveAgentBudgets"): AgentBudgets {
  return {
    maxModelSteps: checkBudget(api, "maxModelSteps", options.maxModelSteps, 1, DEFAULT_MAX_MODEL_STEPS),
    maxToolCalls: checkBudget(api, "maxToolCalls", options.maxToolCalls, 0, DEFAULT_MAX_TOOL_CALLS),
  };
}

function checkBudget(api: string, name: string, value: unknown, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
    throw new InvalidOptionError(`${api}: ${name} must be an integer ≥ ${min}; got ${shown}. Omit it for the default of ${fallback}.`);
  }
  return value;
}
