/**
 * The work an XState run does at each node, as promise actors. They call the engine's own step
 * functions (run the node, merge its update, choose what comes next), so a node behaves on XState
 * exactly as on the mini engine; only the scheduling differs.
 */
import { fromPromise } from "xstate";
import { cloneState } from "../engine/clone.js";
import type { ExecutableGraph } from "../engine/executable.js";
import { commitUpdate, isThenable, runNode, StepFailure, successorsOf, type NextNode, type State } from "../engine/step.js";
import { executionError as sharedExecutionError } from "../engine/run-checks.js";
import type { GraphExecutionError, ExecutionContext } from "../errors.js";
import { START } from "../spec.js";
import { XStateExportError } from "./errors.js";

/** What a node's actor is given: the node and the run so far. */
export interface StepInput {
  readonly node: string;
  readonly state: State;
  readonly trace: readonly string[];
}

/** What comes next after a source, and the route key(s) as a step reports them (a list when the router returned one). */
export interface ChosenNext extends NextNode {
  readonly keys?: string | readonly string[];
}

/** What a node's actor resolves with: the node's update, the merged state, and what runs next. */
export interface StepOutput {
  readonly node: string;
  readonly update: State;
  readonly state: State;
  readonly next: ChosenNext;
}

/** What START's actor is given when START's rule is a route. */
export interface EntryInput {
  readonly state: State;
}

/**
 * The actor that runs one node: the node, the staged merge, then the router (once). A failure rejects
 * with the same error the mini engine raises (a `GraphExecutionError` carrying node, state and trace),
 * which puts the machine's actor in error.
 */
export function stepActor(graph: ExecutableGraph, api: string, signal: AbortSignal | undefined) {
  return fromPromise<StepOutput, StepInput>(async ({ input }) => {
    const { node, state, trace } = input;
    if (signal?.aborted) {
      const failure = new StepFailure("ABORTED", `the run was aborted before "${node}" started.`, { cause: signal.reason });
      throw executionError(api, failure, { node, state, trace });
    }
    let update: State;
    let committed: State;
    try {
      const pending = runNode(graph, node, state);
      update = isThenable(pending) ? await pending : pending;
      committed = commitUpdate(graph, node, state, update);
    } catch (error) {
      throw executionError(api, error, { node, state, trace });
    }
    // As on the mini engine: the node's update is committed, the routing after it failed.
    const next = await chooseOne(graph, node, committed, api, { node, state: committed, trace: [...trace, node] });
    return { node, update, state: committed, next };
  });
}

/** The actor that runs START's router, when START's rule is a route. */
export function entryActor(graph: ExecutableGraph, api: string) {
  return fromPromise<ChosenNext, EntryInput>(async ({ input }) =>
    chooseOne(graph, START, input.state, api, { node: START, state: input.state, trace: [] }),
  );
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
): Promise<ChosenNext> {
  let successors;
  try {
    const pending = successorsOf(graph, source, state);
    successors = isThenable(pending) ? await pending : pending;
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
