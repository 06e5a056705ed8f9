/**
 * Routing a superstep for the mini engine's driver (`run.ts`): the routers of its sources, one after
 * another in declaration order (an async one continues the rest once it settles), then the kernel's
 * `advance`. The driver only calls the routers; which tasks follow is the kernel's to decide.
 */
import type { GraphError } from "../errors.js";
import { gotoOf } from "./command-goto.js";
import { unlessAborted } from "./abortable.js";
import type { ExecutableGraph } from "./executable.js";
import type { VisitCounts } from "./kernel/bounds.js";
import { advance, handledSuccessors, type Advance, type Arrival } from "./kernel/advance.js";
import type { MaybePromise } from "./maybe-promise.js";
import { isThenable } from "../_thenable.js";
import { successorsOf, type State, type Successors, type Task } from "./step.js";
import { RouterCallContext } from "./task-context.js";

/**
 * What routing reads of its run: the fixed tables, and the run's state and kernel tables as they stand
 * (read through getters, so one host serves the whole run and a superstep allocates none).
 */
export interface RouteHost {
  readonly graph: ExecutableGraph;
  /** What each source with a fixed edge or fan-out leads to: one lookup per source routed. */
  readonly fixed: ReadonlyMap<string, Successors>;
  readonly signal: AbortSignal | undefined;
  readonly threadId: string | undefined;
  readonly state: State;
  readonly supersteps: number;
  readonly joins: readonly (readonly string[])[];
  readonly visits: VisitCounts;
  readonly deferred: readonly Task[];
  /** The run's error for a router that threw or rejected. */
  fail(error: unknown, node: string): GraphError;
}

/** The routers of a superstep's sources (its tasks' nodes), then the kernel's `advance` over their arrivals. */
export function routeSources(host: RouteHost, sources: readonly Task[], updates?: readonly State[]): MaybePromise<Advance> {
  // One arrival per source, by position: sized once, never grown.
  return routeFrom(host, 0, sources, updates, new Array<Arrival>(sources.length));
}

/** The routers of `sources` from `start` on, adding to `arrivals` (no closure: a synchronous router costs no function). */
function routeFrom(
  host: RouteHost,
  start: number,
  sources: readonly Task[],
  updates: readonly State[] | undefined,
  arrivals: Arrival[],
): MaybePromise<Advance> {
  const { graph } = host;
  for (let index = start; index < sources.length; index++) {
    const source = (sources[index] as Task).node;
    const goto = gotoOf(updates?.[index]);
    const fixed = handledSuccessors(updates?.[index]) ?? host.fixed.get(source); // a handled failure: only the handler's goto
    if (fixed !== undefined) {
      arrivals[index] = { source, successors: fixed, goto };
      continue;
    }
    const transition = graph.transitions.get(source);
    // A join's source waits for the join; a node whose only rule is its ends goes where its Command says.
    if (transition?.kind === "join" || (transition === undefined && graph.ends.has(source))) {
      arrivals[index] = { source, successors: undefined, goto };
      continue;
    }
    let pending: MaybePromise<Successors>;
    try {
      pending = successorsOf(graph, source, host.state, new RouterCallContext(host.signal, source, host.supersteps, host.threadId));
    } catch (error) {
      throw host.fail(error, source);
    }
    if (isThenable(pending)) {
      return unlessAborted(source, pending, host.signal).then(
        (successors) => {
          arrivals[index] = { source, successors, goto };
          return routeFrom(host, index + 1, sources, updates, arrivals);
        },
        (error: unknown) => {
          throw host.fail(error, source);
        },
      );
    }
    arrivals[index] = { source, successors: pending, goto };
  }
  return advance(graph, host.joins, arrivals, host.visits, host.deferred);
}
