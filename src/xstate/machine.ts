/**
 * `toMachine`: a compiled graph as a running XState v5 machine. One state per node, plus `__start__`,
 * a final `__end__`, and a final `__step_limit__` for runs that reach their step limit. Each node is an
 * invoked promise actor that runs the node, merges its update and asks the router once; the route key
 * then selects one guarded transition. The config is plain data (named guards, actions and actors), so
 * the Stately inspector and visualizer can draw it.
 */
import { assign, setup, type EventObject } from "xstate";
import type { CompiledGraph } from "../engine/compiled-graph.js";
import { executableOf } from "../engine/compiled-graph.js";
import { describeValue, type NextNode, type RouteTaken, type State } from "../engine/step.js";
import { InvalidOptionError } from "../errors.js";
import { END, START } from "../spec.js";
import { checkedInput, checkedLimits, checkedSignal } from "./_input.js";
import { checkNodeNames, checkSequential, stateIds } from "./_names.js";
import { entryActor, stepActor, type StepOutput } from "./_step.js";

/**
 * The final state a run reaches when its step limit stops it.
 *
 * @example
 * ```ts
 * if (actor.getSnapshot().value === STEP_LIMIT_STATE) console.log("stopped before", actor.getSnapshot().output?.stoppedBefore);
 * ```
 */
export const STEP_LIMIT_STATE = "__step_limit__";

/**
 * The tag of the states where a step-by-step machine waits for its next `step` event (and may be persisted).
 *
 * @example
 * ```ts
 * if (actor.getSnapshot().hasTag(WAITING_TAG)) save(actor.getPersistedSnapshot());
 * ```
 */
export const WAITING_TAG = "waiting";

/**
 * How the machine advances: `"run"` runs node after node until END; `"step"` runs one node per `step`
 * event and waits in between (tagged {@link WAITING_TAG}), where its snapshot can be persisted.
 */
export type GraphMachineMode = "run" | "step";

/** Options of {@link toMachine}. */
export interface ToMachineOptions {
  /** Default `"run"`. */
  readonly mode?: GraphMachineMode;
  /** The machine's id, shown by the inspector, and the prefix of its state ids. Default `"graph"`. No `.` and no `#`. */
  readonly id?: string;
  /** Stops the run before the next node starts: that node's actor rejects with `ABORTED`. */
  readonly signal?: AbortSignal;
}

/** What an actor of the machine is created with: the graph's input state, and its bounds. */
export interface GraphMachineInput<S> {
  readonly state: S;
  /** Node executions the run may start. Default `DEFAULT_MAX_STEPS` (25). */
  readonly maxSteps?: number;
  /** Supersteps the run may start: one node each here. Default 25, or `maxSteps` when larger. */
  readonly recursionLimit?: number;
}

/** The node that ran last, and what it did: what a step-by-step observer reads. */
export interface LastStep<S> {
  readonly node: string;
  readonly update: Partial<S>;
  /** The route key its router returned, when its rule is conditional. */
  readonly route?: string;
}

/** The machine's context: the run so far. Plain data, so a persisted snapshot carries it. */
export interface GraphMachineContext<S> {
  readonly state: S;
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
  readonly maxSteps: number;
  readonly recursionLimit: number;
  readonly last: LastStep<S> | null;
  /** The node the step limit stopped, once the run reached {@link STEP_LIMIT_STATE}. */
  readonly stoppedBefore: string | null;
}

/** The machine's output: the final state, trace and routes, and how the run ended. */
export type GraphMachineOutput<S> =
  | { readonly outcome: "end"; readonly state: S; readonly trace: string[]; readonly routes: RouteTaken[] }
  | {
      readonly outcome: "step-limit";
      readonly state: S;
      readonly trace: string[];
      readonly routes: RouteTaken[];
      /** The node that would have run next. */
      readonly stoppedBefore: string;
      readonly maxSteps: number;
      readonly recursionLimit: number;
    };

/** The one event the machine takes: in step mode, run the next node. */
export interface StepEvent {
  readonly type: "step";
}

