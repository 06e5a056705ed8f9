/**
 * Plain-data helpers the examples share. The examples use the public API only, and the library's own
 * copy and equality (`cloneState`, `jsonEqual`) are internals, so the examples keep these small
 * functions for the JSON data they pass around (drafts, messages, tool arguments, provider items), and
 * the JSON value types their state schemas and the agent's contracts share.
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

/** A JSON value with finite numbers only: what survives `JSON.stringify` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object with finite numbers only. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * Whether a value is JSON with finite numbers only (no `undefined`, functions, class instances or `NaN`).
 *
 * @example
 * ```ts
 * isJsonValue({ city: "Tokyo", tags: [1, 2] }); // true
 * isJsonValue({ t: Number.NaN }); // false
 * ```
 */
export function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === "boolean" || typeof value === "string") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isJsonObject(value);
}

/**
 * Whether a value is a plain JSON object with finite numbers only.
 *
 * @example
 * ```ts
 * isJsonObject({ city: "Tokyo" }); // true
 * isJsonObject(["Tokyo"]); // false
 * ```
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return isRecord(value) && Object.values(value).every(isJsonValue);
}
