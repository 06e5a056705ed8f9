/** The one error class of the coverage tools, with a code a program (or a test) can switch on. */
import { GraphError } from "../errors.js";
import type { GraphTransition } from "./transitions.js";

// A record, not a list, so that a code missing here (or one too many) fails to compile.
/** The codes a {@link CoverageError} can carry, as data (docs/reference/errors.md is checked against it). */
export const COVERAGE_ERROR_CODES = Object.keys({
  MISSING_TRANSITIONS: true,
  RUN_MISMATCH: true,
  UNCOVERABLE: true,
  PLAN_TOO_LARGE: true,
  XSTATE_PLAN_UNSUPPORTED: true,
  XSTATE_UNAVAILABLE: true,
  XSTATE_PLAN_FAILED: true,
  REPLAY_DIVERGED: true,
  REPLAY_PAUSED: true,
} satisfies Record<CoverageErrorCode, true>) as readonly CoverageErrorCode[];

/** The codes a {@link CoverageError} can carry. */
export type CoverageErrorCode =
  /** Recorded runs left transitions unexercised (`assertRouteCoverage`). */
  | "MISSING_TRANSITIONS"
  /** A recorded run does not follow the graph's edges and routes (`coverageReport`). */
  | "RUN_MISMATCH"
  /** Some transitions lie on no START→END path (or no run that ends): the spec was not validated (`coveragePlan`). */
  | "UNCOVERABLE"
  /** A graph that fans out or joins has too many configurations for `coveragePlan` to explore. */
  | "PLAN_TOO_LARGE"
  /** `via: "xstate"` for a graph that fans out or joins: XState's planner works on the sequential coverage model. */
  | "XSTATE_PLAN_UNSUPPORTED"
  /** `via: "xstate"` could not load `xstate/graph`. */
  | "XSTATE_UNAVAILABLE"
  /** `xstate/graph` failed or returned a plan that misses transitions. */
  | "XSTATE_PLAN_FAILED"
  /** A scripted replay did not follow its path. */
  | "REPLAY_DIVERGED"
  /** A threaded replay paused at an interrupt (in a node, or `interruptBefore`/`interruptAfter`) before its path's end. */
  | "REPLAY_PAUSED";

/**
 * A coverage tool could not do its job. `transitions` lists the transitions at fault, when there are some
 * (for `MISSING_TRANSITIONS`: the ones no run took).
 *
 * @example
 * ```ts
 * try { assertRouteCoverage(graph, runs); } catch (error) {
 *   if (error instanceof CoverageError && error.code === "MISSING_TRANSITIONS") console.log(error.transitions.map((t) => t.label));
 * }
 * ```
 */
export class CoverageError extends GraphError<CoverageErrorCode> {
  override readonly name = "CoverageError";
  readonly transitions: readonly GraphTransition[];

  constructor(code: CoverageErrorCode, message: string, options: { transitions?: readonly GraphTransition[]; cause?: unknown } = {}) {
    super(code, message, "cause" in options ? { cause: options.cause } : undefined);
    this.transitions = options.transitions ?? [];
  }
}
