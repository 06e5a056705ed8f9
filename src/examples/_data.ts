/**
 * Plain-data helpers the examples share. The examples use the public API only, and the library's own
 * copy and equality (`cloneState`, `jsonEqual`) are internals, so the examples keep these three small
 * functions for the JSON data they pass around (drafts, messages, tool arguments, provider items).
 */
import { isDeepStrictEqual } from "node:util";

/**
 * Whether a value is a plain object (`{}` or `Object.create(null)`): not an array, a Date or a class instance.
 *
 * @example
 * ```ts
 * isRecord({ city: "Tokyo" }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A deep copy of JSON data that shares nothing mutable with its source. An own `"__proto__"` key (as
 * `JSON.parse` makes from a provider's reply) stays data and never becomes the copy's prototype.
 * Anything but plain objects and arrays is copied by `structuredClone`.
 *
 * @example
 * ```ts
 * const copy = copyData({ rows: [{ city: "Tokyo" }] });
 * ```
 */
export function copyData<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copy);
  if (!isRecord(value)) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    Object.defineProperty(out, key, { value: copy(value[key]), writable: true, enumerable: true, configurable: true });
  return out;
}

/**
 * Whether two values are deeply equal as data (`isDeepStrictEqual`: key order does not matter).
 *
 * @example
 * ```ts
 * sameData({ rows: [1], notice: "x" }, { notice: "x", rows: [1] }); // true
 * ```
 */
export function sameData(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}