/**
 * Builds a typed XState v5 machine that runs a compiled graph with the mini engine's results: the same
 * final state, trace and routes, the same errors (the actor's `error`), and a step limit that ends in
 * the final state {@link STEP_LIMIT_STATE} with `outcome: "step-limit"` rather than a crash.
 *
 * @throws XStateExportError `UNSUPPORTED_NAME` for node names that start with `#` (XState reads them as ids);
 * `UNSUPPORTED_GRAPH` for graphs that run several nodes at once (fan-outs, joins, list path maps).
 * @example
 * ```ts
 * import { createActor, toPromise } from "xstate";
 * const machine = toMachine(buildReportGraph());
 * const output = await toPromise(createActor(machine, { input: { state: initialReportState(), maxSteps: 30 } }).start());
 * output.trace; // ["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"]
 * ```
 */
export function toMachine<S extends object>(graph: CompiledGraph<S>, options: ToMachineOptions = {}) {
  return buildMachine(graph, options, "toMachine");
}

/** @internal {@link toMachine}, with `api` naming the caller in error messages (`runOnXState` builds its machine here). */
export function buildMachine<S extends object>(graph: CompiledGraph<S>, options: ToMachineOptions, api: string) {
  const { mode, id, signal } = checkedOptions(options, api);
  const { spec } = graph;
  checkSequential(spec, api, { allowListRoutes: false });
  checkNodeNames(spec, api, [STEP_LIMIT_STATE]);
  const executable = executableOf(graph);
  const ids = stateIds(spec, id, [STEP_LIMIT_STATE]);
  const ref = (state: string): string => `#${ids.get(state) ?? state}`;

  const machineSetup = setup({
    types: {} as {
      context: GraphMachineContext<S>;
      events: StepEvent;
      input: GraphMachineInput<S>;
      output: GraphMachineOutput<S>;
    },
    actors: { runStep: stepActor(executable, api, signal), chooseEntry: entryActor(executable, api) },
    guards: {
      /** The next node would exceed the step limit (an aborted run reports ABORTED instead, as the mini engine does). */
      stepLimitReached: ({ context, event }) => {
        const { next } = outputOf<StepOutput>(event);
        const limit = Math.min(context.maxSteps, context.recursionLimit);
        return next.to !== END && context.trace.length + 1 >= limit && signal?.aborted !== true;
      },
      /** The router returned `key`. */
      routeIs: ({ event }, params: { key: string }) => routeKeyOf(event) === params.key,
    },
    actions: {
      commitStep: assign(({ context, event }) => {
        const { node, update, state, next } = outputOf<StepOutput>(event);
        return {
          state: state as S,
          trace: [...context.trace, node],
          routes: next.route ? [...context.routes, next.route] : context.routes,
          last: { node, update: update as Partial<S>, ...(next.route ? { route: next.route.key } : {}) },
        };
      }),
      recordEntryRoute: assign(({ context, event }) => {
        const { route } = outputOf<NextNode>(event);
        return { routes: route ? [...context.routes, route] : context.routes };
      }),
      stopAtStepLimit: assign(({ event }) => ({ stoppedBefore: outputOf<StepOutput>(event).next.to })),
    },
  });

  type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
  type StateConfig = NonNullable<MachineConfig["states"]>[string];
  type ActionName = "commitStep" | "recordEntryRoute" | "stopAtStepLimit";
  type Transitions = {
    guard?: "stepLimitReached" | { type: "routeIs"; params: { key: string } };
    target: string;
    // A node that routes to itself must run again: its state is left and entered anew, restarting the invoke.
    reenter: true;
    actions: ActionName | ActionName[];
  }[];

  const rules = new Map<string, { to: string } | { paths: Readonly<Record<string, string>> }>();
  for (const { from, to } of spec.edges) rules.set(from, { to });
  for (const { from, paths } of spec.routes) rules.set(from, { paths });

  /** The guarded transitions out of a source: the step limit first, then one per route key. */
  const exits = (source: string, actions: "commitStep" | "recordEntryRoute"): Transitions => {
    const rule = rules.get(source);
    const transitions: Transitions = [];
    if (rule === undefined) return transitions;
    const destinations = "to" in rule ? [rule.to] : Object.values(rule.paths);
    if (source !== START && destinations.some((to) => to !== END)) {
      transitions.push({ guard: "stepLimitReached", target: ref(STEP_LIMIT_STATE), reenter: true, actions: [actions, "stopAtStepLimit"] });
    }
    if ("to" in rule) transitions.push({ target: ref(rule.to), reenter: true, actions });
    else {
      for (const [key, to] of Object.entries(rule.paths)) {
        transitions.push({ guard: { type: "routeIs", params: { key } }, target: ref(to), reenter: true, actions });
      }
    }
    return transitions;
  };

  const states: Record<string, StateConfig> = {};
  const entry = rules.get(START);
  states[START] =
    entry !== undefined && "to" in entry
      ? { id: ids.get(START), always: { target: ref(entry.to) } }
      : {
          id: ids.get(START),
          invoke: { src: "chooseEntry", input: ({ context }) => ({ state: context.state as State }), onDone: exits(START, "recordEntryRoute") },
        };
  for (const node of spec.nodes) {
    const running: StateConfig = {
      invoke: {
        src: "runStep",
        input: ({ context }) => ({ node, state: context.state as State, trace: context.trace }),
        onDone: exits(node, "commitStep"),
      },
    };
    states[node] =
      mode === "run"
        ? { id: ids.get(node), ...running }
        : { id: ids.get(node), initial: "waiting", states: { waiting: { tags: [WAITING_TAG], on: { step: { target: "running" } } }, running } };
  }
  states[END] = { id: ids.get(END), type: "final" };
  states[STEP_LIMIT_STATE] = { id: ids.get(STEP_LIMIT_STATE), type: "final" };

  return machineSetup.createMachine({
    id,
    context: ({ input }) => ({
      ...checkedLimits(input, api),
      state: checkedInput(executable, input.state, api) as S,
      trace: [],
      routes: [],
      last: null,
      stoppedBefore: null,
    }),
    initial: START,
    states,
    output: ({ context }) => outputFrom(context),
  });
}

