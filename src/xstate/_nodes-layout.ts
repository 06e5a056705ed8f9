/**
 * The `"nodes"` layout (sequential graphs): one state per node, plus `__start__`, a final `__end__`,
 * and a final `__step_limit__` for runs that reach their step limit. Each node is an invoked promise
 * actor that runs the node's superstep on the engine's `Run` (the node, its merge, its router once);
 * the route key then selects one guarded transition.
 */
import type { State } from "../engine/_kernel.js";
import { END, START, type GraphSpec } from "../spec.js";
import { STEP_LIMIT_STATE, WAITING_TAG, type GraphMachineMode } from "./machine-types.js";
import { stateIds } from "./_names.js";
import { machineOutput, type ContextOf, type GraphSetup, type StateConfig } from "./_setup.js";

type ActionName = "commitStep" | "recordEntryRoute" | "stopAtStepLimit";

type Transitions = {
  guard?: "stepLimitReached" | { type: "routeIs"; params: { key: string } } | { type: "boundExit"; params: { to: string } };
  target: string;
  // A node that routes to itself must run again: its state is left and entered anew, restarting the invoke.
  reenter: true;
  actions: ActionName | ActionName[];
}[];

/** A machine with one state per node of `spec`. */
export function nodesMachine<S extends object>(
  machineSetup: GraphSetup<S>,
  spec: GraphSpec,
  id: string,
  mode: GraphMachineMode,
  context: ContextOf<S>,
) {
  const ids = stateIds(spec, id, [STEP_LIMIT_STATE]);
  const ref = (state: string): string => `#${ids.get(state) ?? state}`;
  const rules = new Map<string, { to: string } | { paths: Readonly<Record<string, string>> }>();
  for (const { from, to } of spec.edges) rules.set(from, { to });
  for (const { from, paths } of spec.routes) rules.set(from, { paths });
  const boundExits = new Map((spec.bounds ?? []).flatMap((bound) => (bound.exit === undefined ? [] : [[bound.node, bound.exit] as const])));

  /** The guarded transitions out of a source: the step limit first, then one per route key. */
  const exits = (source: string, actions: "commitStep" | "recordEntryRoute"): Transitions => {
    const rule = rules.get(source);
    const transitions: Transitions = [];
    if (rule === undefined) return transitions;
    const destinations = "to" in rule ? [rule.to] : Object.values(rule.paths);
    if (source !== START && destinations.some((to) => to !== END)) {
      transitions.push({ guard: "stepLimitReached", target: ref(STEP_LIMIT_STATE), reenter: true, actions: [actions, "stopAtStepLimit"] });
    }
    // A destination past its loop bound: the kernel names its exit instead.
    for (const exit of new Set(destinations.flatMap((to) => boundExits.get(to) ?? []))) {
      transitions.push({ guard: { type: "boundExit", params: { to: exit } }, target: ref(exit), reenter: true, actions });
    }
    if ("to" in rule) transitions.push({ target: ref(rule.to), reenter: true, actions });
    else {
      for (const [key, to] of Object.entries(rule.paths)) {
        transitions.push({ guard: { type: "routeIs", params: { key } }, target: ref(to), reenter: true, actions });
      }
    }
    return transitions;
  };

  const states: Record<string, StateConfig<S>> = {};
  // START is an invoked actor even with a fixed edge: XState's JSON definition drops `always`
  // transitions, so an eventless START would lose its edge for the visualizer and any tool reading it.
  states[START] = {
    id: ids.get(START),
    invoke: {
      src: "chooseEntry",
      input: ({ context: c }) => ({ state: c.state as State }),
      onDone: exits(START, "recordEntryRoute"),
    },
  };
  for (const node of spec.nodes) {
    const running: StateConfig<S> = {
      invoke: {
        src: "runStep",
        input: ({ context: c }) => ({
          node,
          state: c.state as State,
          trace: c.trace,
          maxSteps: c.maxSteps,
          recursionLimit: c.recursionLimit,
        }),
        onDone: exits(node, "commitStep"),
      },
    };
    states[node] =
      mode === "run"
        ? { id: ids.get(node), ...running }
        : {
            id: ids.get(node),
            initial: "waiting",
            states: { waiting: { tags: [WAITING_TAG], on: { step: { target: "running" } } }, running },
          };
  }
  states[END] = { id: ids.get(END), type: "final" };
  states[STEP_LIMIT_STATE] = { id: ids.get(STEP_LIMIT_STATE), type: "final" };

  return machineSetup.createMachine({ id, context, initial: START, states, output: ({ context: c }) => machineOutput(c) });
}
