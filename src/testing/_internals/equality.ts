/**
 * The equalities a reducer law can hold under. Internal to `typed-state-graph/testing`.
 * Both compare values the way `node:util`'s `isDeepStrictEqual` does: `NaN` equals `NaN`, `0` and `-0`
 * differ, key order does not matter, prototypes do.
 */
import { isDeepStrictEqual } from "node:util";
import type { LawEquality } from "../../engine/index.js";

/** `a` and `b` are the same value, compared structurally. */
export function deepEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/**
 * `a` and `b` have the same members, regardless of order and repeats. Arrays only: anything else
 * falls back to {@link deepEqual}, so a reducer that returns a non-array fails the law visibly.
 */
export function setEqual(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  const within = (items: readonly unknown[], item: unknown) => items.some((other) => deepEqual(other, item));
  return a.every((item) => within(b, item)) && b.every((item) => within(a, item));
}

/** The comparison function for an equality's name. */
export function equalityFor(equality: LawEquality): (a: unknown, b: unknown) => boolean {
  return equality === "set" ? setEqual : deepEqual;
}
