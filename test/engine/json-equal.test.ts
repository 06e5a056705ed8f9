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
