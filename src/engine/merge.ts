import type { Reducer } from "./reducers.js";
import { append, mergeById, replace, sum, union } from "./reducers.js";
import { cloneState } from "./clone.js";

/** Field → reducer, for the fields that have one. */
export type ReducerTable = ReadonlyMap<string, Reducer<unknown>>;

// The built-ins never mutate their arguments, so the merge can skip detaching `current` for them.
const nonMutatingReducers = new Set<unknown>([append, replace, sum, union, mergeById]);

/**
 * Merges an update into a state and returns the next state; `state` itself is never modified,
 * so a reducer that throws leaves no field changed (the merge is staged).
 *
 * Rules: an omitted key keeps its value; a key with a reducer is `reducer(current, update)`, or the
 * update as it is when the state has no value there yet; any other key is replaced whole.
 * `update` must already belong to the caller (the engine passes a detached copy).
 * A reducer that throws surfaces as a {@link ReducerFailure} naming the field.
 *
 * @example
 * ```ts
 * mergeUpdate({ events: ["a"], n: 1 }, { events: ["b"] }, new Map([["events", append]]));
 * // → { events: ["a", "b"], n: 1 }
 * ```
 */
export function mergeUpdate(
  state: Readonly<Record<string, unknown>>,
  update: Readonly<Record<string, unknown>>,
  reducers: ReducerTable,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...state };
  for (const key in update) {
    const value = update[key];
    const reducer = reducers.get(key);
    const current = state[key];
    if (reducer === undefined || current === undefined) {
      next[key] = value;
    } else {
      try {
        // A user reducer gets detached values: mutating them must reach neither the committed state nor the step record.
        next[key] = nonMutatingReducers.has(reducer) ? reducer(current, value) : reducer(cloneState(current), cloneState(value));
      } catch (error) {
        throw new ReducerFailure(key, error);
      }
    }
  }
  return next;
}

/** A reducer threw; names its field. `mergeUpdate` throws it and commits nothing. */
export class ReducerFailure extends Error {
  override readonly name = "ReducerFailure";
  constructor(
    readonly field: string,
    override readonly cause: unknown,
  ) {
    super(`reducer for "${field}" failed`);
  }
}
