import { describeValue, quote } from "../_describe.js";
import { invalidArgument } from "../errors.js";
import { jsonEqual } from "./json-equal.js";

/**
 * Combines a field's current value with a node's update to that field: `reducer(current, update)`.
 * Reducers see deltas: a node returns only its new contribution, never the whole history.
 */
export type Reducer<T> = (current: T, update: T) => T;

/** The equality a law holds under: `deep` compares values, `set` compares members regardless of order and repeats. */
export type LawEquality = "deep" | "set";

/**
 * The algebraic laws a reducer claims. Property tests (`typed-state-graph/testing`) verify them.
 * A law left out is not claimed; `false` records that it is known not to hold.
 */
export interface ReducerLaws {
  readonly associative?: LawEquality | false;
  readonly commutative?: LawEquality | false;
  readonly idempotent?: LawEquality | false;
  /** An identity element `e`, as JSON: `r(e, a) = r(a, e) = a`. */
  readonly identity?: { readonly value: unknown; readonly equality: LawEquality };
}

/** Any reducer, whatever its field type: what tables of reducers hold. */
export type AnyReducer = (current: never, update: never) => unknown;

/** The metadata `defineReducer` attaches: a name for specs and the law claims. */
export interface ReducerMetadata {
  readonly reducerName: string;
  readonly laws: ReducerLaws;
}

/** A reducer with a name and law claims attached. */
export type NamedReducer<T> = Reducer<T> & ReducerMetadata;

/**
 * Attaches a name and law claims to a reducer, so specs, diagrams and property tests can read them.
 *
 * @example
 * ```ts
 * const max = defineReducer("max", (a: number, b: number) => Math.max(a, b), {
 *   associative: "deep", commutative: "deep", idempotent: "deep",
 * });
 * ```
 */
export function defineReducer<F extends AnyReducer>(name: string, reducer: F, laws: ReducerLaws = {}): F & ReducerMetadata {
  if (typeof reducer !== "function") {
    throw invalidArgument(`defineReducer: ${quote(name)} must be a function (current, update) => next; got ${describeValue(reducer)}.`);
  }
  const existing = (reducer as Partial<ReducerMetadata>).reducerName;
  if (existing !== undefined) {
    // Renaming a shared reducer (such as append) would rename it in every graph that uses it.
    throw invalidArgument(
      `defineReducer: this function is already the reducer ${quote(existing)}; wrap it to give it another name or laws: ` +
        `defineReducer(${quote(name)}, (current, update) => ${existing}(current, update), laws).`,
    );
  }
  return Object.assign(reducer, { reducerName: name, laws });
}

/**
 * The name a spec records for a reducer: its `defineReducer` name, else the function's own name, else `"custom"`.
 *
 * @example
 * ```ts
 * reducerNameOf(append); // "append"
 * ```
 */
export function reducerNameOf(reducer: AnyReducer): string {
  const named = reducer as AnyReducer & Partial<ReducerMetadata>;
  return named.reducerName ?? (reducer.name || "custom");
}

function expectArrays(api: string, current: unknown, update: unknown): void {
  if (!Array.isArray(current) || !Array.isArray(update)) {
    throw invalidArgument(
      `${api}: both the current value and the update must be arrays (got ${describe(current)} and ${describe(update)}). ` +
        `Return the new items as an array, e.g. { events: ["done"] }.`,
    );
  }
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
}

/**
 * Appends the update's items after the current ones.
 * Associative with identity `[]`; **not** commutative.
 *
 * @example
 * ```ts
 * stateGraph<{ events: string[] }>()({ reducers: { events: append } });
 * // current ["a"], update ["b"] → ["a", "b"]
 * ```
 */
export const append = defineReducer(
  "append",
  function append<T>(current: readonly T[], update: readonly T[]): T[] {
    expectArrays("append", current, update);
    return [...current, ...update];
  },
  { associative: "deep", commutative: false, idempotent: false, identity: { value: [], equality: "deep" } },
);

