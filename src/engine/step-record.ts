/**
 * Steps as a run records them and as callers read them. A run keeps each node's committed update; the
 * copies a caller reads are made on first read. The run never mutates a committed value (merging builds
 * a new state), so copying later gives the same detached value as copying at once.
 */
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import type { Step } from "./run-types.js";
import { commit } from "./kernel/superstep.js";
import type { State } from "./step.js";

/** A completed node execution as the run records it: the committed update, shared until copied. */
export interface StepRecord {
  readonly node: string;
  readonly update: State;
  readonly route: string | string[] | undefined;
  /** The nodes the node's `Command` goto added to the next superstep, when it returned one. */
  readonly goto?: readonly string[];
}

/** A step whose `update` and `state` are copied on first read. */
export function detachedStep(record: StepRecord, committedState: State): Step<State> {
  return lazyStep(record, () => committedState);
}

function lazyStep(record: StepRecord, stateOf: () => State): Step<State> {
  const { node, route, goto } = record;
  let update: State | undefined;
  let state: State | undefined;
  return {
    node,
    get update() {
      return (update ??= cloneState(record.update));
    },
    set update(value: State) {
      update = value;
    },
    get state() {
      return (state ??= cloneState(stateOf()));
    },
    set state(value: State) {
      state = value;
    },
    ...(route === undefined ? {} : { route: typeof route === "string" ? route : [...route] }),
    ...(goto === undefined ? {} : { goto: [...goto] }),
  };
}

/**
 * The steps of a finished run, from its records: each step's `state` is the state after its superstep,
 * replayed from `input` through the kernel's own `commit` the first time any step's state is read. So a
 * run retains its updates only (linear in their size), not a state per superstep. `sizes[i]` is the
 * number of records of superstep `i`.
 */
export function replayedSteps(
  graph: ExecutableGraph,
  input: State,
  records: readonly StepRecord[],
  sizes: readonly number[],
): Step<State>[] {
  let states: State[] | undefined;
  const superstepOf: number[] = new Array(records.length);
  let at = 0;
  sizes.forEach((size, superstep) => {
    for (let i = 0; i < size; i++) superstepOf[at++] = superstep;
  });
  const replay = (): State[] => {
    const replayed: State[] = [];
    let state = input;
    let offset = 0;
    for (const size of sizes) {
      const group = records.slice(offset, offset + size);
      offset += size;
      const committed = commit(
        graph,
        state,
        group.map(({ node }) => ({ node, sent: false })),
        group.map((record) => record.update),
      );
      // The run committed these very updates; a replay cannot fail unless a reducer is impure.
      if (!committed.ok) throw committed.failure;
      state = committed.state;
      replayed.push(state);
    }
    return replayed;
  };
  return records.map((record, index) => lazyStep(record, () => (states ??= replay())[superstepOf[index] as number] as State));
}
