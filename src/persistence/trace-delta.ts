/**
 * Small checkpoints: a stored checkpoint keeps of its trace and routes only what its superstep added,
 * plus how many of its parent's entries it shares, so the bytes written per checkpoint do not grow with
 * the thread. A read rebuilds the lists by walking the parents. Pure and store-agnostic: the SQLite,
 * memory and Postgres stores encode and rebuild with these functions, so they agree entry for entry.
 */
import type { CheckpointRoute } from "../engine/index.js";

/** The two lists a checkpoint shares with its parent. */
export interface TraceAndRoutes {
  readonly trace: readonly string[];
  readonly routes: readonly CheckpointRoute[];
}

/**
 * What a store keeps of a checkpoint's trace and routes. `parent` is the store's own key of the stored
 * checkpoint it shares entries with (SQLite: its row's `seq`), or `null` when it shares none.
 */
export interface TraceDelta<K> {
  readonly parent: K | null;
  /** How many of the parent's trace entries come first, then the entries added. */
  readonly trace: readonly [keep: number, added: readonly string[]];
  readonly routes: readonly [keep: number, added: readonly CheckpointRoute[]];
}

function sameRoute(a: CheckpointRoute, b: CheckpointRoute): boolean {
  return a.from === b.from && a.key === b.key && a.to === b.to && Object.keys(a).length === 3 && Object.keys(b).length === 3;
}

/** How many leading entries two lists share. */
function sharedPrefix<T>(parent: readonly T[], child: readonly T[], same: (a: T, b: T) => boolean): number {
  const end = Math.min(parent.length, child.length);
  let index = 0;
  while (index < end && same(parent[index] as T, child[index] as T)) index++;
  return index;
}

/**
 * The delta of `checkpoint` against its stored parent (`undefined`: none stored, so nothing is shared).
 * A superstep's checkpoint shares its parent's whole trace; a new run's shares none of it.
 *
 * @example
 * ```ts
 * deltaOf(7, { trace: ["a"], routes: [] }, { trace: ["a", "b"], routes: [] }); // { parent: 7, trace: [1, ["b"]], routes: [0, []] }
 * ```
 */
export function deltaOf<K>(key: K, parent: TraceAndRoutes | undefined, checkpoint: TraceAndRoutes): TraceDelta<K> {
  const traceKeep = parent === undefined ? 0 : sharedPrefix(parent.trace, checkpoint.trace, (a, b) => a === b);
  const routesKeep = parent === undefined ? 0 : sharedPrefix(parent.routes, checkpoint.routes, sameRoute);
  return {
    parent: traceKeep === 0 && routesKeep === 0 ? null : key,
    trace: [traceKeep, checkpoint.trace.slice(traceKeep)],
    routes: [routesKeep, checkpoint.routes.slice(routesKeep).map((route) => ({ ...route }))],
  };
}

/**
 * Rebuilds a checkpoint's lists from its chain of deltas, oldest (a root: `parent` null) first, the
 * checkpoint's own last. One pass: the work follows the deltas' sizes, never the chain's length squared.
 * Returns `undefined` when a delta keeps more entries than its parent has (a damaged chain).
 */
export function rebuild(
  chain: readonly TraceDelta<unknown>[],
  root?: TraceAndRoutes,
): { trace: string[]; routes: CheckpointRoute[] } | undefined {
  const trace: string[] = root === undefined ? [] : [...root.trace];
  const routes: CheckpointRoute[] = root === undefined ? [] : [...root.routes];
  for (const [index, delta] of chain.entries()) {
    const [traceKeep, traceAdded] = delta.trace;
    const [routesKeep, routesAdded] = delta.routes;
    // The first delta of a chain without a root shares nothing; each later one, at most what the one before holds.
    if (traceKeep > trace.length || routesKeep > routes.length || (index === 0 && root === undefined && delta.parent !== null))
      return undefined;
    trace.length = traceKeep;
    routes.length = routesKeep;
    for (const entry of traceAdded) trace.push(entry);
    for (const route of routesAdded) routes.push({ ...route });
  }
  return { trace, routes };
}

/** `[keep, added]`: a count of kept entries, then the added entries, each passing `item`. */
function isPart(entry: unknown, item: (x: unknown) => boolean): boolean {
  return (
    Array.isArray(entry) &&
    entry.length === 2 &&
    Number.isSafeInteger(entry[0]) &&
    (entry[0] as number) >= 0 &&
    Array.isArray(entry[1]) &&
    (entry[1] as unknown[]).every(item)
  );
}

const isName = (x: unknown) => typeof x === "string";
const isRoute = (x: unknown) =>
  typeof x === "object" &&
  x !== null &&
  typeof (x as CheckpointRoute).from === "string" &&
  typeof (x as CheckpointRoute).key === "string" &&
  typeof (x as CheckpointRoute).to === "string";

/** Whether `value` is a stored delta: `{ parent, trace: [keep, names], routes: [keep, routes] }`. */
export function isTraceDelta(value: unknown): value is TraceDelta<unknown> {
  if (typeof value !== "object" || value === null) return false;
  const { trace, routes } = value as { trace?: unknown; routes?: unknown };
  // Module-level checks: a history checks thousands of deltas, and closures made per call add up.
  return "parent" in value && isPart(trace, isName) && isPart(routes, isRoute);
}
