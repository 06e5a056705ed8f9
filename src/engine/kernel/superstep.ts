/**
 * The run kernel: the rules of a superstep, as pure synchronous functions over one {@link RunSnapshot}.
 *
 * A superstep is `admit` (may it start: the run's end, a join left waiting, the signal, the limits),
 * then the driver runs the admitted tasks (user code, maybe async: that is the driver's business), then
 * `commit` (the parallel-write check and the merge through the reducers, in declaration order), then the
 * driver runs the routers of the sources, then `advance` (join arrivals, de-duplication, declaration
 * order, END dropped). The mini engine's `Run`, the XState machine and the LangGraph runner are drivers:
 * they decide *when* things happen and never *what* the rules are (the shape of XState's
 * `transition(logic, snapshot, event)` and of fast-check's `RunnerIterator`).
 *
 * Nothing here copies the trace or the routes: the functions read lengths and return what a superstep
 * adds, so a run of a million steps costs a million appends, not a million copies.
 */
import { END } from "../../spec.js";
import { INVALID_UPDATE_CODES } from "../../errors.js";
import type { ExecutableGraph } from "../executable.js";
import { limitMessage, type RunLimits } from "./limits.js";
import { boundedTasks, loopBoundStop, type BoundTable } from "./bounds.js";
import { NodePaused } from "../node-paused.js";
import { INTERRUPT_ERROR_CODES } from "../interrupt-codes.js";
import type { ResolvedRetry } from "../policies.js";
import { gotoRoutes, withoutGoto } from "../command-goto.js";
import { checkState } from "./state-check.js";
import { commitUpdate, parallelWriteFailure, StepFailure, type RouteTaken, type State, type Successors, type Task } from "../step.js";

/**
 * Where a run stands between two supersteps: everything it needs to continue exactly there. A
 * checkpoint is this plus its metadata; the XState machine's context carries it too.
 */
export interface RunSnapshot<S extends object = State> {
  /** The committed state. Never mutated: merging builds a new one. */
  readonly state: S;
  /** The tasks of the next superstep, in declaration order (Sends keep their input); empty once the run is over. */
  readonly tasks: readonly Task[];
  /** The nodes the run completed, in order. */
  readonly trace: readonly string[];
  /** Every conditional choice of the run so far, START's included. */
  readonly routes: readonly RouteTaken[];
  /** Supersteps completed (what `recursionLimit` counts). */
  readonly supersteps: number;
  /** For each join, in declaration order: the sources that arrived since it last fired, in arrival order. */
  readonly joins: readonly (readonly string[])[];
}

/** The verdict of {@link admit}. */
export type Admission =
  | { readonly kind: "run"; readonly tasks: readonly Task[] }
  /** No task is left and no join waits: the run reached END. */
  | { readonly kind: "end" }
  /**
   * The superstep may not start. `node` is where the run stopped (the first node not started, or the
   * join's target); `bound` says which limit, when a limit stopped it.
   */
  | { readonly kind: "stop"; readonly node: string; readonly failure: StepFailure; readonly bound?: keyof RunLimits };

/**
 * Whether the next superstep may start. Checked in this order: the run is over (or a join was left
 * waiting: `JOIN_INCOMPLETE`), the signal (`ABORTED`), a node's loop bound without an exit
 * (`LOOP_BOUND`), `maxSteps` (the node named is the first that would exceed it), `recursionLimit`.
 *
 * @example
 * ```ts
 * const admission = admit(graph, snapshot, { maxSteps: 30, recursionLimit: 30 }, signal);
 * if (admission.kind === "run") runTasks(admission.tasks);
 * ```
 */
export function admit(
  graph: Pick<ExecutableGraph, "joins"> & BoundTable,
  snapshot: Pick<RunSnapshot, "tasks" | "trace" | "supersteps" | "joins">,
  limits: RunLimits,
  signal: AbortSignal | undefined,
): Admission {
  // advance already sent a task past its bound to the exit; a snapshot taken before the bound existed (an older checkpoint) is sent here.
  const tasks = boundedTasks(graph, snapshot.tasks, snapshot.trace);
  const first = tasks[0];
  if (first === undefined) return joinLeftWaiting(graph, snapshot.joins) ?? { kind: "end" };
  if (signal?.aborted) return { kind: "stop", node: first.node, failure: abortedBefore(first.node, signal) };
  const bounded = loopBoundStop(graph, tasks, snapshot.trace);
  if (bounded !== undefined) return { kind: "stop", ...bounded };
  // maxSteps first: in a sequential graph both limits fall on the same superstep, and maxSteps is the one the caller set.
  const room = limits.maxSteps - snapshot.trace.length;
  if (tasks.length > room) {
    const node = (tasks[Math.max(room, 0)] as Task).node;
    return {
      kind: "stop",
      node,
      bound: "maxSteps",
      failure: new StepFailure("STEP_LIMIT", limitMessage("maxSteps", limits.maxSteps, node)),
    };
  }
  if (snapshot.supersteps >= limits.recursionLimit) {
    const failure = new StepFailure("STEP_LIMIT", limitMessage("recursionLimit", limits.recursionLimit, first.node));
    return { kind: "stop", node: first.node, bound: "recursionLimit", failure };
  }
  return { kind: "run", tasks };
}

