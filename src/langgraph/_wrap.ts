/**
 * The graph's functions as LangGraph.js calls them. Each wrapper runs the engine's own step code
 * (runNode, chooseNext, mergeUpdate), so a node gets the same isolated copy, its update the same
 * validation and copy, and a reducer the same detached `current` on both engines.
 */
import type { ExecutableGraph } from "../engine/executable.js";
import { mergeUpdate } from "../engine/merge.js";
import type { Reducer } from "../engine/reducers.js";
import { chooseNext, isThenable, runNode, StepFailure, type NextNode, type State } from "../engine/step.js";
import { recorderOf } from "./_recorder.js";
import { LangGraphNodeError } from "./errors.js";

/** A node as LangGraph.js calls it: `(state, config)`. */
export type LangGraphNode = (state: State, config?: unknown) => State | Promise<State>;

/** A conditional edge's path function as LangGraph.js calls it; returns a route key. */
export type LangGraphPath = (state: State, config?: unknown) => string | Promise<string>;

/** Runs `node` as the mini engine does; a failure becomes a {@link LangGraphNodeError} naming the node. */
export function wrapNode(graph: ExecutableGraph, node: string): LangGraphNode {
  return (state, config) => {
    recorderOf(config)?.nodeStarted(node);
    try {
      const update = runNode(graph, node, state);
      return isThenable(update) ? Promise.resolve(update).catch((error: unknown) => rethrow(node, error)) : update;
    } catch (error) {
      return rethrow(node, error);
    }
  };
}

/**
 * The router of `source`, checked against its path map by the engine's own `chooseNext`, so an
 * unknown key fails with the mini engine's message instead of LangGraph's generic one.
 */
export function wrapRouter(graph: ExecutableGraph, source: string): LangGraphPath {
  return (state, config) => {
    const taken = (next: NextNode): string => {
      if (next.route === undefined) throw new StepFailure("UNKNOWN_ROUTE_KEY", `"${source}" has no router (the graph was not validated).`);
      recorderOf(config)?.routed(next.route);
      return next.route.key;
    };
    try {
      const next = chooseNext(graph, source, state);
      return isThenable(next) ? Promise.resolve(next).then(taken).catch((error: unknown) => rethrow(source, error)) : taken(next);
    } catch (error) {
      return rethrow(source, error);
    }
  };
}

/** A field's reducer as a LangGraph channel reducer, merged by the engine's `mergeUpdate`. */
export function wrapReducer(field: string, reducer: Reducer<unknown>): (current: unknown, update: unknown) => unknown {
  const table = new Map([[field, reducer]]);
  // mergeUpdate throws a ReducerFailure naming the field; runOnLangGraph names the node.
  return (current, update) => mergeUpdate({ [field]: current }, { [field]: update }, table)[field];
}

function rethrow(node: string, error: unknown): never {
  if (error instanceof LangGraphNodeError || !(error instanceof StepFailure)) throw error;
  throw new LangGraphNodeError(error.code, node, error.message, "cause" in error ? { cause: error.cause } : undefined);
}
