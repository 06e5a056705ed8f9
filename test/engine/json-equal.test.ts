import { fc, test } from "@fast-check/vitest";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { jsonEqual } from "../../src/engine/index.js";

describe("jsonEqual", () => {
  it.each([
    [{ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[0], [-0], false],
    [Number.NaN, Number.NaN, true],
    [[1, 2], { 0: 1, 1: 2 }, false],
    [new Date(0), new Date(0), true],
    [new Date(0), new Date(1), false],
  ])("%j vs %j → %s, as isDeepStrictEqual", (a, b, expected) => {
    expect(jsonEqual(a, b)).toBe(expected);
    expect(isDeepStrictEqual(a, b)).toBe(expected);
  });
});

test.prop([fc.jsonValue(), fc.jsonValue()])("agrees with isDeepStrictEqual on JSON values", (a, b) => {
  expect(jsonEqual(a, b)).toBe(isDeepStrictEqual(a, b));
  expect(jsonEqual(a, structuredClone(a))).toBe(true);
});

describe("jsonEqual on values beyond JSON (no node:util in the core)", () => {
  it.each([
    [new Map([["a", [1]]]), new Map([["a", [1]]])],
    [new Map([["a", [1]]]), new Map([["a", [2]]])],
    [new Set([1, { a: 2 }]), new Set([1, { a: 2 }])],
    [new Set([1, { a: 2 }]), new Set([1, { a: 3 }])],
    [new Uint8Array([1, 2]), new Uint8Array([1, 2])],
    [new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    [/a/g, /a/g],
    [/a/g, /a/i],
    [Object.create(null), {}],
    [
      new (class A {
        x = 1;
      })(),
      { x: 1 },
    ],
  ])("%o vs %o, as isDeepStrictEqual", (a, b) => {
    expect(jsonEqual(a, b)).toBe(isDeepStrictEqual(a, b));
  });
});

test.prop([
  fc.anything({
    withMap: true,
    withSet: true,
    withDate: true,
    withTypedArray: true,
    withNullPrototype: true,
    withBoxedValues: true,
    withSparseArray: true,
  }),
])("a value equals its structured clone, as isDeepStrictEqual says", (a) => {
  let copy: unknown;
  try {
    copy = structuredClone(a);
  } catch {
    return; // what structuredClone refuses has no clone to compare
  }
  // One divergence, on purpose: Node 20's isDeepStrictEqual calls two invalid Dates unequal (it compares
  // getTime() with ===, and NaN !== NaN); jsonEqual compares with Object.is, so a value equals its copy.
  fc.pre(!holdsInvalidDate(a, new Set()));
  expect(jsonEqual(a, copy)).toBe(isDeepStrictEqual(a, copy));
});

it("calls a value holding an invalid Date equal to its copy (where Node 20's isDeepStrictEqual says not)", () => {
  const value = [{ at: new Date(Number.NaN) }];
  expect(jsonEqual(value, structuredClone(value))).toBe(true);
  expect(jsonEqual(new Date(Number.NaN), new Date(0))).toBe(false);
});

/** Whether `value` holds a Date whose time is NaN anywhere inside (objects, arrays, Maps, Sets). */
function holdsInvalidDate(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value !== "object" || seen.has(value)) return false;
  seen.add(value);
  if (value instanceof Date) return Number.isNaN(value.getTime());
  const members = value instanceof Map ? [...value.keys(), ...value.values()] : value instanceof Set ? [...value] : Object.values(value);
  return members.some((member) => holdsInvalidDate(member, seen));
}
