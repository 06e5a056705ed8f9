/**
 * What both machine layouts share: XState's `setup` with the actors (`_superstep.ts`), the guards that
 * read the kernel's verdict from an actor's output, and the actions that copy that output into the
 * context. A layout (`_nodes-layout.ts`, `_supersteps-layout.ts`) only arranges states over them, so
 * both build one machine type.
 */
import { assign, setup, type EventObject } from "xstate";
import { verdict, type EventSink, type ExecutableGraph, type ObservedSettings, type Verdict } from "../engine/_kernel.js";
import type {
  GraphMachineContext,
  GraphMachineInput,
  GraphMachineOutput,
  LastStep,
  StepEvent,
  SuperstepProgress,
} from "./machine-types.js";
import { beginActor, entryActor, stepActor, superstepActor, type ChosenNext, type StepOutput, type SuperstepOutput } from "./_superstep.js";

/** What the actors of a machine are built with: the graph's tables, the caller's name, and the run's settings. */
export interface MachineRun {
  readonly executable: ExecutableGraph;
  readonly api: string;
  readonly signal: AbortSignal | undefined;
  readonly sink?: EventSink | undefined;
  readonly maxConcurrency?: number | undefined;
  readonly observed?: ObservedSettings | undefined;
}

/** The machine's setup: its actors, guards and actions, named, so its config stays plain data. */
export function graphSetup<S extends object>({ executable, api, signal, sink, maxConcurrency, observed }: MachineRun) {
  return setup({
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
          ...(run.deferred === undefined ? {} : { deferred: run.deferred }),
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
}

/** The setup of a machine over state `S`. */
export type GraphSetup<S extends object> = ReturnType<typeof graphSetup<S>>;

/** The config of one state of such a machine. */
export type StateConfig<S extends object> = NonNullable<Parameters<GraphSetup<S>["createMachine"]>[0]["states"]>[string];

/** The machine's initial context, from the actor's input. */
export type ContextOf<S extends object> = (args: { input: GraphMachineInput<S> }) => GraphMachineContext<S>;

/** The node a limit verdict stopped before, or `null`. */
function stoppedBefore(next: Verdict | undefined): string | null {
  return next?.kind === "limit" ? next.node : null;
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

/** What the machine's final state outputs: the run's end, or the limit it stopped at. */
export function machineOutput<S>(context: GraphMachineContext<S>): GraphMachineOutput<S> {
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
