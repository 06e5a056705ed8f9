/**
 * The run kernel: the rules of a superstep, as pure synchronous functions over one {@link RunSnapshot}.
 *
 * A superstep is `admit` (may it start: the run's end, a join left waiting, the signal, the limits),
 * then the driver runs the admitted tasks (user code, maybe async: that is the driver's business), then
 * `commit` (the parallel-write check and the merge through the reducers, in declaration order), then the
 * driver runs the routers of the sources, then `advance` (in `advance.ts`: join arrivals,
 * de-duplication, declaration order, END dropped); a failed attempt's retry is `retry.ts`'s. The mini
 * engine's `Run`, the XState machine and the LangGraph runner are drivers: they decide *when* things
 * happen and never *what* the rules are (the shape of XState's `transition(logic, snapshot, event)`
 * and of fast-check's `RunnerIterator`).
 *
 * Nothing here copies the trace or the routes: the functions read lengths and return what a superstep
 * adds, so a run of a million steps costs a million appends, not a million copies.
 */
import type { ExecutableGraph } from "../executable.js";
import { limitMessage, type RunLimits } from "./limits.js";
import { boundedTasks, loopBoundStop, visitCounts, type BoundTable, type VisitCounts } from "./bounds.js";
import { withoutGoto } from "../command-goto.js";
import { listedParts } from "../command-list.js";
import { checkState, checkUpdate } from "./state-check.js";
import { superstepHandoff } from "./handoff.js";
import { commitUpdate, parallelWriteFailure, StepFailure, type RouteTaken, type State, type Task } from "../step.js";

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
  /**
   * Tasks of deferred nodes waiting for every other node's pending task to finish (see `defer.ts`),
   * in declaration order; absent or empty when none waits. They are not among `tasks` (nor `next`).
   */
  readonly deferred?: readonly Task[];
}

/**
 * What {@link admit} reads of a run: its snapshot's lists, and the visit counts of its bounded nodes when
 * the driver keeps them as the run goes (without them, they are counted from the trace).
 */
export type AdmitView = Pick<RunSnapshot, "tasks" | "trace" | "supersteps" | "joins"> & { readonly visits?: VisitCounts };

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
  snapshot: AdmitView,
  limits: RunLimits,
  signal: AbortSignal | undefined,
): Admission {
  const visits = snapshot.visits ?? visitCounts(graph, snapshot.trace);
  // advance already sent a task past its bound to the exit; a snapshot taken before the bound existed (an older checkpoint) is sent here.
  const tasks = boundedTasks(graph, snapshot.tasks, visits);
  const first = tasks[0];
  if (first === undefined) return joinLeftWaiting(graph, snapshot.joins) ?? { kind: "end" };
  if (signal?.aborted) return { kind: "stop", node: first.node, failure: abortedBefore(first.node, signal) };
  const bounded = loopBoundStop(graph, tasks, visits, snapshot.trace);
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
 * of the superstep. A task that handed off to the parent graph (`Command.PARENT`) ends the run instead:
 * the failure `NO_PARENT_GRAPH` carries the handoff (see `handoff.ts`).
 *
 * @example
 * ```ts
 * const committed = commit(graph, snapshot.state, tasks, updates);
 * if (!committed.ok) throw toError(committed.failure, committed.node);
 * ```
 */
export function commit(graph: ExecutableGraph, state: State, tasks: readonly Task[], updates: readonly State[]): Commit {
  // A handoff to the parent graph ends the run at this superstep, committing none of it (kernel/handoff.ts).
  const handoff = superstepHandoff(tasks, updates);
  if (handoff !== undefined) return { ok: false, ...handoff };
  let next = state;
  let writers = tasks.length > 1 ? new Map<string, string>() : undefined;
  for (let index = 0; index < tasks.length; index++) {
    const task = tasks[index] as Task;
    // A node's Command goto travels with its update; it is advance's to schedule, not a field to merge.
    // A list of Commands that wrote a field twice is several parts, merged in the list's order.
    // Indexed, and no list for a single update: `updateParts(…).entries()` allocated a list, an iterator
    // and a pair per part on every step of every run.
    const whole = withoutGoto(updates[index] as State);
    const listed = listedParts(whole);
    const count = listed?.length ?? 1;
    if (count > 1) writers ??= new Map<string, string>();
    for (let part = 0; part < count; part++) {
      let update = listed === undefined ? whole : (listed[part] as State);
      if (graph.fieldChecks !== undefined) {
        // A field schema checks the update itself, before its reducer (the whole state is checked after the merge).
        const checked = checkUpdate(graph.fieldChecks, update, task.node);
        if (!checked.ok) return { ok: false, node: task.node, failure: checked.failure };
        update = checked.update;
      }
      if (writers !== undefined) {
        const conflict = parallelWriteFailure(graph, task.node, update, writers, part > 0);
        if (conflict !== undefined) return { ok: false, node: task.node, failure: conflict };
      }
      try {
        next = commitUpdate(graph, task.node, next, update);
      } catch (failure) {
        return { ok: false, node: task.node, failure };
      }
    }
  }
  // The merged state, not each update: a reducer's update is not its field's type (append takes items).
  if (graph.stateCheck === undefined) return { ok: true, state: next };
  const sources = tasks.map((task) => task.node);
  const checked = checkState(graph.stateCheck, next, sources);
  return checked.ok ? { ok: true, state: checked.state } : { ok: false, node: sources[0] as string, failure: checked.failure };
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}
