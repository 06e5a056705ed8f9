/**
 * The work a machine does, as promise actors, in both layouts. Each one drives the mini engine's own
 * `Run` for exactly one superstep, restored from (and saved back to) the machine's context: the
 * scheduler, the joins, the Sends, the conflict check, the declaration-order merge, the atomicity, the
 * abort and the errors are the engine's code, not a copy of it. A `"nodes"` machine's step is a
 * superstep of one task, and its START the run's first routing. Only the loop between supersteps (and,
 * in a `"nodes"` machine, which state comes next) belongs to XState.
 */
import { fromPromise } from "xstate";
import {
  Run,
  verdict,
  type EventSink,
  type ExecutableGraph,
  type ObservedSettings,
  type RunSettings,
  type RunSnapshot,
  type State,
  type Verdict,
} from "../engine/_kernel.js";
import type { RouteTaken } from "../engine/index.js";
import { END, START } from "../spec.js";
import { XStateExportError } from "./errors.js";
/** Where a superstep run stands between supersteps: what the machine's context keeps (plain data). */
export type SuperstepSnapshot = RunSnapshot;

/** One node run of a superstep, as a step-by-step observer reads it. */
export interface SuperstepStep {
  readonly node: string;
  readonly update: State;
  readonly route?: string | readonly string[];
}

/** What the superstep actor is given: the run so far and its bounds. */
export interface SuperstepInput {
  readonly run: SuperstepSnapshot;
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/** What the START actor is given: the input state and the bounds. */
export interface BeginInput {
  readonly state: State;
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/**
 * What both actors resolve with: the run after the superstep, its steps in declaration order, and the
 * kernel's verdict on what follows (the end, a limit, or the next superstep), which the machine's guards read.
 */
export interface SuperstepOutput {
  readonly run: SuperstepSnapshot;
  readonly steps: readonly SuperstepStep[];
  readonly verdict: Verdict;
}

/** The actor that computes START's successors (START's router, when it has one, runs here). */
export function beginActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined, observed?: ObservedSettings) {
  return fromPromise<SuperstepOutput, BeginInput>(async ({ input }) => {
    // The machine's context holds the input checkedStart validated: Run does not validate it again.
    const run = new Run(
      graph,
      input.state,
      { ...observed, maxSteps: input.maxSteps, recursionLimit: input.recursionLimit, api, ...(signal ? { signal } : {}) },
      "checked",
    );
    await run.begin();
    return outputOf(graph, run, [], input, signal);
  });
}

/**
 * The actor that runs one superstep: every task on its own copy of the same state, the merge in
 * declaration order, then the next tasks. A failure rejects with the mini engine's error (nothing of
 * the superstep committed), which puts the machine's actor in error.
 */
export function superstepActor(
  graph: ExecutableGraph,
  api: string,
  signal: AbortSignal | undefined,
  sink: EventSink | undefined,
  maxConcurrency?: number,
  observed?: ObservedSettings,
) {
  return fromPromise<SuperstepOutput, SuperstepInput>(async ({ input }) => {
    const { maxSteps, recursionLimit } = input;
    const run = Run.restore(graph, input.run, {
      ...observed,
      maxSteps,
      recursionLimit,
      api,
      ...(signal ? { signal } : {}),
      ...(sink ? { sink } : {}),
      ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
    });
    const steps = (await run.superstepRecords()) ?? [];
    return outputOf(
      graph,
      run,
      steps.map(({ node, update, route }) => ({ node, update, ...(route === undefined ? {} : { route }) })),
      input,
      signal,
    );
  });
}

/** The run after a superstep, and what the kernel says follows it. */
function outputOf(
  graph: ExecutableGraph,
  run: Run,
  steps: readonly SuperstepStep[],
  limits: Pick<BeginInput, "maxSteps" | "recursionLimit">,
  signal: AbortSignal | undefined,
): SuperstepOutput {
  const snapshot = plain(run.snapshot());
  return { run: snapshot, steps, verdict: verdict(graph, snapshot, limits, signal) };
}

/** The run's snapshot as the machine keeps it: copies of its lists (the state is already the run's own). */
function plain(snapshot: RunSnapshot): SuperstepSnapshot {
  return {
    state: snapshot.state,
    tasks: snapshot.tasks.map((task) => ({ ...task })),
    trace: [...snapshot.trace],
    routes: snapshot.routes.map((route) => ({ ...route })),
    supersteps: snapshot.supersteps,
    joins: snapshot.joins.map((sources) => [...sources]),
    ...(snapshot.deferred === undefined ? {} : { deferred: snapshot.deferred.map((task) => ({ ...task })) }),
  };
}

/** What a node's actor is given (a `"nodes"` machine): the node, the run so far, and its bounds. */
export interface StepInput {
  readonly node: string;
  readonly state: State;
  readonly trace: readonly string[];
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/** What comes next after a source, and the route key(s) as a step reports them (a list when the router returned one). */
export interface ChosenNext {
  readonly to: string;
  readonly route?: RouteTaken;
  readonly keys?: string | readonly string[];
  /** `true` when the rule led to a node past its loop bound, and `to` is the bound's exit (the kernel's `boundedTasks` chose it). */
  readonly boundExit?: true;
}

/**
 * What a node's actor resolves with: the node's update, the merged state, what runs next, and the
 * kernel's verdict on it (a limit stops it before it starts), which the machine's guard reads.
 */
export interface StepOutput {
  readonly node: string;
  readonly update: State;
  readonly state: State;
  readonly next: ChosenNext;
  readonly verdict: Verdict;
}

/** What START's actor is given in a `"nodes"` machine. */
export interface EntryInput {
  readonly state: State;
}

/**
 * The actor that runs one node of a `"nodes"` machine: a superstep of that one task on the engine's
 * `Run` (one node per superstep, so its superstep is its position in the run). A failure rejects with
 * the mini engine's error, which puts the machine's actor in error; so does an abort, at once.
 */
export function stepActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined, sink: EventSink | undefined) {
  return fromPromise<StepOutput, StepInput>(async ({ input }) => {
    const { node, state, trace } = input;
    const snapshot: RunSnapshot = { state, tasks: [{ node, sent: false }], trace, routes: [], supersteps: trace.length, joins: [] };
    const run = Run.restore(graph, snapshot, settingsOf(input, api, signal, sink));
    const [record] = (await run.superstepRecords()) ?? [];
    const after = run.snapshot();
    const next = oneNext(graph, node, after, record?.route, api);
    return { node, update: record?.update ?? {}, state: after.state, next, verdict: verdict(graph, after, input, signal) };
  });
}

/** The actor that runs START's routing in a `"nodes"` machine (START's router, when it has one). */
export function entryActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined) {
  return fromPromise<ChosenNext, EntryInput>(async ({ input }) => {
    const run = new Run(graph, input.state, { api, ...(signal ? { signal } : {}) }, "checked");
    await run.begin();
    const after = run.snapshot();
    return oneNext(graph, START, after, after.routes[0]?.key, api);
  });
}

