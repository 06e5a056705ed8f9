import { describe, expect, it } from "vitest";
import { cloneState, isPlainObject } from "../../src/index.js";

describe("cloneState", () => {
  it("copies nested plain objects and arrays, sharing nothing", () => {
    const source = { a: [{ b: 1 }], c: { d: [1, 2] }, e: null, f: "x", g: undefined };
    const copy = cloneState(source);
    expect(copy).toEqual(source);
    expect(copy.a).not.toBe(source.a);
    expect(copy.a[0]).not.toBe(source.a[0]);
    expect(copy.c.d).not.toBe(source.c.d);
  });

  it("keeps an own __proto__ key as data, never as the prototype", () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = cloneState(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "x"]);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("copies null-prototype objects, Dates and Maps", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: [1] });
    const copy = cloneState({ bare, when: new Date(0), map: new Map([["k", 1]]) });
    expect(Object.getPrototypeOf(copy.bare)).toBeNull();
    expect(copy.bare.a).not.toBe(bare.a);
    expect(copy.when).toEqual(new Date(0));
    expect(copy.map.get("k")).toBe(1);
  });

  it("rejects what cannot be copied, such as functions", () => {
    expect(() => cloneState({ f: new (class { fn = () => 1; })() })).toThrow();
  });
});

describe("isPlainObject", () => {
  it.each([
    [{}, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    [new Date(), false],
    ["x", false],
  ])("%o → %s", (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});
