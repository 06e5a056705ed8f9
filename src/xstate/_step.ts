/**
 * The work an XState run does at each node, as promise actors. They call the engine's own step
 * functions (run the node, merge its update, choose what comes next), so a node behaves on XState
 * exactly as on the mini engine; only the scheduling differs.
 */
import { fromPromise } from "xstate";
import { cloneState } from "../engine/clone.js";
import type { ExecutableGraph } from "../engine/executable.js";
import { chooseNext, commitUpdate, isThenable, runNode, StepFailure, type NextNode, type State } from "../engine/step.js";
import { executionError as sharedExecutionError } from "../engine/run-checks.js";
import type { GraphExecutionError, ExecutionContext } from "../errors.js";
import { START } from "../spec.js";

/** What a node's actor is given: the node and the run so far. */
export interface StepInput {
  readonly node: string;
  readonly state: State;
  readonly trace: readonly string[];
}

/** What a node's actor resolves with: the node's update, the merged state, and what runs next. */
export interface StepOutput {
  readonly node: string;
  readonly update: State;
  readonly state: State;
  readonly next: NextNode;
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
    try {
      const next = await chooseNext(graph, node, committed);
      return { node, update, state: committed, next };
    } catch (error) {
      // As on the mini engine: the node's update is committed, the routing after it failed.
      throw executionError(api, error, { node, state: committed, trace: [...trace, node] });
    }
  });
}

/** The actor that runs START's router, when START's rule is a route. */
export function entryActor(graph: ExecutableGraph, api: string) {
  return fromPromise<NextNode, EntryInput>(async ({ input }) => {
    try {
      return await chooseNext(graph, START, input.state);
    } catch (error) {
      throw executionError(api, error, { node: START, state: input.state, trace: [] });
    }
  });
}

/** The error the mini engine raises for the same failure, with `api` naming the caller. */
export function executionError(api: string, error: unknown, context: ExecutionContext): GraphExecutionError {
  return sharedExecutionError(api, error, { node: context.node, state: cloneState(context.state), trace: [...context.trace] });
}
