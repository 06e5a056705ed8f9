/** Runs normalized for comparison: what two engines must agree on. */
import { GraphExecutionError, type RunResult } from "../../src/index.js";

/** A finished run or a failed one, as plain data. */
export type Outcome =
  | { kind: "done"; state: unknown; trace: string[]; routes: unknown[]; steps: unknown[]; supersteps: number }
  | { kind: "error"; name: string; code: string; node: string; state: unknown; trace: string[]; path: string[] };

/** Settles a run into an {@link Outcome}; errors other than GraphExecutionError are rethrown. */
export async function outcomeOf<S>(run: () => Promise<RunResult<S>>): Promise<Outcome> {
  try {
    const { state, trace, routes, steps, supersteps } = await run();
    return {
      kind: "done",
      state,
      trace,
      routes: routes.map(({ from, key, to }) => ({ from, key, to })),
      steps: steps.map(({ node, update, state: after, route }) => ({
        node,
        update,
        state: after,
        ...(route === undefined ? {} : { route }),
      })),
      supersteps,
    };
  } catch (error) {
    if (!(error instanceof GraphExecutionError)) throw error;
    return {
      kind: "error",
      name: error.name,
      code: error.code,
      node: error.node,
      state: error.state,
      trace: [...error.trace],
      path: [...error.path],
    };
  }
}
