/**
 * Structural equality for the values `jsonEqual` does not handle itself: the cases `isDeepStrictEqual`
 * covers (same prototype; Date, RegExp, boxed primitives, typed arrays, Map, Set, Error; own
 * enumerable string and symbol keys), written without `node:util`.
 */

type Equal = (a: unknown, b: unknown) => boolean;

/** Whether two non-null objects are structurally equal, comparing members with `equal`. */
export function structuralEqual(a: object, b: object, equal: Equal): boolean {
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return false;
  if (a instanceof Date) return Object.is((a as Date).getTime(), (b as Date).getTime()) && sameKeys(a, b, equal);
  if (a instanceof RegExp) return String(a) === String(b) && (a as RegExp).lastIndex === (b as RegExp).lastIndex && sameKeys(a, b, equal);
  if (a instanceof Error && !(a.message === (b as Error).message && a.name === (b as Error).name)) return false;
  if (isBoxed(a)) return Object.is(a.valueOf(), b.valueOf()) && sameKeys(a, b, equal);
  if (ArrayBuffer.isView(a)) return sameBytes(a, b as ArrayBufferView) && sameKeys(a, b, equal, true);
  if (a instanceof ArrayBuffer) return sameBytes(new Uint8Array(a), new Uint8Array(b as ArrayBuffer));
  if (a instanceof Map) return sameMap(a, b as Map<unknown, unknown>, equal) && sameKeys(a, b, equal);
  if (a instanceof Set) return sameSet(a, b as Set<unknown>, equal) && sameKeys(a, b, equal);
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return false;
  return sameKeys(a, b, equal);
}

function isBoxed(value: object): boolean {
  return (
    value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt || value instanceof Symbol
  );
}

/** Same own enumerable keys (strings and symbols) with equal values; `skipIndices` for typed arrays, whose elements were compared as bytes. */
function sameKeys(a: object, b: object, equal: Equal, skipIndices = false): boolean {
  const keysOf = (o: object): PropertyKey[] => {
    const strings = Object.keys(o).filter((key) => !(skipIndices && /^\d+$/.test(key)));
    const symbols = Object.getOwnPropertySymbols(o).filter((symbol) => Object.prototype.propertyIsEnumerable.call(o, symbol));
    return [...strings, ...symbols];
  };
  const keys = keysOf(a);
  if (keys.length !== keysOf(b).length) return false;
  const ra = a as Record<PropertyKey, unknown>;
  const rb = b as Record<PropertyKey, unknown>;
  return keys.every((key) => Object.prototype.propertyIsEnumerable.call(b, key) && equal(ra[key], rb[key]));
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function sameMap(a: Map<unknown, unknown>, b: Map<unknown, unknown>, equal: Equal): boolean {
  if (a.size !== b.size) return false;
  const unmatched = [...b.entries()].filter(([key]) => typeof key === "object" && key !== null);
  for (const [key, value] of a) {
    if (typeof key !== "object" || key === null) {
      if (!b.has(key) || !equal(value, b.get(key))) return false;
      continue;
    }
    const index = unmatched.findIndex(([other, otherValue]) => equal(key, other) && equal(value, otherValue));
    if (index < 0) return false;
    unmatched.splice(index, 1);
  }
  return true;
}

function sameSet(a: Set<unknown>, b: Set<unknown>, equal: Equal): boolean {
  if (a.size !== b.size) return false;
  const unmatched = [...b].filter((item) => typeof item === "object" && item !== null);
  for (const item of a) {
    if (typeof item !== "object" || item === null) {
      if (!b.has(item)) return false;
      continue;
    }
    const index = unmatched.findIndex((other) => equal(item, other));
    if (index < 0) return false;
    unmatched.splice(index, 1);
  }
  return true;
}