/**
 * Replaces the value with the update; what a field without a reducer does anyway.
 * Associative; not commutative.
 *
 * @example
 * ```ts
 * stateGraph<{ draft: string }>()({ reducers: { draft: replace } });
 * ```
 */
export const replace = defineReducer(
  "replace",
  function replace<T>(_current: T, update: T): T {
    return update;
  },
  { associative: "deep", commutative: false, idempotent: "deep" },
);

/**
 * Adds numbers. Commutative with identity `0`; associative on integers (floating-point addition rounds,
 * so `(0.1 + 0.2) + 0.3 !== 0.1 + (0.2 + 0.3)`).
 *
 * @example
 * ```ts
 * stateGraph<{ cost: number }>()({ reducers: { cost: sum } }); // 2 then { cost: 3 } → 5
 * ```
 */
export const sum = defineReducer(
  "sum",
  function sum(current: number, update: number): number {
    if (typeof current !== "number" || typeof update !== "number") {
      throw invalidArgument(`sum: both values must be numbers (got ${describe(current)} and ${describe(update)}).`);
    }
    return current + update;
  },
  { associative: "deep", commutative: "deep", idempotent: false, identity: { value: 0, equality: "deep" } },
);

/**
 * A set-like union with a stable order: the members of `current`, then the update's new members,
 * each kept once (first occurrence wins). Objects are compared by value.
 * Associative, idempotent and with identity `[]` on duplicate-free arrays; commutative as a set.
 *
 * @example
 * ```ts
 * stateGraph<{ tags: string[] }>()({ reducers: { tags: union } }); // ["a","b"] + ["b","c"] → ["a","b","c"]
 * ```
 */
export const union = defineReducer(
  "union",
  function union<T>(current: readonly T[], update: readonly T[]): T[] {
    expectArrays("union", current, update);
    const seen = new Set<unknown>();
    const objects: unknown[] = [];
    const out: T[] = [];
    for (const item of [...current, ...update]) {
      if (typeof item === "object" && item !== null) {
        if (objects.some((o) => jsonEqual(o, item))) continue;
        objects.push(item);
      } else {
        // A Set equates 0 and -0; objects are compared with Object.is semantics, so primitives are too.
        const key = Object.is(item, -0) ? negativeZero : item;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(item);
    }
    return out;
  },
  { associative: "deep", commutative: "set", idempotent: "set", identity: { value: [], equality: "set" } },
);

const negativeZero = Symbol("-0");

/** An item `mergeById` can merge: anything with a string or number `id`. */
export interface Identified {
  readonly id: string | number;
}

/**
 * Appends items, but an item whose `id` already exists replaces the old one in place
 * (the semantics of LangGraph's `add_messages`). Associative with identity `[]` on arrays with
 * unique ids, idempotent; not commutative.
 *
 * @example
 * ```ts
 * stateGraph<{ messages: { id: string; text: string }[] }>()({ reducers: { messages: mergeById } });
 * // [{id:"1",text:"a"}] + [{id:"1",text:"b"},{id:"2",text:"c"}] → [{id:"1",text:"b"},{id:"2",text:"c"}]
 * ```
 */
export const mergeById = defineReducer(
  "mergeById",
  function mergeById<T extends Identified>(current: readonly T[], update: readonly T[]): T[] {
    expectArrays("mergeById", current, update);
    const out = [...current];
    const indexById = new Map<unknown, number>();
    out.forEach((item, index) => indexById.set(idOf(item), index));
    for (const item of update) {
      const id = idOf(item);
      const index = indexById.get(id);
      if (index === undefined) {
        indexById.set(id, out.length);
        out.push(item);
      } else {
        out[index] = item;
      }
    }
    return out;
  },
  { associative: "deep", commutative: false, idempotent: "deep", identity: { value: [], equality: "deep" } },
);

function idOf(item: unknown): string | number {
  const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
  if (typeof id !== "string" && typeof id !== "number") {
    throw invalidArgument(`mergeById: every item needs a string or number "id" (got ${quote(item)}). Give each item an id.`);
  }
  return id;
}
