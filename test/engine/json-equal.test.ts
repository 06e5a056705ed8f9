import { fc, test } from "@fast-check/vitest";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { jsonEqual } from "../../src/index.js";

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
  expect(jsonEqual(a, copy)).toBe(isDeepStrictEqual(a, copy));
});
