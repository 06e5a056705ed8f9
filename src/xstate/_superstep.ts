/**
 * The work a superstep machine does, as promise actors. Each one drives the mini engine's own `Run`
 * for exactly one superstep, restored from (and saved back to) the machine's context: the scheduler,
 * the joins, the Sends, the conflict check, the declaration-order merge, the atomicity and the errors
 * are the engine's code, not a copy of it. Only the loop between supersteps belongs to XState.
 */
import { fromPromise } from "xstate";
import {
  Run,
  verdict,
  type EventSink,
  type ExecutableGraph,
  type ObservedSettings,
  type RunSnapshot,
  type State,
  type Verdict,
} from "../engine/_kernel.js";
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
    const run = new Run(graph, input.state, {
      ...observed,
      maxSteps: input.maxSteps,
      recursionLimit: input.recursionLimit,
      api,
      ...(signal ? { signal } : {}),
    });
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
  };
}