/**
 * The one node that runs after `source`, read from the run's next tasks. A router that starts several
 * nodes at once, none, or a node with a Send's input cannot go on in a machine with one state per
 * node: that is an {@link XStateExportError} (`SEVERAL_NEXT_NODES`) naming the fix, not a difference
 * from the mini engine.
 */
function oneNext(
  graph: ExecutableGraph,
  source: string,
  after: RunSnapshot,
  keys: string | readonly string[] | undefined,
  api: string,
): ChosenNext {
  const { tasks, routes } = after;
  const [task] = tasks;
  // A router chose as many destinations as it took routes (END included); an edge, its one destination.
  const chosen = graph.transitions.get(source)?.kind === "route" ? routes.length : 1;
  if (chosen !== 1 || tasks.length > 1 || task?.sent === true) {
    const what = chosen === 1 && task?.sent === true ? "a Send" : `${Math.max(chosen, tasks.length)} nodes at once`;
    throw new XStateExportError(
      "SEVERAL_NEXT_NODES",
      `${api}: the router after "${source}" started ${what}, and this machine has one state per node, since the graph declares no ` +
        `parallel rule. Build the machine with { layout: "supersteps" } (runOnXState takes the same option), which runs any graph.`,
      [source],
    );
  }
  const [route] = routes;
  const to = task?.node ?? END;
  // The rule's own destination; the kernel's advance sends a task past its loop bound to the bound's exit instead.
  const transition = graph.transitions.get(source);
  const intended = route?.to ?? (transition?.kind === "edge" ? transition.to : to);
  return {
    to,
    ...(route === undefined ? {} : { route }),
    ...(keys === undefined ? {} : { keys }),
    ...(to === intended ? {} : { boundExit: true as const }),
  };
}

function settingsOf(limits: StepInput, api: string, signal: AbortSignal | undefined, sink: EventSink | undefined): RunSettings {
  const { maxSteps, recursionLimit } = limits;
  return { maxSteps, recursionLimit, api, ...(signal ? { signal } : {}), ...(sink ? { sink } : {}) };
}