/**
 * What follows a superstep, for a driver that keeps the loop between supersteps itself (the XState
 * machine): `end` (no task left, no join waiting), `limit` (a bound stops the next superstep before
 * `node`), or `continue`: the next superstep is asked for, and its own {@link admit} reports whatever
 * else stops it (a join left waiting, the signal), so an aborted run reports `ABORTED`, never the limit.
 *
 * @example
 * ```ts
 * const next = verdict(graph, snapshot, limits, signal);
 * if (next.kind === "limit") stopBefore(next.node, next.bound);
 * ```
 */
export function verdict(
  graph: Pick<ExecutableGraph, "joins"> & BoundTable,
  snapshot: Pick<RunSnapshot, "tasks" | "trace" | "supersteps" | "joins">,
  limits: RunLimits,
  signal: AbortSignal | undefined,
): Verdict {
  const admission = admit(graph, snapshot, limits, signal);
  if (admission.kind === "end") return admission;
  if (admission.kind === "stop" && admission.bound !== undefined) return { kind: "limit", bound: admission.bound, node: admission.node };
  return { kind: "continue" };
}

/** The verdict of {@link verdict}. */
export type Verdict =
  | { readonly kind: "end" }
  | { readonly kind: "limit"; readonly bound: keyof RunLimits; readonly node: string }
  | { readonly kind: "continue" };

/**
 * The most supersteps a run under `limits` can start: each runs at least one node, so `maxSteps`
 * bounds them as `recursionLimit` does. A foreign loop (LangGraph's) bounded one beyond it never stops
 * a run before the kernel does.
 *
 * @example
 * ```ts
 * superstepCeiling({ maxSteps: 30, recursionLimit: 25 }); // 25
 * ```
 */
export function superstepCeiling(limits: RunLimits): number {
  return Math.min(limits.maxSteps, limits.recursionLimit);
}

/**
 * A run that ends with a join still waiting took a branch that never reaches the join: the join's node
 * never ran, and ending "successfully" would hide it (the silent end LangGraph gives).
 */
function joinLeftWaiting(graph: Pick<ExecutableGraph, "joins">, joins: readonly (readonly string[])[]): Admission | undefined {
  for (const [index, arrived] of joins.entries()) {
    const join = graph.joins[index];
    if (join === undefined || arrived.length === 0) continue;
    const missing = [...join.sources].filter((source) => !arrived.includes(source));
    const failure = new StepFailure(
      "JOIN_INCOMPLETE",
      `the run ended with the join into "${join.to}" still waiting for ${quoted(missing)} (${quoted(arrived)} ran). ` +
        `A route took a branch that never reaches the join: route every branch to it, or join fewer sources.`,
    );
    return { kind: "stop", node: join.to, failure };
  }
  return undefined;
}

/** `ABORTED` before `node` started. */
export function abortedBefore(node: string, signal: AbortSignal): StepFailure {
  return new StepFailure("ABORTED", `the run was aborted before "${node}" started.`, { cause: signal.reason });
}

/** `ABORTED` while `node` (a node, or the router after it) was running: its result is discarded. */
export function abortedWhile(node: string, signal: AbortSignal): StepFailure {
  return new StepFailure("ABORTED", `the run was aborted while "${node}" was running; its result was discarded.`, { cause: signal.reason });
}

/** What {@link commit} decided: the next committed state, or the failure and the node it names. */
export type Commit =
  | { readonly ok: true; readonly state: State }
  | { readonly ok: false; readonly node: string; readonly failure: unknown };

/**
 * Merges a superstep's updates into the committed state, in declaration order (the tasks' order), and
 * returns the next committed state. All or nothing: a second write to a field without a reducer
 * (`INVALID_UPDATE`), a reducer that throws (`REDUCER_FAILED`) or, with a state schema, a merged state
 * the schema refuses (`INVALID_STATE`; `INVALID_INPUT` for START's, a thread's input) commits no update
 * of the superstep.
 *
 * @example
 * ```ts
 * const committed = commit(graph, snapshot.state, tasks, updates);
 * if (!committed.ok) throw toError(committed.failure, committed.node);
 * ```
 */
