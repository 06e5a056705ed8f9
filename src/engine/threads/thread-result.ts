/** What a threaded run resolves with: its result so far, and the steps of the supersteps it committed. */
import type { Run } from "../run.js";
import type { Step } from "../run-types.js";
import type { State } from "../step.js";
import { detachedStep, type StepRecord } from "../step-record.js";
import type { Checkpoint } from "../checkpointer.js";
import type { Interrupt, ThreadRunResult } from "./types.js";
import type { ThreadWriter } from "./writer.js";

/**
 * A superstep a threaded run committed: its records (each node's committed update, shared) and the
 * state after it. The steps a caller reads are copies made from it ({@link stepsOf}).
 * @internal
 */
export interface CommittedSuperstep {
  readonly records: readonly StepRecord[];
  readonly state: State;
}

/** The steps of a committed superstep, each copied when first read. */
export function stepsOf(superstep: CommittedSuperstep): Step<State>[] {
  return superstep.records.map((record) => detachedStep(record, superstep.state));
}

export function resultOf(
  run: Run,
  made: Step<State>[] | (() => Step<State>[]),
  writer: ThreadWriter,
  interrupt: Interrupt | undefined,
): ThreadRunResult<State> {
  const current = writer.current as Checkpoint;
  let steps = typeof made === "function" ? undefined : made;
  const result = {
    state: run.state,
    trace: run.trace,
    // Made on first read (invoke's steps are too): a caller that reads only the state pays for no step.
    get steps(): Step<State>[] {
      return (steps ??= (made as () => Step<State>[])());
    },
    set steps(value: Step<State>[]) {
      steps = value;
    },
    routes: run.routes,
    supersteps: run.supersteps,
    threadId: current.threadId,
    checkpointId: current.id,
    next: (run.pending ?? []).map((task) => task.node),
  };
  // Object.assign keeps `steps`' accessors (a spread would read them); no cast, so a member left out fails to compile.
  return interrupt === undefined
    ? Object.assign(result, { status: "done" as const })
    : Object.assign(result, { status: "interrupted" as const, interrupt });
}