/** The machine type {@link toMachine} returns for a state `S`. */
export type GraphMachine<S extends object> = ReturnType<typeof buildMachine<S>>;

function outputFrom<S>(context: GraphMachineContext<S>): GraphMachineOutput<S> {
  const { state, maxSteps, recursionLimit, stoppedBefore } = context;
  const trace = [...context.trace];
  const routes = [...context.routes];
  if (stoppedBefore === null) return { outcome: "end", state, trace, routes };
  return { outcome: "step-limit", state, trace, routes, stoppedBefore, maxSteps, recursionLimit };
}

/** The output of the promise actor whose completion `event` reports. */
function outputOf<T>(event: EventObject): T {
  return (event as EventObject & { readonly output: T }).output;
}

/** The route key in the output of a node's or START's actor. */
function routeKeyOf(event: EventObject): string | undefined {
  const output = outputOf<StepOutput | NextNode>(event);
  return "next" in output ? output.next.route?.key : output.route?.key;
}

function checkedOptions(options: ToMachineOptions, api: string): { mode: GraphMachineMode; id: string; signal: AbortSignal | undefined } {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: options must be an object { mode, id, signal }; got ${describeValue(options)}.`);
  }
  const { mode = "run", id = "graph" } = options;
  if (mode !== "run" && mode !== "step") {
    throw new InvalidOptionError(`${api}: mode must be "run" or "step"; got ${describeValue(mode)}.`);
  }
  if (typeof id !== "string" || id === "" || id.includes(".") || id.includes("#")) {
    throw new InvalidOptionError(`${api}: id must be a non-empty string without "." or "#" (XState reads them in targets); got ${describeValue(id)}.`);
  }
  return { mode, id, signal: checkedSignal(options.signal, api) };
}