export function commit(graph: ExecutableGraph, state: State, tasks: readonly Task[], updates: readonly State[]): Commit {
  let next = state;
  const writers = tasks.length > 1 ? new Map<string, string>() : undefined;
  for (let index = 0; index < tasks.length; index++) {
    const task = tasks[index] as Task;
    // A node's Command goto travels with its update; it is advance's to schedule, not a field to merge.
    const update = withoutGoto(updates[index] as State);
    if (writers !== undefined) {
      const conflict = parallelWriteFailure(graph, task.node, update, writers);
      if (conflict !== undefined) return { ok: false, node: task.node, failure: conflict };
    }
    try {
      next = commitUpdate(graph, task.node, next, update);
    } catch (failure) {
      return { ok: false, node: task.node, failure };
    }
  }
  // The merged state, not each update: a reducer's update is not its field's type (append takes items).
  if (graph.stateCheck === undefined) return { ok: true, state: next };
  const sources = tasks.map((task) => task.node);
  const checked = checkState(graph.stateCheck, next, sources);
  return checked.ok ? { ok: true, state: checked.state } : { ok: false, node: sources[0] as string, failure: checked.failure };
}

/**
 * A source that ran, and what its rule leads to (`undefined` for a join's source: the join decides),
 * plus the tasks its `Command` goto added, which run whatever its rule says.
 */
export interface Arrival {
  readonly source: string;
  readonly successors: Successors | undefined;
  readonly goto?: readonly Task[] | undefined;
}

/** What {@link advance} decided: the next superstep's tasks, the joins' arrivals, and the routes taken. */
export interface Advance {
  readonly tasks: Task[];
  readonly joins: (readonly string[])[];
  /** Every route taken, in the sources' order. */
  readonly routes: readonly RouteTaken[];
  /** Per arrival: the route key(s) its router took (a list when it returned a list), or `undefined`. */
  readonly keys: readonly (string | string[] | undefined)[];
}

/** The keys of one arrival that took no route (every step of a chain): one list for all. */
const NO_KEY: readonly (string | string[] | undefined)[] = [undefined];

/**
 * The next superstep's tasks, from what each source of the last one leads to: joins whose sources have
 * all arrived fire, END is dropped, plain tasks are de-duplicated (Sends never are), and the result is
 * sorted in declaration order (stably: Sends to one node keep their order). Given the run's `trace`
 * (the superstep just run included), a task of a node whose loop bound is reached goes to the bound's exit.
 *
 * @example
 * ```ts
 * const next = advance(graph, snapshot.joins, [{ source: "a", successors: successorsOf(graph, "a", state) }]);
 * next.tasks; // [{ node: "b", sent: false }]
 * ```
 */
export function advance(
  graph: Pick<ExecutableGraph, "order" | "joins" | "transitions"> & BoundTable,
  joins: readonly (readonly string[])[],
  arrivals: readonly Arrival[],
  trace?: readonly string[],
): Advance {
  // One source with no Command goto (every step of a sequential graph): no list to collect into.
  // A graph with loop bounds takes the general path, where the bounds are applied to the scheduled tasks.
  const only = arrivals.length === 1 && (trace === undefined || (graph.bounds?.size ?? 0) === 0) ? arrivals[0] : undefined;
  if (only?.successors !== undefined && only.goto === undefined) {
    const { successors } = only;
    return {
      tasks: schedule(graph, successors.tasks),
      joins: joins as (readonly string[])[],
      routes: successors.routes,
      keys: successors.routes.length === 0 && !successors.list ? NO_KEY : [routeKeys(successors)],
    };
  }
  const tasks: Task[] = [];
  const routes: RouteTaken[] = [];
  const keys: (string | string[] | undefined)[] = [];
  let nextJoins = joins as (readonly string[])[];
  for (const { source, successors, goto } of arrivals) {
    if (successors === undefined) {
      keys.push(undefined);
      const transition = graph.transitions.get(source);
      if (transition?.kind === "join") {
        if (nextJoins === joins) nextJoins = [...joins];
        nextJoins[transition.join] = arrive(graph, transition.join, nextJoins[transition.join] ?? [], source, tasks);
      }
    } else {
      for (const task of successors.tasks) tasks.push(task);
      keys.push(routeKeys(successors));
      for (const route of successors.routes) routes.push(route);
    }
    // LangGraph's rule: a Command goto adds destinations; the source's edge, route or join still applies.
    if (goto !== undefined) {
      tasks.push(...goto);
      routes.push(...gotoRoutes(source, goto));
    }
  }
  const scheduled = schedule(graph, tasks);
  if (trace === undefined) return { tasks: scheduled, joins: nextJoins, routes, keys };
  const bounded = boundedTasks(graph, scheduled, trace);
  return { tasks: bounded === scheduled ? scheduled : schedule(graph, bounded), joins: nextJoins, routes, keys };
}

/** The route key(s) a source's router took: a list when it returned one, else its one key, or `undefined` for no router. */
function routeKeys(successors: Successors): string | string[] | undefined {
  if (successors.list) return successors.routes.map((route) => route.key);
  return successors.routes[0]?.key;
}

