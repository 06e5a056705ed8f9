/**
 * `toMachine`: a compiled graph as a running XState v5 machine, in one of two layouts.
 *
 * - `"nodes"` (sequential graphs): one state per node, plus `__start__`, a final `__end__`, and a final
 *   `__step_limit__` for runs that reach their step limit. Each node is an invoked promise actor that
 *   runs the node, merges its update and asks the router once; the route key then selects one guarded
 *   transition.
 * - `"supersteps"` (graphs that fan out, join or route to several nodes): `__start__`, one
 *   `__superstep__` state that re-enters itself once per superstep, `__end__` and `__step_limit__`. Its
 *   actor runs one whole superstep with the mini engine's own scheduler; the context carries the tasks
 *   of the next superstep and the joins' arrivals.
 *
 * The config is plain data (named guards, actions and actors), so the Stately inspector and visualizer
 * can draw it.
 */
import { assign, setup, type EventObject } from "xstate";
import type { CompiledGraph } from "../engine/index.js";
import { executableOf, interruptsOf, verdict, type EventSink, type ObservedSettings, type Verdict } from "../engine/_kernel.js";
import { XStateExportError } from "./errors.js";
import { describeValue, type State } from "../engine/_kernel.js";
import { InvalidOptionError } from "../errors.js";
import { END, START } from "../spec.js";
import { checkedInput, checkedLimits, checkedSignal } from "./_input.js";
import { checkNodeNames, checkSequential, isParallelSpec, stateIds } from "./_names.js";
import { beginActor, superstepActor, type SuperstepOutput } from "./_superstep.js";
import { entryActor, stepActor, type ChosenNext, type StepOutput } from "./_step.js";

export { STEP_LIMIT_STATE, WAITING_TAG, SUPERSTEP_STATE } from "./machine-types.js";
export type {
  GraphMachineMode,
  GraphMachineLayout,
  ToMachineOptions,
  GraphMachineInput,
  LastStep,
  PendingTask,
  SuperstepProgress,
  GraphMachineContext,
  GraphMachineOutput,
  StepEvent,
} from "./machine-types.js";
import {
  STEP_LIMIT_STATE,
  WAITING_TAG,
  SUPERSTEP_STATE,
  type GraphMachineMode,
  type GraphMachineLayout,
  type ToMachineOptions,
  type GraphMachineInput,
  type LastStep,
  type SuperstepProgress,
  type GraphMachineContext,
  type GraphMachineOutput,
  type StepEvent,
} from "./machine-types.js";

