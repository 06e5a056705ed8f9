/**
 * The kernel's two questions for a driver whose supersteps another loop runs (the LangGraph runner:
 * LangGraph's Pregel loop announces the tasks, runs them and merges their updates), in the shape of
 * LangGraph's own `tick` / `after_tick`: {@link next} before a superstep (which tasks, in which
 * order, and whether they may start), {@link settle} after it (which failure the superstep reports,
 * else the routes it took and the updates its steps show). The driver only reads the foreign loop
 * and keeps time; every rule it applies is one of these answers.
 */
import { START } from "../../spec.js";
import { gotoRoutes } from "../command-goto.js";
import { nodeOutput, visibleUpdate } from "../command-list.js";
import type { ExecutableGraph } from "../executable.js";
import type { RouteTaken, State, Task } from "../step.js";
import { schedule } from "./advance.js";
import { superstepFailure, type TaskOutcome } from "./failures.js";
import type { RunLimits } from "./limits.js";
import { abortedWhile, admit, type Admission, type AdmitView } from "./superstep.js";

/** What {@link next} decided: run these tasks (in the kernel's order), the run's end, or a stop. */
export type Next<T extends Task> = { readonly kind: "run"; readonly tasks: T[] } | Exclude<Admission, { readonly kind: "run" }>;

/**
 * Before a superstep: the tasks the foreign loop announced, put in the order they run and merge
 * (`schedule`), and whether they may start (`admit`: a join left waiting, the signal, a loop bound,
 * `maxSteps`, `recursionLimit`). The tasks keep what the driver gave them (a foreign task's id).
 *
 * @example
 * ```ts
 * const decision = next(graph, { tasks: announced, trace, supersteps, joins: [] }, limits, signal);
 * if (decision.kind === "stop") throw toError(decision.failure, decision.node);
 * ```
 */
export function next<T extends Task>(
  graph: ExecutableGraph,
  view: Omit<AdmitView, "tasks"> & { readonly tasks: readonly T[] },
  limits: RunLimits,
  signal: AbortSignal | undefined,
): Next<T> {
  const tasks = schedule(graph, view.tasks);
  const admission = admit(graph, { ...view, tasks }, limits, signal);
  return admission.kind === "run" ? { kind: "run", tasks } : admission;
}

/** What a driver observed of one task of a superstep the foreign loop ran: its node's outcome, its router's routes, its goto. */
export interface ForeignOutcome extends TaskOutcome {
  /** The routes the router after the node took. */
  readonly routes?: readonly RouteTaken[];
  /** The tasks the node's `Command` goto added. */
  readonly goto?: readonly Task[] | undefined;
}

/**
 * What {@link settle} decided of a superstep: the failure it reports (with the node it names), if any;
 * and, in declaration order, the routes it took (each router's, then each Command goto's, as
 * `advance` records them) and the update each step shows (a list of Commands' parts together).
 */
export interface Settlement {
  readonly failed: { readonly node: string; readonly failure: unknown } | undefined;
  readonly routes: RouteTaken[];
  readonly updates: State[];
}

/**
 * After a superstep the foreign loop ran (`tasks` in declaration order, `outcomes` beside them): an
 * aborted `signal` first (the run ends naming the first task that had not finished, else the first
 * task, else START: its results are discarded), then the failure order (`superstepFailure`: a node's,
 * the merge's, a router's). The merge is replayed on `state`, the state before the superstep, when
 * given; without it (the foreign loop already merged) only the nodes' and routers' failures count.
 *
 * @example
 * ```ts
 * const settled = settle(graph, state, tasks, records, signal);
 * if (settled.failed !== undefined) throw toError(settled.failed.failure, settled.failed.node);
 * routes.push(...settled.routes);
 * ```
 */
export function settle(
  graph: ExecutableGraph,
  state: State | undefined,
  tasks: readonly Task[],
  outcomes: readonly (ForeignOutcome | undefined)[],
  signal?: AbortSignal,
): Settlement {
  const routes: RouteTaken[] = [];
  const updates: State[] = [];
  for (const [index, task] of tasks.entries()) {
    const outcome = outcomes[index];
    routes.push(...(outcome?.routes ?? []), ...gotoRoutes(task.node, outcome?.goto ?? []));
    // As a step of the mini engine shows it (visibleUpdate): the node's own object unless a list of Commands wrote parts.
    updates.push(visibleUpdate(nodeOutput(outcome?.update ?? {}).update));
  }
  return { failed: settledFailure(graph, state, tasks, outcomes, signal), routes, updates };
}

function settledFailure(
  graph: ExecutableGraph,
  state: State | undefined,
  tasks: readonly Task[],
  outcomes: readonly (ForeignOutcome | undefined)[],
  signal: AbortSignal | undefined,
): Settlement["failed"] {
  if (signal?.aborted === true) {
    const unfinished = tasks.findIndex((_, index) => outcomes[index]?.settled === undefined);
    const node = tasks[Math.max(unfinished, 0)]?.node ?? START;
    return { node, failure: abortedWhile(node, signal) };
  }
  const observed = outcomes.map((outcome) => ({
    settled: outcome?.settled,
    // Without the state before the superstep, the merge is the foreign loop's: not replayed.
    update: state === undefined ? undefined : outcome?.update,
    routerFailure: outcome?.routerFailure,
  }));
  return superstepFailure(graph, state ?? {}, tasks, observed);
}
