/**
 * The three moves of a step (run a node, commit its update, choose the next node), shared by every
 * runner: the mini engine's loop and the XState machine call these same functions, so a node's update
 * is validated, copied and merged by one piece of code everywhere.
 */
import { isThenable } from "../_thenable.js";
import type { GraphExecutionCode } from "../errors.js";
import { describeValue, messageOf, quote, quoteList } from "../_describe.js";
import { cloneState, copyFailureMessage, isPlainObject } from "./clone.js";
import type { NodeContext, RouterContext } from "./context.js";
import type { ExecutableGraph, Transition } from "./executable.js";
import { mergeUpdate, ReducerFailure } from "./merge.js";
import { Send } from "./send.js";
import { commandOutput, GOTO, HANDLED, isNodeCommand } from "./command-goto.js";
import { commandListOutput, isCommandList, UPDATES } from "./command-list.js";
import { handoffOutput, HANDOFF, isParentCommand, parentCommandOf } from "./command-parent.js";
import { START } from "../spec.js";

/** A state as the engine handles it. */
export type State = Record<string, unknown>;

/** Why a step failed. Runners turn it into their own error (the mini engine: a GraphExecutionError). */
export class StepFailure extends Error {
  override readonly name = "StepFailure";
  /** Every attempt's error, when a retry policy ran the node several times. */
  attempts: readonly unknown[] | undefined;
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
  /** Set when a node's `Command` goto took it (its key is then the destination): not a router's choice. */
  readonly goto?: true;
}

/** What comes next after a source: the destination, and the route key when the rule is conditional. */
export interface NextNode {
  readonly to: string;
  readonly route?: RouteTaken;
}

/**
 * Whether a value the engine made itself (a superstep's updates, its routing, its records) is still
 * pending. The engine's own continuations are native promises, so `instanceof` answers; {@link isThenable}
 * stays for what user code returns. Why two: one `then` lookup shared by every value of a step sees
 * arrays, records and states alike, and V8 keeps such a lookup slow (megamorphic) for all of them.
 */
