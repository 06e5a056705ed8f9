/**
 * The three moves of a step (run a node, commit its update, choose the next node), shared by every
 * runner: the mini engine's loop and the XState machine call these same functions, so a node's update
 * is validated, copied and merged by one piece of code everywhere.
 */
import type { GraphExecutionCode } from "../errors.js";
import { cloneState, isPlainObject } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import { mergeUpdate, ReducerFailure } from "./merge.js";

/** A state as the engine handles it. */
export type State = Record<string, unknown>;

/** Why a step failed. Runners turn it into their own error (the mini engine: a GraphExecutionError). */
export class StepFailure extends Error {
  override readonly name = "StepFailure";
  constructor(
    readonly code: GraphExecutionCode,
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The route a conditional edge took: the key the router returned and where it leads. */
export interface RouteTaken {
  readonly from: string;
  readonly key: string;
  readonly to: string;
}

/** What comes next after a source: the destination, and the route key when the rule is conditional. */
export interface NextNode {
  readonly to: string;
  readonly route?: RouteTaken;
}

/** Whether a value is a Promise-like; sync nodes skip the `await` and its microtask. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Runs a node on a copy of `state` and returns its update, validated and detached (the engine's own
 * copy). Sync nodes return synchronously. Throws {@link StepFailure} (`NODE_FAILED`, `INVALID_UPDATE`).
 */
export function runNode(graph: ExecutableGraph, node: string, state: State): State | Promise<State> {
  const fn = graph.nodes.get(node) as (state: State) => unknown;
  let output: unknown;
  try {
    output = fn(cloneState(state));
  } catch (error) {
    throw nodeFailed(node, error);
  }
  if (!isThenable(output)) return acceptUpdate(graph, node, output);
  return Promise.resolve(output).then(
    (resolved) => acceptUpdate(graph, node, resolved),
    (error: unknown) => {
      throw nodeFailed(node, error);
    },
  );
}

function nodeFailed(node: string, error: unknown): StepFailure {
  return new StepFailure("NODE_FAILED", `node "${node}" threw: ${messageOf(error)}`, { cause: error });
}

function acceptUpdate(graph: ExecutableGraph, node: string, output: unknown): State {
  if (output === undefined) return {};
  if (!isPlainObject(output)) {
    throw new StepFailure(
      "INVALID_UPDATE",
      `node "${node}" returned ${describeValue(output)}; a node returns a plain object of changed fields, or undefined for no change.`,
    );
  }
  const invalid = Object.keys(output).filter((key) => key === "__proto__" || (graph.fields !== undefined && !graph.fields.has(key)));
  if (invalid.length > 0 || Object.getOwnPropertySymbols(output).length > 0) {
    const named = invalid.length > 0 ? invalid.join(", ") : "symbol keys";
    throw new StepFailure(
      "INVALID_UPDATE",
      `node "${node}" returned fields the state does not declare: ${named}. Return only declared fields (see the \`fields\` option).`,
    );
  }
  // The node may keep a reference to what it returned; the run keeps its own copy.
  return cloneState(output);
}

/**
 * Merges a node's update into the committed state and returns the next committed state; `state` is
 * left untouched, so a failure commits nothing. Throws {@link StepFailure} (`REDUCER_FAILED`).
 */
export function commitUpdate(graph: ExecutableGraph, node: string, state: State, update: State): State {
  try {
    return mergeUpdate(state, update, graph.reducers);
  } catch (error) {
    const field = error instanceof ReducerFailure ? error.field : "?";
    const cause = error instanceof ReducerFailure ? error.cause : error;
    throw new StepFailure(
      "REDUCER_FAILED",
      `the reducer for "${field}" threw while merging the update of "${node}"; no field was changed. ${messageOf(cause)}`,
      { cause },
    );
  }
}

/**
 * Chooses what runs after `source` (a node or START): its fixed edge, or its router's key looked up in
 * the path map. The router reads a copy of the committed state. Throws {@link StepFailure}
 * (`ROUTER_FAILED`, `UNKNOWN_ROUTE_KEY`).
 */
export function chooseNext(graph: ExecutableGraph, source: string, state: State): NextNode | Promise<NextNode> {
  const transition = graph.transitions.get(source);
  if (transition === undefined) throw new StepFailure("UNKNOWN_ROUTE_KEY", `"${source}" has no outgoing rule (the graph was not validated).`);
  if (transition.kind === "edge") return { to: transition.to };
  let key: unknown;
  try {
    key = (transition.router as (state: State) => unknown)(cloneState(state));
  } catch (error) {
    throw routerFailed(source, error);
  }
  if (!isThenable(key)) return lookUpRoute(source, transition.paths, key);
  return Promise.resolve(key).then(
    (resolved) => lookUpRoute(source, transition.paths, resolved),
    (error: unknown) => {
      throw routerFailed(source, error);
    },
  );
}

function routerFailed(source: string, error: unknown): StepFailure {
  return new StepFailure("ROUTER_FAILED", `the router after "${source}" threw: ${messageOf(error)}`, { cause: error });
}

function lookUpRoute(source: string, paths: Readonly<Record<string, string>>, key: unknown): NextNode {
  const to = typeof key === "string" && Object.hasOwn(paths, key) ? paths[key] : undefined;
  if (to === undefined) {
    throw new StepFailure(
      "UNKNOWN_ROUTE_KEY",
      `the router after "${source}" returned ${JSON.stringify(key) ?? String(key)}, which is not a key of its path map ` +
        `(${Object.keys(paths).map((k) => JSON.stringify(k)).join(", ")}). Return a declared key or add it to the path map.`,
    );
  }
  return { to, route: { from: source, key: key as string, to } };
}

/** A short description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an instance of ${(value as object).constructor?.name ?? "an unknown class"}`;
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** The message of an unknown thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
