/** `invoke` on the mini engine: drives a {@link Run} to its end and returns its result. */
import type { ExecutableGraph } from "./executable.js";
import { isPending, type State } from "./step.js";
import { Run } from "./run.js";
import type { RunOptions, RunResult } from "./run-types.js";
import { defineLazyFields, StepLog } from "./step-record.js";

/** Runs a graph to its end. Rejects (never throws synchronously) on bad input, bad options or a failed step. */
export async function invokeRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): Promise<RunResult<State>> {
  const run = new Run(graph, input, options);
  const start = run.committedState;
  const log = new StepLog();
  for (;;) {
    const pending = run.superstepRecords(log);
    const superstep = isPending(pending) ? await pending : pending;
    if (superstep === undefined) break;
  }
  const result = { state: run.state, trace: run.trace };
  // The run's routes are shared, one object per distinct route: the result copies them when first read.
  const { routes } = run.snapshot();
  defineLazyFields(result, { steps: () => log.steps(graph, start), routes: () => routes.map((route) => ({ ...route })) });
  return Object.assign(result, { supersteps: run.supersteps });
}