export function isPending<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * Runs a node on a copy of `state` (or of a Send's input) with its context, and returns its update,
 * validated and detached (the engine's own copy). Sync nodes return synchronously. Throws
 * {@link StepFailure} (`NODE_FAILED`, `INVALID_UPDATE`).
 */
export function runNode(
  graph: ExecutableGraph,
  node: string,
  state: State,
  task: Task | undefined,
  context: NodeContext,
): State | Promise<State> {
  const fn = graph.nodes.get(node) as (state: unknown, context: NodeContext) => unknown;
  let output: unknown;
  try {
    output = fn(cloneState(task?.sent ? task.input : state), context);
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
  return new StepFailure("NODE_FAILED", `node ${quote(node)} threw: ${messageOf(error)}`, { cause: error });
}

/** What a node (or its error handler) returned, as the run keeps it: validated and detached, a Command's goto under its reserved key. */
export function acceptUpdate(graph: ExecutableGraph, node: string, returned: unknown): State {
  if (isCommandList(returned) && !returned.some(isParentCommand)) {
    const accept = (command: unknown): State => acceptUpdate(graph, node, command);
    return commandListOutput(node, returned, accept, (message) => new StepFailure("INVALID_UPDATE", message));
  }
  const parent = parentCommandOf(returned);
  if (parent !== undefined) return handoffOutput(node, parent, (code, message) => new StepFailure(code, message));
  const output = isNodeCommand(returned)
    ? commandOutput(graph, node, returned, (code, message) => new StepFailure(code, message))
    : returned;
  if (output === undefined) return {};
  if (!isPlainObject(output)) {
    throw new StepFailure(
      "INVALID_UPDATE",
      `node "${node}" returned ${describeValue(output)}; a node returns a plain object of changed fields, or undefined for no change.`,
    );
  }
  const fromCommand = output !== returned;
  if (Object.hasOwn(output, HANDOFF))
    throw new StepFailure(
      "RESERVED_FIELD",
      `node "${node}" returned the field "${HANDOFF}", which is reserved for a handoff to the parent graph. Rename the field.`,
    );
  if ((!fromCommand && Object.hasOwn(output, GOTO)) || Object.hasOwn(output, HANDLED)) {
    const field = Object.hasOwn(output, HANDLED) ? HANDLED : GOTO;
    throw new StepFailure(
      "RESERVED_FIELD",
      `node "${node}" returned the field "${field}", which is reserved for ${field === GOTO ? "a Command's goto. Return new Command({ update, goto }) instead." : "the engine's mark of an error handler's update. Rename the field."}`,
    );
  }
  if (Object.hasOwn(output, UPDATES)) {
    throw new StepFailure(
      "RESERVED_FIELD",
      `node "${node}" returned the field "${UPDATES}", which is reserved for the updates of a list of Commands. Return [new Command({ update }), …] instead.`,
    );
  }
  const { fields } = graph;
  // Every step passes here: for…in over own keys allocates no list, and the list of invalid keys is
  // built only once one is found.
  let valid = true;
  for (const key in output) if (Object.hasOwn(output, key) && !isUpdateKey(key, fields, fromCommand)) valid = false;
  if (!valid || Object.getOwnPropertySymbols(output).length > 0) {
    const invalid = Object.keys(output).filter((key) => !isUpdateKey(key, fields, fromCommand));
    const named = invalid.length > 0 ? invalid.join(", ") : "symbol keys";
    throw new StepFailure(
      "UNDECLARED_FIELD",
      `node "${node}" returned fields the state does not declare: ${named}. Return only declared fields (see the \`fields\` option).`,
    );
  }
  // The node may keep a reference to what it returned; the run keeps its own copy. The message is
  // built only when the copy fails.
  try {
    return cloneState(output);
  } catch (error) {
    throw copyFailed(output, "update", "UNCOPYABLE_UPDATE", `node ${quote(node)} returned an update that cannot be kept:`, error);
  }
}

/** Whether a node's update may carry `key`: a declared field (any, when the graph declares none), or a Command's goto. */
function isUpdateKey(key: string, fields: ReadonlySet<string> | undefined, fromCommand: boolean): boolean {
  if (key === "__proto__") return false;
  if (key === GOTO) return fromCommand;
  return fields === undefined || fields.has(key);
}

/**
 * A copy of a value that enters the run (the input, an update), or the failure (`code`) naming where
 * it cannot be copied: a cycle, nesting deeper than the copy goes, a getter that throws.
 */
export function detach(value: State, root: string, code: "INVALID_INPUT" | "UNCOPYABLE_UPDATE", what: string): State {
  try {
    return cloneState(value);
  } catch (error) {
    throw copyFailed(value, root, code, what, error);
  }
}

function copyFailed(value: State, root: string, code: "INVALID_INPUT" | "UNCOPYABLE_UPDATE", what: string, error: unknown): StepFailure {
  return new StepFailure(code, `${what} ${copyFailureMessage(value, root, error)}.`, { cause: error });
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
    const what = error instanceof ReducerFailure && error.detail !== "threw" ? error.detail : `threw: ${messageOf(cause)}`;
    throw new StepFailure(
      "REDUCER_FAILED",
      `the reducer for ${quote(field)} ${what} (while merging the update of ${quote(node)}; no field was changed).`,
      { cause },
    );
  }
}

/**
 * Records which node wrote each field without a reducer in a parallel superstep, and returns the failure
 * (`CONCURRENT_WRITE`, naming the field and both nodes) when a second node writes one: one write would
 * silently win. `writers` is the superstep's own table, filled in declaration order; `sameTask` marks a
 * later part of one node's list of Commands, whose conflict names the Commands. The kernel's `commit` is
 * its only caller.
 */
export function parallelWriteFailure(
  graph: ExecutableGraph,
  node: string,
  update: State,
  writers: Map<string, string>,
  sameTask = false,
): StepFailure | undefined {
  for (const field of Object.keys(update)) {
    if (graph.reducers.has(field)) continue;
    const earlier = writers.get(field);
    if (earlier !== undefined && sameTask && earlier === node) {
      return new StepFailure(
        "CONCURRENT_WRITE",
        `node "${node}" returned several Commands that all write "${field}", and "${field}" has no reducer, so one write ` +
          `would silently win. Give "${field}" a reducer (such as append or union), or write it in one Command only.`,
      );
    }
    if (earlier !== undefined) {
      return new StepFailure(
        "CONCURRENT_WRITE",
        `"${earlier}" and "${node}" both wrote "${field}" in one superstep, and "${field}" has no reducer, so one write ` +
          `would silently win. Give "${field}" a reducer (such as append or union), or let only one of them write it.`,
      );
    }
    writers.set(field, node);
  }
  return undefined;
}

/** A node to run in the next superstep; `sent` tasks carry a Send's input instead of the state. */
export interface Task {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}

/** Everything a source leads to after a superstep: the tasks it activates and the route keys taken. */
export interface Successors {
  /** Nodes to activate (END included when a branch finishes), before joins and de-duplication. */
  readonly tasks: readonly Task[];
  readonly routes: readonly RouteTaken[];
  /** Whether the router returned a list (of keys or Sends), even of one or none. */
  readonly list: boolean;
}

/**
 * What `source` (a node or START) leads to: its fixed edge, its fan-out, its join's target (the
 * caller tracks the barrier), or its router's keys and Sends looked up in the path map. The router
 * reads a copy of the committed state. Throws {@link StepFailure} (`ROUTER_FAILED`, `UNKNOWN_ROUTE_KEY`).
 */
export function successorsOf(
  graph: ExecutableGraph,
  source: string,
  state: State,
  context: RouterContext,
): Successors | Promise<Successors> {
  const transition = graph.transitions.get(source);
  if (transition === undefined)
    throw new StepFailure("UNKNOWN_ROUTE_KEY", `"${source}" has no outgoing rule (the graph was not validated).`);
  if (transition.kind === "edge" || transition.kind === "fanOut")
    return fixedSuccessorTable(graph).get(source) ?? fixedSuccessors(transition);
  if (transition.kind === "join") return { tasks: [plainTask(graph.joins[transition.join]?.to ?? "")], routes: [], list: false };
  let chosen: unknown;
  try {
    chosen = (transition.router as (state: State, context: RouterContext) => unknown)(cloneState(state), context);
  } catch (error) {
    throw routerFailed(source, error);
  }
  if (!isThenable(chosen)) return lookUpRoutes(source, transition.paths, chosen);
  return Promise.resolve(chosen).then(
    (resolved) => lookUpRoutes(source, transition.paths, resolved),
    (error: unknown) => {
      throw routerFailed(source, error);
    },
  );
}

/**
 * What each source whose rule needs no router leads to (its edge or fan-out), by source: built once per
 * graph and shared by every run, so a driver finds a fixed edge with one lookup and a chain pays for
 * no task, list or object per step. Sources a router or a join decides are absent. Nothing mutates the
 * successors: the kernel's `advance` copies what it keeps. (Not frozen: slicing a frozen array takes
 * V8's slow path, which cost more than the allocations saved.)
 */
export function fixedSuccessorTable(graph: Pick<ExecutableGraph, "transitions">): ReadonlyMap<string, Successors> {
  const known = fixedSuccessorTables.get(graph.transitions);
  if (known !== undefined) return known;
  const table = new Map<string, Successors>();
  for (const [source, transition] of graph.transitions) {
    if (transition.kind === "edge" || transition.kind === "fanOut") table.set(source, fixedSuccessors(transition));
  }
  fixedSuccessorTables.set(graph.transitions, table);
  return table;
}

const fixedSuccessorTables = new WeakMap<ReadonlyMap<string, Transition>, ReadonlyMap<string, Successors>>();

function fixedSuccessors(transition: Extract<Transition, { kind: "edge" | "fanOut" }>): Successors {
  const targets = transition.kind === "edge" ? [transition.to] : transition.to;
  return { tasks: targets.map(plainTask), routes: NO_ROUTES, list: false };
}

const NO_ROUTES: readonly RouteTaken[] = [];

/** START as the one source a run routes before its first superstep. */
export const FROM_START: readonly Task[] = [{ node: START, sent: false }];

const plainTask = (node: string): Task => ({ node, sent: false });

function routerFailed(source: string, error: unknown): StepFailure {
  return new StepFailure("ROUTER_FAILED", `the router after ${quote(source)} threw: ${messageOf(error)}`, { cause: error });
}

function lookUpRoutes(source: string, paths: Readonly<Record<string, string>>, chosen: unknown): Successors {
  const choices = Array.isArray(chosen) ? (chosen as unknown[]) : [chosen];
  const tasks: Task[] = [];
  const routes: RouteTaken[] = [];
  for (const choice of choices) {
    const key = choice instanceof Send ? choice.node : choice;
    const to = typeof key === "string" && Object.hasOwn(paths, key) ? paths[key] : undefined;
    if (to === undefined) {
      throw new StepFailure(
        "UNKNOWN_ROUTE_KEY",
        `the router after ${quote(source)} returned ${describeChoice(choice)}, which is not a key of its path map ` +
          `(${quoteList(Object.keys(paths))}). Return a declared key or add it to the path map.`,
      );
    }
    routes.push({ from: source, key: key as string, to });
    tasks.push(choice instanceof Send ? { node: to, sent: true, input: choice.input } : plainTask(to));
  }
  return { tasks, routes, list: Array.isArray(chosen) };
}

function describeChoice(choice: unknown): string {
  // A BigInt, a Symbol, an object without a prototype: quote() says what each is, and never throws.
  return choice instanceof Send ? `Send(${quote(choice.node)})` : quote(choice);
}

// How messages show values (short, never throwing) is shared by every layer; the runners import them from here.
export { describeValue, messageOf } from "../_describe.js";
