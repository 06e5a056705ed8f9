import type { Reducer } from "./reducers.js";
import { append, mergeById, replace, sum, union } from "./reducers.js";
import { messageOf, quote } from "../_describe.js";
import { isThenable } from "../_thenable.js";
import { GraphError } from "../errors.js";
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
 * A reducer that throws (or returns a Promise) surfaces as a {@link ReducerFailure}: a `GraphError` with code
 * `REDUCER_FAILED` naming the field, the thrown value as its `cause`.
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
  // Without reducers every key is replaced: the empty table is not searched per key.
  const anyReducer = reducers.size > 0;
  // for…in with an own-property test: the same keys, in the same order, as Object.keys, without its array.
  for (const key in update) {
    if (!Object.hasOwn(update, key)) continue;
    const value = update[key];
    const reducer = anyReducer ? reducers.get(key) : undefined;
    // Own properties only: a field named "toString" or "constructor" has no value until the state gives it one.
    const current = Object.hasOwn(state, key) ? state[key] : undefined;
    setField(next, key, reducer === undefined || current === undefined ? value : reduce(key, reducer, current, value));
  }
  return next;
}

function reduce(key: string, reducer: Reducer<unknown>, current: unknown, value: unknown): unknown {
  // The built-ins never mutate nor keep their arguments; a user reducer gets detached values and its
  // result is detached too, so mutating either later reaches neither the committed state nor a step.
  const builtIn = nonMutatingReducers.has(reducer);
  let result: unknown;
  try {
    result = builtIn ? reducer(current, value) : reducer(cloneState(current), cloneState(value));
  } catch (error) {
    throw new ReducerFailure(key, error);
  }
  if (isThenable(result)) {
    // Nothing awaits it, so its rejection must not become an unhandled one.
    Promise.resolve(result).catch(() => undefined);
    throw new ReducerFailure(
      key,
      result,
      "returned a Promise; a reducer is synchronous: (current, update) => next. Do the async work in a node",
    );
  }
  if (builtIn) return result;
  try {
    return cloneState(result);
  } catch (error) {
    throw new ReducerFailure(key, error, `returned a value that cannot be kept in the state: ${messageOf(error)}`);
  }
}

function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  // Assigning "__proto__" would replace the prototype; a field of that name stays data.
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * A reducer failed; names its field. `mergeUpdate` throws it and commits nothing. `cause` is what
 * the reducer threw (or the Promise it returned); `detail` says what went wrong when it did not throw.
 */
export class ReducerFailure extends GraphError<"REDUCER_FAILED"> {
  override readonly name = "ReducerFailure";
  override readonly cause: unknown;
  constructor(
    readonly field: string,
    cause: unknown,
    readonly detail = "threw",
  ) {
    super("REDUCER_FAILED", `mergeUpdate: the reducer for ${quote(field)} ${detail === "threw" ? `threw: ${messageOf(cause)}` : detail}.`, {
      cause,
    });
    this.cause = cause;
  }
}
