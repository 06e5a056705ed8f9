/**
 * The `"supersteps"` layout (graphs that fan out, join or route to several nodes): `__start__`, one
 * `__superstep__` state that re-enters itself once per superstep, `__end__` and `__step_limit__`. Its
 * actor runs one whole superstep with the mini engine's own scheduler; the context carries the tasks
 * of the next superstep and the joins' arrivals.
 */
import type { State } from "../engine/_kernel.js";
import { END, START, type GraphSpec } from "../spec.js";
import {
  STEP_LIMIT_STATE,
  SUPERSTEP_STATE,
  WAITING_TAG,
  type GraphMachineContext,
  type GraphMachineMode,
  type SuperstepProgress,
} from "./machine-types.js";
import { stateIds } from "./_names.js";
import { machineOutput, type ContextOf, type GraphSetup, type StateConfig } from "./_setup.js";
import type { SuperstepOutput } from "./_superstep.js";

/** A machine with one state that runs each superstep of `spec`'s graph in turn. */
export function superstepsMachine<S extends object>(
  machineSetup: GraphSetup<S>,
  spec: GraphSpec,
  id: string,
  mode: GraphMachineMode,
  context: ContextOf<S>,
) {
  const ids = stateIds({ ...spec, nodes: [] }, id, [STEP_LIMIT_STATE, SUPERSTEP_STATE]);
  const ref = (state: string): string => `#${ids.get(state) ?? state}`;
  /** After START or a superstep: the end, the limit, or the next superstep. */
  const next = [
    { guard: "runFinished" as const, target: ref(END), reenter: true as const, actions: "commitSuperstep" as const },
    {
      guard: "superstepLimitReached" as const,
      target: ref(STEP_LIMIT_STATE),
      reenter: true as const,
      actions: ["commitSuperstep" as const, "stopAtSuperstepLimit" as const],
    },
    { target: ref(SUPERSTEP_STATE), reenter: true as const, actions: "commitSuperstep" as const },
  ];
  const running: StateConfig<S> = {
    invoke: {
      src: "runSuperstep",
      input: ({ context: c }) => ({ run: progressOf(c), maxSteps: c.maxSteps, recursionLimit: c.recursionLimit }),
      onDone: next,
    },
  };
  const states: Record<string, StateConfig<S>> = {
    [START]: {
      id: ids.get(START),
      invoke: {
        src: "beginRun",
        input: ({ context: c }) => ({ state: c.state as State, maxSteps: c.maxSteps, recursionLimit: c.recursionLimit }),
        onDone: next,
      },
    },
    [SUPERSTEP_STATE]: {
      id: ids.get(SUPERSTEP_STATE),
      description:
        "Runs every task of one superstep on the same state, merges their updates in declaration order, then activates the next tasks.",
      ...(mode === "run"
        ? running
        : { initial: "waiting", states: { waiting: { tags: [WAITING_TAG], on: { step: { target: "running" } } }, running } }),
    },
    [END]: { id: ids.get(END), type: "final" },
    [STEP_LIMIT_STATE]: { id: ids.get(STEP_LIMIT_STATE), type: "final" },
  };
  return machineSetup.createMachine({ id, context, initial: START, states, output: ({ context: c }) => machineOutput(c) });
}

/** What the superstep actor restores the run from. */
function progressOf<S>(context: GraphMachineContext<S>): SuperstepOutput["run"] {
  const run: Omit<SuperstepProgress<unknown>, "steps"> = context.run ?? { supersteps: 0, tasks: [], joins: [] };
  return {
    state: context.state as State,
    tasks: run.tasks,
    trace: context.trace,
    routes: context.routes,
    supersteps: run.supersteps,
    joins: run.joins,
    ...(run.deferred === undefined ? {} : { deferred: run.deferred }),
  };
}