/** A join source ran: the join's target is activated once every source has, and its arrivals start again. */
function arrive(
  graph: Pick<ExecutableGraph, "joins">,
  index: number,
  arrived: readonly string[],
  source: string,
  tasks: Task[],
): readonly string[] {
  const join = graph.joins[index];
  if (join === undefined) return arrived;
  const next = arrived.includes(source) ? arrived : [...arrived, source];
  if (next.length < join.sources.size) return next;
  tasks.push({ node: join.to, sent: false });
  return [];
}

/**
 * Tasks in the order they run and merge: END dropped, plain tasks de-duplicated, declaration order
 * (stable, so Sends to one node keep the order they were sent in).
 *
 * @example
 * ```ts
 * schedule(graph, [{ node: "b", sent: false }, { node: "a", sent: false }, { node: "b", sent: false }]); // a, b
 * ```
 */
export function schedule<T extends Task>(graph: Pick<ExecutableGraph, "order">, tasks: readonly T[]): T[] {
  if (tasks.length === 1) {
    const only = tasks[0] as T;
    return only.node === END ? [] : [only];
  }
  const seen = new Set<string>();
  const scheduled = tasks.filter((task) => {
    if (task.node === END) return false;
    if (task.sent) return true;
    if (seen.has(task.node)) return false;
    seen.add(task.node);
    return true;
  });
  const { order } = graph;
  // Array.prototype.sort is stable. Plain tasks come before Sends to the same node, as LangGraph runs them.
  return scheduled.sort((a, b) => (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0) || Number(a.sent) - Number(b.sent));
}

/** What {@link retryDecision} decided after a failed attempt. */
export type RetryDecision = { readonly retry: true; readonly delay: number } | { readonly retry: false };

/**
 * The codes never retried, whatever `retryOn` says: the run's own refusals and the library's usage
 * errors (an interrupt where the run cannot pause, a resume that does not fit), not the node's bad luck.
 * A second attempt reads the same state and the same options, and fails the same way. docs/engine.md
 * lists them (a test checks the list against this one).
 */
export const NEVER_RETRIED_CODES = [
  "ABORTED",
  // Every fault of an update (INVALID_UPDATE, UNDECLARED_FIELD, … CONCURRENT_WRITE).
  ...INVALID_UPDATE_CODES,
  "INVALID_INPUT",
  "INVALID_OPTION",
  "INVALID_STATE",
  "UNKNOWN_ROUTE_KEY",
  "UNDECLARED_GOTO",
  "JOIN_INCOMPLETE",
  "STEP_LIMIT",
  "LOOP_BOUND",
  // Every InterruptError: interrupt() where the run cannot pause, or a resume that does not fit.
  ...INTERRUPT_ERROR_CODES,
] as const;

const NOT_RETRIED: ReadonlySet<string> = new Set(NEVER_RETRIED_CODES);

/**
 * Whether a failed attempt is tried again, and after how long. Never without a retry policy, after
 * the last attempt, for an interrupt (the node paused: trying again cannot answer it), or for a failure
 * coded with one of {@link NEVER_RETRIED_CODES} (the run's own, or one a child graph or `interrupt()`
 * threw inside the node): `retryOn` is not asked. Otherwise `retryOn(error)` decides (`error` is what
 * the node threw, or the `NODE_TIMEOUT` failure), and the wait is
 * `initialInterval × backoffFactor^(attempt − 1)`, jittered by ±50 %, at most `maxInterval`.
 *
 * @example
 * ```ts
 * retryDecision(resolvePolicy({ retry: { jitter: false } }, undefined)?.retry, 1, failure, Math.random); // { retry: true, delay: 500 }
 * ```
 */
export function retryDecision(policy: ResolvedRetry | undefined, attempt: number, failure: unknown, random: () => number): RetryDecision {
  if (policy === undefined || attempt >= policy.maxAttempts) return { retry: false };
  const code = failure instanceof StepFailure ? failure.code : undefined;
  if (code !== undefined && NOT_RETRIED.has(code)) return { retry: false };
  const error = code === "NODE_FAILED" ? (failure as StepFailure).cause : failure;
  if (error instanceof NodePaused) return { retry: false };
  if (isCoded(error) && NOT_RETRIED.has(error.code)) return { retry: false };
  if (policy.retryOn !== undefined && !policy.retryOn(error)) return { retry: false };
  const base = Math.min(policy.maxInterval, policy.initialInterval * policy.backoffFactor ** (attempt - 1));
  const delay = policy.jitter ? Math.min(policy.maxInterval, base * (0.5 + random())) : base;
  return { retry: true, delay };
}

function isCoded(value: unknown): value is { readonly code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === "string";
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}
