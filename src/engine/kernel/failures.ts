/**
 * The kernel's rule for a superstep that failed: which failure is reported. A node's failure first (the
 * first in declaration order that failed on its own), then the merge's (in declaration order), then a
 * router's (the first, in declaration order). The mini engine meets them in that order as it runs the
 * phases; a driver that learns of them all at once (the LangGraph runner) asks {@link superstepFailure}.
 */
import type { ExecutableGraph } from "../executable.js";
import type { State, Task } from "../step.js";
import { commit } from "./superstep.js";

/** How one task of a superstep settled, as the driver observed it. */
export interface Settled {
  readonly failed: boolean;
  readonly error?: unknown;
  /**
   * Whether it failed after its signal had aborted, having read that signal: it stopped because it was
   * cancelled (by a sibling's failure), not on its own.
   */
  readonly cancelled: boolean;
}

/**
 * Which task's failure a failed superstep reports: the first in declaration order that failed on its
 * own; a sibling that only stopped because it was cancelled is never reported. `-1` when none failed.
 *
 * @example
 * ```ts
 * reportedFailure([{ failed: true, cancelled: true }, { failed: true, cancelled: false }]); // 1
 * ```
 */
export function reportedFailure(settled: readonly (Settled | undefined)[]): number {
  const own = settled.findIndex((s) => s?.failed === true && !s.cancelled);
  return own >= 0 ? own : settled.findIndex((s) => s?.failed === true);
}

/** What a driver learned of one task of a failed superstep. */
export interface TaskOutcome {
  /** How its node settled; `undefined` while it had not. */
  readonly settled: Settled | undefined;
  /** Its node's update, once it returned (without its Command goto). */
  readonly update: State | undefined;
  /** Why its router failed, when it ran and did. */
  readonly routerFailure?: { readonly error: unknown } | undefined;
}

/**
 * The failure a superstep reports, and the node it names: a node's ({@link reportedFailure}), else the
 * merge's (replayed in declaration order on `state`, when every node returned: a parallel write without
 * a reducer, or a reducer that threw), else the first router's. `undefined` when none of them failed.
 *
 * @example
 * ```ts
 * const failed = superstepFailure(graph, state, tasks, outcomes);
 * if (failed !== undefined) throw executionError(api, failed.failure, contextAt(failed.node));
 * ```
 */
export function superstepFailure(
  graph: ExecutableGraph,
  state: State,
  tasks: readonly Task[],
  outcomes: readonly TaskOutcome[],
): { readonly node: string; readonly failure: unknown } | undefined {
  const failed = reportedFailure(outcomes.map((outcome) => outcome.settled));
  const settled = outcomes[failed]?.settled;
  if (settled?.failed === true) return { node: (tasks[failed] as Task).node, failure: settled.error };
  const updates = outcomes.map((outcome) => outcome.update);
  if (updates.every((update) => update !== undefined)) {
    const committed = commit(graph, state, tasks, updates);
    if (!committed.ok) return { node: committed.node, failure: committed.failure };
  }
  const router = outcomes.findIndex((outcome) => outcome.routerFailure !== undefined);
  if (router >= 0) return { node: (tasks[router] as Task).node, failure: outcomes[router]?.routerFailure?.error };
  return undefined;
}
