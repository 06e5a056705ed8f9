/**
 * Type-level only: whether a type is JSON, read structurally. `JsonValue` (an index signature) is what
 * a value typed as JSON is; this is what an interface or a class whose data is JSON passes: an
 * interface has no index signature, so it is not assignable to `JsonValue`, although its values are
 * JSON. What JSON cannot carry and a type can show is refused with a sentence naming where it is:
 * functions (so methods, hence `Date`, `Map` and most class instances), symbols and symbol keys,
 * `bigint`, and `undefined` outside an object's field (JSON drops a field whose value is `undefined`,
 * and the engine accepts that, so an optional field is JSON).
 */

import type { JsonValue } from "./checkpointer.js";

/**
 * A type already JSON by assignability: {@link JsonValue} (of which it is a supertype: every `JsonValue`
 * is one) without symbol keys, which `JsonValue`'s index signature lets through in an object literal's
 * type and JSON would drop. What a generic payload (`P extends JsonValue`) is checked by, its
 * structural check ({@link JsonCheck}) being unreadable until `P` is known.
 */
export type JsonTyped =
  | null
  | boolean
  | number
  | string
  | readonly JsonTyped[]
  | { readonly [key: string]: JsonTyped; readonly [key: symbol]: never };

/** How deep the check reads: a recursive type (a tree of comments) stops there, unchecked below, never refused. */
type Depth = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * Where `T` is not JSON, one sentence per place (`payload.at.getTime is a function`), under `Path`;
 * `never` when it is. `unknown` and `any` are not read (nothing to tell).
 */
export type JsonProblems<T, Path extends string, D extends number = 9> = [D] extends [never]
  ? never
  : unknown extends T
    ? never
    : T extends string | number | boolean | null
      ? never
      : T extends bigint
        ? `${Path} is a bigint (write it as a string)`
        : T extends symbol
          ? `${Path} is a symbol`
          : T extends undefined
            ? `${Path} is undefined (use null)`
            : T extends (...args: never[]) => unknown
              ? `${Path} is a function`
              : T extends readonly (infer Item)[]
                ? JsonProblems<Item, `${Path}[…]`, Depth[D]>
                : HasHiddenMembers<T> extends true
                  ? `${Path} has private or protected members, so it is a class instance, which the thread refuses; pass its data instead`
                  : [keyof T] extends [never]
                    ? `${Path} is typed {} or object, which any value is (a Date, a Map, a function); declare its fields (Record<string, never> for an empty object)`
                    : [FunctionKeys<T>] extends [never]
                      ? {
                          [K in keyof T]-?: K extends symbol
                            ? `${Path} has a symbol key`
                            : JsonProblems<Exclude<T[K], undefined>, `${Path}.${K & (string | number)}`, Depth[D]>;
                        }[keyof T]
                      : `${Path} has function-valued members (methods, as a Date, a Map or a class instance has; pass its data instead)`;

/**
 * The keys of `T` whose value is a function: one sentence for them all, not one per method of a `Date`.
 * A field typed only `undefined` (or `never`) is no function: `Exclude` leaves `never`, which would pass
 * the function test, hence the `[X] extends [never]` guard.
 */
type FunctionKeys<T> = { [K in keyof T]-?: FunctionValued<Exclude<T[K], undefined>> extends true ? K : never }[keyof T];
type FunctionValued<X> = [X] extends [never] ? false : [X] extends [(...args: never[]) => unknown] ? true : false;

/**
 * Whether `T` has members `keyof` does not list (`private`, `protected`, `#name`): its copy through a
 * mapped type, which keeps every public member, is then not assignable back to it. Such a type is
 * nominal: no object literal is of it, so its values are class instances, which a thread refuses.
 */
type HasHiddenMembers<T> = { [K in keyof T]: T[K] } extends T ? false : true;

/**
 * `unknown` when `T` is JSON, else a required property whose name is the message, for an argument's
 * type to require (`name: string & JsonCheck<Payload, "defineInterrupt", "the payload">`): the error
 * then quotes it.
 *
 * @example
 * ```ts
 * interface ApprovalRequest { draft: string; reviewer: string; note?: string }
 * const approval = defineInterrupt<ApprovalRequest, boolean>("approval"); // ✓ an interface is JSON
 * // defineInterrupt<{ at: Date }, boolean>("when"); // ✗ the payload is not JSON: payload.at.getTime is a function …
 * ```
 */
export type JsonCheck<T, Api extends string, What extends string> =
  JsonProblems<T, "payload"> extends infer Problem extends string
    ? [Problem] extends [never]
      ? unknown
      : {
          readonly [K in `${Api}: ${What} is not JSON, so it cannot be saved with the thread: ${Problem}; use plain data (strings, numbers, booleans, null, arrays, objects)`]: never;
        }
    : unknown;
