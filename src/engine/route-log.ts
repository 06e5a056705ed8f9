/**
 * Every conditional choice of a run, in order. A loop takes the same few routes again and again, so
 * the log keeps each distinct route once and a slot per choice: a million-step run's routes cost a
 * million slots, not a million objects (issue 37). The shared routes never leave the engine: callers
 * get copies ({@link RouteLog.copies}), and the run's snapshot lists them for the stores and drivers,
 * which copy or serialize what they keep.
 */
import type { RouteTaken } from "./step.js";

export class RouteLog {
  readonly #routes: RouteTaken[] = [];
  /** The distinct routes, by source and key. */
  readonly #distinct = new Map<string, Map<string, RouteTaken>>();

  get length(): number {
    return this.#routes.length;
  }

  /** Appends `route` (a copy of it is kept, shared with the earlier choices of the same route). */
  push(route: RouteTaken): void {
    let byKey = this.#distinct.get(route.from);
    if (byKey === undefined) this.#distinct.set(route.from, (byKey = new Map()));
    let known = byKey.get(route.key);
    if (known === undefined) byKey.set(route.key, (known = { ...route }));
    // A goto's key is its destination: one that shares a router's key but not its target is kept apart.
    this.#routes.push(known.to === route.to && known.goto === route.goto ? known : { ...route });
  }

  /** The routes, shared: for the run's snapshot (never mutated, never handed to a caller). */
  shared(): RouteTaken[] {
    return this.#routes.slice();
  }

  /** The routes as a caller gets them: each its own object. */
  copies(): RouteTaken[] {
    const routes = this.#routes;
    const copies = new Array<RouteTaken>(routes.length);
    for (let index = 0; index < routes.length; index++) copies[index] = { ...(routes[index] as RouteTaken) };
    return copies;
  }
}
