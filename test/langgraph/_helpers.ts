/** Shared by the LangGraph.js differential tests. */
import type { RunResult, Step, ThreadRunResult } from "../../src/index.js";
import type { LangGraphThreadResult } from "../../src/langgraph/index.js";

/** A step as plain data (the mini engine's steps copy lazily through getters). */
export function plainSteps<S>(steps: readonly Step<S>[]): { node: string; update: unknown; state: unknown; route?: unknown }[] {
  return steps.map((step) => ({
    node: step.node,
    update: step.update,
    state: step.state,
    ...(step.route === undefined ? {} : { route: step.route }),
  }));
}

/** What two engines must agree on after a run. */
export function outcome<S>(result: RunResult<S>) {
  return { state: result.state, trace: result.trace, steps: plainSteps(result.steps), routes: result.routes };
}

/** What two engines must agree on when a run fails. */
export function failure(error: unknown) {
  if (!(error instanceof Error)) return { thrown: error };
  const { node, trace, state, code } = error as Error & { node?: unknown; trace?: unknown; state?: unknown; code?: unknown };
  return { name: error.name, code, message: error.message, node, trace, state };
}

/** Resolves with the outcome of a run, or the failure it rejected with. */
export async function settle<S>(run: Promise<RunResult<S>>) {
  try {
    return { ok: outcome(await run) };
  } catch (error) {
    return { failed: failure(error) };
  }
}

/** What two engines must agree on after a threaded call (checkpoint ids are each store's own; LangGraph keeps no routes). */
export function threadOutcome<S>(result: ThreadRunResult<S> | LangGraphThreadResult<S>) {
  const { checkpointId: _id, steps, ...rest } = result;
  const { routes: _routes, ...compared } = rest as typeof rest & { routes?: unknown };
  return { ...compared, steps: plainSteps(steps) };
}
