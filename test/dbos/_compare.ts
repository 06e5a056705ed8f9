/** What a run on DBOS and a run on the mini engine must agree on. */
import type { RunResult } from "../../src/index.js";
import { plainSteps } from "../langgraph/_helpers.js";

/** The result as plain data: state, trace, steps, routes, supersteps. */
export function outcome<S>(result: RunResult<S>) {
  return {
    state: result.state,
    trace: result.trace,
    steps: plainSteps(result.steps),
    routes: result.routes,
    supersteps: result.supersteps,
  };
}

/** An error as plain data, the API named at the start of its message left out (`invoke:` / `runOnDBOS:`). */
export function failureOf(error: unknown) {
  if (!(error instanceof Error)) return { thrown: error };
  const { node, trace, state, code, pendingWrites } = error as Error & Record<string, unknown>;
  return { name: error.name, code, message: error.message.replace(/^\w+: /, ""), node, trace, state, pendingWrites };
}

/** The outcome of a run, or the failure it rejected with. */
export async function settleOn<S>(run: Promise<RunResult<S>>) {
  try {
    return { ok: outcome(await run) };
  } catch (error) {
    return { failed: failureOf(error) };
  }
}
