/**
 * The kernel's retry rule: whether a failed attempt of a node is tried again, and after how long, and
 * the codes never retried whatever a policy says.
 */
import { INVALID_UPDATE_CODES } from "../../errors.js";
import { NodePaused } from "../node-paused.js";
import { INTERRUPT_ERROR_CODES } from "../interrupt-codes.js";
import type { ResolvedRetry } from "../policies.js";
import { StepFailure } from "../step.js";

/** What {@link retryDecision} decided after a failed attempt. */
export type RetryDecision = { readonly retry: true; readonly delay: number } | { readonly retry: false };

/**
 * The codes never retried, whatever `retryOn` says: the run's own refusals and the library's usage
 * errors (an interrupt where the run cannot pause, a resume that does not fit), not the node's bad luck.
 * A second attempt reads the same state and the same options, and fails the same way. docs/engine.md
 * lists them (a test checks the list against this one).
 */
export const NEVER_RETRIED_CODES = [
  "ABORTED",
  // Every fault of an update (INVALID_UPDATE, UNDECLARED_FIELD, … CONCURRENT_WRITE).
  ...INVALID_UPDATE_CODES,
  "INVALID_INPUT",
  "INVALID_OPTION",
  "INVALID_STATE",
  "UNKNOWN_ROUTE_KEY",
  "UNDECLARED_GOTO",
  "JOIN_INCOMPLETE",
  "STEP_LIMIT",
  "LOOP_BOUND",
  // A handoff to a parent graph that a node's own child run could not make (it ran the child itself).
  "NO_PARENT_GRAPH",
  // Every InterruptError: interrupt() where the run cannot pause, or a resume that does not fit.
  ...INTERRUPT_ERROR_CODES,
] as const;

const NOT_RETRIED: ReadonlySet<string> = new Set(NEVER_RETRIED_CODES);

/**
 * Whether a failed attempt is tried again, and after how long. Never without a retry policy, after
 * the last attempt, for an interrupt (the node paused: trying again cannot answer it), or for a failure
 * coded with one of {@link NEVER_RETRIED_CODES} (the run's own, or one a child graph or `interrupt()`
 * threw inside the node): `retryOn` is not asked. Otherwise `retryOn(error)` decides (`error` is what
 * the node threw, or the `NODE_TIMEOUT` failure), and the wait is
 * `initialInterval × backoffFactor^(attempt − 1)`, jittered by ±50 %, at most `maxInterval`.
 *
 * @example
 * ```ts
 * retryDecision(resolvePolicy({ retry: { jitter: false } }, undefined)?.retry, 1, failure, Math.random); // { retry: true, delay: 500 }
 * ```
 */
export function retryDecision(policy: ResolvedRetry | undefined, attempt: number, failure: unknown, random: () => number): RetryDecision {
  if (policy === undefined || attempt >= policy.maxAttempts) return { retry: false };
  const code = failure instanceof StepFailure ? failure.code : undefined;
  if (code !== undefined && NOT_RETRIED.has(code)) return { retry: false };
  const error = code === "NODE_FAILED" ? (failure as StepFailure).cause : failure;
  if (error instanceof NodePaused) return { retry: false };
  if (isCoded(error) && NOT_RETRIED.has(error.code)) return { retry: false };
  if (policy.retryOn !== undefined && !policy.retryOn(error)) return { retry: false };
  const base = Math.min(policy.maxInterval, policy.initialInterval * policy.backoffFactor ** (attempt - 1));
  const delay = policy.jitter ? Math.min(policy.maxInterval, base * (0.5 + random())) : base;
  return { retry: true, delay };
}

function isCoded(value: unknown): value is { readonly code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === "string";
}
