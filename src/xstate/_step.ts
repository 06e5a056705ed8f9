/**
 * The work a one-state-per-node machine does at each node, as promise actors. They drive the run
 * kernel for a superstep of one task: the kernel's abort check, the node with its context, the kernel's
 * commit, the router; so a node behaves on XState exactly as on the mini engine, and only the
 * scheduling (states and transitions) is XState's.
 */
import { fromPromise } from "xstate";
import {
  admit,
  boundedTasks,
  commit,
  executionError as sharedExecutionError,
  isThenable,
  RouterCallContext,
  runTask,
  successorsOf,
  SuperstepScope,
  TaskContext,
  unlessAborted,
  type EventSink,
  type ExecutableGraph,
  type RouteTaken,
  type State,
  verdict,
  type Verdict,
} from "../engine/_kernel.js";
import { cloneState } from "../engine/index.js";
import type { ExecutionContext, GraphExecutionError } from "../errors.js";
import { END, START } from "../spec.js";
import { XStateExportError } from "./errors.js";

/** What a node's actor is given: the node, the run so far, and its bounds. */
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
  /** `true` when the rule led to a node past its loop bound, and `to` is the bound's exit (the kernel's `boundedTasks`). */
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

/** What START's actor is given when START's rule is a route. */
export interface EntryInput {
  readonly state: State;
}

/**
 * The actor that runs one node: the node, the kernel's commit, then the router (once). A failure
 * rejects with the same error the mini engine raises (a `GraphExecutionError` carrying node, state and
 * trace), which puts the machine's actor in error. When the run's signal aborts, it rejects at once
 * with `ABORTED`, even if the node never settles.
 */
export function stepActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined, sink: EventSink | undefined) {
  return fromPromise<StepOutput, StepInput>(async ({ input }) => {
    const { node, state, trace } = input;
    // One node per superstep in this layout: the kernel admits it (the signal; its limit was checked after the node before).
    const admission = admit(graph, { tasks: [{ node, sent: false }], trace, supersteps: trace.length, joins: [] }, input, signal);
    if (admission.kind === "stop") throw executionError(api, admission.failure, { node, state, trace });
    let update: State;
    let committed: State;
    try {
      // One node per superstep in this layout: its superstep is its position in the run.
      const context = new TaskContext(new SuperstepScope(signal), node, trace.length + 1, undefined, sink);
      const pending = runTask(graph, { node, sent: false }, state, context);
      update = isThenable(pending) ? await unlessAborted(node, pending, signal) : pending;
      const merged = commit(graph, state, [{ node, sent: false }], [update]);
      if (!merged.ok) throw merged.failure;
      committed = merged.state;
    } catch (error) {
      throw executionError(api, error, { node, state, trace });
    }
    // As on the mini engine: the node's update is committed, the routing after it failed.
    const after = [...trace, node];
    const next = withinBound(graph, await chooseOne(graph, node, committed, api, { node, state: committed, trace: after }, signal), after);
    const tasks = next.to === END ? [] : [{ node: next.to, sent: false }];
    return {
      node,
      update,
      state: committed,
      next,
      verdict: verdict(graph, { tasks, trace: after, supersteps: after.length, joins: [] }, input, signal),
    };
  });
}

/** The actor that runs START's router, when START's rule is a route. */
export function entryActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined) {
  return fromPromise<ChosenNext, EntryInput>(async ({ input }) =>
    withinBound(graph, await chooseOne(graph, START, input.state, api, { node: START, state: input.state, trace: [] }, signal), []),
  );
}

/** `next`, or the exit of its node's loop bound when the run already ran that node `max` times (the kernel decides). */
function withinBound(graph: ExecutableGraph, next: ChosenNext, trace: readonly string[]): ChosenNext {
  if (next.to === END) return next;
  const tasks = [{ node: next.to, sent: false }];
  const bounded = boundedTasks(graph, tasks, trace);
  if (bounded === tasks) return next;
  return { ...next, to: bounded[0]?.node ?? END, boundExit: true };
}

/**
 * The one node that runs after `source`. A router that starts several nodes at once, none, or a node
 * with a Send's input cannot go on in a machine with one state per node: that is an
 * {@link XStateExportError} (`UNSUPPORTED_GRAPH`) naming the fix, not a difference from the mini engine.
 */
async function chooseOne(
  graph: ExecutableGraph,
  source: string,
  state: State,
  api: string,
  context: ExecutionContext,
  signal: AbortSignal | undefined,
): Promise<ChosenNext> {
  let successors;
  try {
    const pending = successorsOf(graph, source, state, new RouterCallContext(signal, source, context.trace.length, undefined));
    successors = isThenable(pending) ? await unlessAborted(source, pending, signal) : pending;
  } catch (error) {
    throw executionError(api, error, context);
  }
  const [task] = successors.tasks;
  if (successors.tasks.length !== 1 || task === undefined || task.sent) {
    const what = successors.tasks.length === 1 ? "a Send" : `${successors.tasks.length} nodes at once`;
    throw new XStateExportError(
      "UNSUPPORTED_GRAPH",
      `${api}: the router after "${source}" started ${what}, and this machine has one state per node, since the graph declares no ` +
        `parallel rule. Build the machine with { layout: "supersteps" } (runOnXState takes the same option), which runs any graph.`,
      [source],
    );
  }
  const [route] = successors.routes;
  const keys = successors.list ? successors.routes.map((r) => r.key) : route?.key;
  return { to: task.node, ...(route === undefined ? {} : { route }), ...(keys === undefined ? {} : { keys }) };
}

/** The error the mini engine raises for the same failure, with `api` naming the caller. */
export function executionError(api: string, error: unknown, context: ExecutionContext): GraphExecutionError {
  return sharedExecutionError(api, error, { node: context.node, state: cloneState(context.state), trace: [...context.trace] });
}