/**
 * Builds a typed XState v5 machine that runs a compiled graph with the mini engine's results: the same
 * final state, trace and routes, the same errors (the actor's `error`), and a step limit that ends in
 * the final state {@link STEP_LIMIT_STATE} with `outcome: "step-limit"` rather than a crash. A sequential
 * graph gets one state per node; a graph that fans out, joins or routes to several nodes gets one
 * {@link SUPERSTEP_STATE} run once per superstep by the mini engine's own scheduler.
 *
 * @throws XStateExportError `UNSUPPORTED_NAME` for node names that start with `#` (XState reads them as ids)
 * in a `"nodes"` machine; `UNSUPPORTED_GRAPH` for `layout: "nodes"` on a graph that runs several nodes at once.
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
export function buildMachine<S extends object>(
  graph: CompiledGraph<S>,
  options: ToMachineOptions,
  api: string,
  sink?: EventSink,
  maxConcurrency?: number,
  observed?: ObservedSettings,
) {
  const { mode, id, signal, layout } = checkedOptions(options, api);
  const { spec } = graph;
  const interrupts = interruptsOf(graph);
  if (interrupts.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_INTERRUPT",
      `${api}: the graph pauses at interrupts (${interrupts.join(", ")}), and an XState machine cannot pause there: it would run straight through them. ` +
        `Run it with graph.invoke(input, { threadId, checkpointer }), or compile it without interrupts to export it.`,
      interrupts,
    );
  }
  const supersteps = layout === "supersteps" || (layout === "auto" && isParallelSpec(spec));
  if (!supersteps) {
    checkSequential(spec, api, { allowListRoutes: false });
    checkNodeNames(spec, api, [STEP_LIMIT_STATE]);
  }
  const executable = executableOf(graph);

  const machineSetup = setup({
    types: {} as {
      context: GraphMachineContext<S>;
      events: StepEvent;
      input: GraphMachineInput<S>;
      output: GraphMachineOutput<S>;
    },
    actors: {
      runStep: stepActor(executable, api, signal, sink),
      chooseEntry: entryActor(executable, api, signal),
      beginRun: beginActor(executable, api, signal, observed),
      runSuperstep: superstepActor(executable, api, signal, sink, maxConcurrency, observed),
    },
    guards: {
      /**
       * The kernel refuses the next node for a bound (an aborted run reports ABORTED instead, as the mini
       * engine does): the node's actor asked it. XState's own events (a synthetic done event has no output) never match.
       */
      stepLimitReached: ({ event }) => outputOf<StepOutput>(event)?.verdict.kind === "limit",
      /** The router returned `key`. */
      routeIs: ({ event }, params: { key: string }) => routeKeyOf(event) === params.key,
      /** The kernel sent the run to `to`, the exit of a loop bound, instead of the node the rule led to. */
      boundExit: ({ event }, params: { to: string }) => {
        const output = outputOf<StepOutput | ChosenNext>(event);
        const next = output === undefined ? undefined : "next" in output ? output.next : output;
        return next?.boundExit === true && next.to === params.to;
      },
      /**
       * The kernel says the run is over: no node is active, and no join waits. (With a join waiting, the
       * next superstep state lets the engine's run report JOIN_INCOMPLETE, as the mini engine does.)
       */
      runFinished: ({ event }) => outputOf<SuperstepOutput>(event)?.verdict.kind === "end",
      /** The kernel stops the next superstep for maxSteps or recursionLimit (an aborted run reports ABORTED instead). */
      superstepLimitReached: ({ event }) => outputOf<SuperstepOutput>(event)?.verdict.kind === "limit",
    },
    actions: {
      // XState's path algorithms send done events without an actor's output: those change nothing.
      commitStep: assign(({ context, event }) => {
        const output = outputOf<StepOutput>(event);
        if (output === undefined) return {};
        const { node, update, state, next } = output;
        return {
          state: state as S,
          trace: [...context.trace, node],
          routes: next.route ? [...context.routes, next.route] : context.routes,
          last: { node, update: update as Partial<S>, ...(next.keys === undefined ? {} : { route: next.keys }) },
        };
      }),
      recordEntryRoute: assign(({ context, event }) => {
        const route = outputOf<ChosenNext>(event)?.route;
        return { routes: route ? [...context.routes, route] : context.routes };
      }),
      stopAtStepLimit: assign(({ event }) => ({ stoppedBefore: stoppedBefore(outputOf<StepOutput>(event)?.verdict) })),
      commitSuperstep: assign(({ event }) => {
        const output = outputOf<SuperstepOutput>(event);
        if (output === undefined) return {};
        const { run, steps } = output;
        const progress: SuperstepProgress<S> = {
          supersteps: run.supersteps,
          tasks: run.tasks,
          joins: run.joins,
          steps: steps as readonly LastStep<S>[],
        };
        return {
          state: run.state as S,
          trace: run.trace,
          routes: run.routes,
          last: (steps.at(-1) as LastStep<S> | undefined) ?? null,
          run: progress,
        };
      }),
      stopAtSuperstepLimit: assign(({ event }) => ({ stoppedBefore: stoppedBefore(outputOf<SuperstepOutput>(event)?.verdict) })),
    },
  });

  type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
  type StateConfig = NonNullable<MachineConfig["states"]>[string];
  type ActionName = "commitStep" | "recordEntryRoute" | "stopAtStepLimit";
  type Transitions = {
    guard?: "stepLimitReached" | { type: "routeIs"; params: { key: string } } | { type: "boundExit"; params: { to: string } };
    target: string;
    // A node that routes to itself must run again: its state is left and entered anew, restarting the invoke.
    reenter: true;
    actions: ActionName | ActionName[];
  }[];

  const context = ({ input }: { input: GraphMachineInput<S> }): GraphMachineContext<S> => ({
    ...checkedLimits(input, api),
    state: checkedInput(executable, input.state, api) as S,
    trace: [],
    routes: [],
    last: null,
    stoppedBefore: null,
    ...(supersteps ? { run: { supersteps: 0, tasks: [], joins: executable.joins.map(() => []), steps: [] } } : {}),
  });

  if (supersteps) {
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
    const running: StateConfig = {
      invoke: {
        src: "runSuperstep",
        input: ({ context: c }) => ({ run: progressOf(c), maxSteps: c.maxSteps, recursionLimit: c.recursionLimit }),
        onDone: next,
      },
    };
    const states: Record<string, StateConfig> = {
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
    return machineSetup.createMachine({ id, context, initial: START, states, output: ({ context: c }) => outputFrom(c) });
  }

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

  const states: Record<string, StateConfig> = {};
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
    const running: StateConfig = {
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

  return machineSetup.createMachine({ id, context, initial: START, states, output: ({ context: c }) => outputFrom(c) });
}

/** The machine type {@link toMachine} returns for a state `S`. */
export type GraphMachine<S extends object> = ReturnType<typeof buildMachine<S>>;

function outputFrom<S>(context: GraphMachineContext<S>): GraphMachineOutput<S> {
  const { state, maxSteps, recursionLimit, stoppedBefore, run } = context;
  const trace = [...context.trace];
  const routes = [...context.routes];
  if (stoppedBefore === null) return { outcome: "end", state, trace, routes };
  // The bound is the kernel's: asked again of the snapshot it stopped (one node a superstep in a "nodes" machine).
  const tasks = run?.tasks ?? [{ node: stoppedBefore, sent: false }];
  const stopped = verdict({ joins: [] }, { tasks, trace, supersteps: run?.supersteps ?? trace.length, joins: [] }, context, undefined);
  const limit = stopped.kind === "limit" ? stopped.bound : "maxSteps";
  return { outcome: "step-limit", state, trace, routes, stoppedBefore, limit, maxSteps, recursionLimit };
}

/** The node a limit verdict stopped before, or `null`. */
function stoppedBefore(next: Verdict | undefined): string | null {
  return next?.kind === "limit" ? next.node : null;
}

/** What the superstep actor restores the run from. */
function progressOf<S>(context: GraphMachineContext<S>): SuperstepOutput["run"] {
  const run = context.run ?? { supersteps: 0, tasks: [], joins: [] };
  return {
    state: context.state as State,
    tasks: run.tasks,
    trace: context.trace,
    routes: context.routes,
    supersteps: run.supersteps,
    joins: run.joins,
  };
}

/**
 * The output of the promise actor whose completion `event` reports; `undefined` for any other event
 * XState may send (a path search sends synthetic done events with no output).
 */
function outputOf<T>(event: EventObject): T | undefined {
  const output = (event as EventObject & { readonly output?: unknown }).output;
  return typeof output === "object" && output !== null ? (output as T) : undefined;
}

/** The route key in the output of a node's or START's actor. */
function routeKeyOf(event: EventObject): string | undefined {
  const output = outputOf<StepOutput | ChosenNext>(event);
  if (output === undefined) return undefined;
  return "next" in output ? output.next.route?.key : output.route?.key;
}

function checkedOptions(
  options: ToMachineOptions,
  api: string,
): { mode: GraphMachineMode; id: string; signal: AbortSignal | undefined; layout: GraphMachineLayout } {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: options must be an object { mode, id, signal, layout }; got ${describeValue(options)}.`);
  }
  const { mode = "run", id = "graph", layout = "auto" } = options;
  if (layout !== "auto" && layout !== "nodes" && layout !== "supersteps") {
    throw new InvalidOptionError(`${api}: layout must be "auto", "nodes" or "supersteps"; got ${describeValue(layout)}.`);
  }
  if (mode !== "run" && mode !== "step") {
    throw new InvalidOptionError(`${api}: mode must be "run" or "step"; got ${describeValue(mode)}.`);
  }
  if (typeof id !== "string" || id === "" || id.includes(".") || id.includes("#")) {
    throw new InvalidOptionError(
      `${api}: id must be a non-empty string without "." or "#" (XState reads them in targets); got ${describeValue(id)}.`,
    );
  }
  return { mode, id, signal: checkedSignal(options.signal, api), layout };
}
