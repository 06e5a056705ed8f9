/** `invoke` on the mini engine: drives a {@link Run} to its end and returns its result. */
import type { ExecutableGraph } from "./executable.js";
import { isThenable, type State } from "./step.js";
import { Run } from "./run.js";
import type { RunOptions, RunResult, Step } from "./run-types.js";
import { replayedSteps, type StepRecord } from "./step-record.js";

/** Runs a graph to its end. Rejects (never throws synchronously) on bad input, bad options or a failed step. */
export async function invokeRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): Promise<RunResult<State>> {
  const run = new Run(graph, input, options);
  const start = run.committedState;
  const records: StepRecord[] = [];
  const sizes: number[] = [];
  for (;;) {
    const pending = run.superstepRecords();
    const superstep = isThenable(pending) ? await pending : pending;
    if (superstep === undefined) break;
    for (const record of superstep) records.push(record);
    sizes.push(superstep.length);
  }
  let steps: Step<State>[] | undefined;
  return {
    state: run.state,
    trace: run.trace,
    get steps() {
      return (steps ??= replayedSteps(graph, start, records, sizes));
    },
    set steps(value: Step<State>[]) {
      steps = value;
    },
    routes: run.routes,
    supersteps: run.supersteps,
  };
}
