import { describe, expect, it } from "vitest";
import { append, defineReducer, mergeById, reducerNameOf, replace, sum, union } from "../../src/index.js";

describe("built-in reducers", () => {
  it("append puts the update's items after the current ones, without mutating either", () => {
    const current = ["a"];
    const update = ["b", "c"];
    expect(append(current, update)).toEqual(["a", "b", "c"]);
    expect(current).toEqual(["a"]);
    expect(update).toEqual(["b", "c"]);
  });

  it("replace returns the update", () => {
    expect(replace({ a: 1 }, { b: 2 })).toEqual({ b: 2 });
  });

  it("sum adds numbers", () => {
    expect(sum(2, 3)).toBe(5);
  });

  it("union keeps the first occurrence of each member, objects compared by value", () => {
    expect(union(["a", "b"], ["b", "c", "a"])).toEqual(["a", "b", "c"]);
    expect(union([{ id: 1 }], [{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(union([1, 1], [])).toEqual([1]);
  });

  it("mergeById appends new ids and replaces existing ones in place", () => {
    const current = [
      { id: "1", text: "a" },
      { id: "2", text: "b" },
    ];
    expect(
      mergeById(current, [
        { id: "1", text: "A" },
        { id: "3", text: "c" },
      ]),
    ).toEqual([
      { id: "1", text: "A" },
      { id: "2", text: "b" },
      { id: "3", text: "c" },
    ]);
    expect(current[0]?.text).toBe("a");
  });

  it("mergeById keeps the last of repeated ids within one update", () => {
    expect(
      mergeById(
        [],
        [
          { id: 1, v: "x" },
          { id: 1, v: "y" },
        ],
      ),
    ).toEqual([{ id: 1, v: "y" }]);
  });

  it.each([
    ["append", () => append("a" as never, ["b"]), /^append: both the current value and the update must be arrays/],
    ["union", () => union(["a"], null as never), /^union: both/],
    ["sum", () => sum(1, "2" as never), /^sum: both values must be numbers/],
    ["mergeById", () => mergeById([], [{ name: "x" } as never]), /^mergeById: every item needs a string or number "id"/],
  ])("%s rejects values it cannot combine, saying what it expected", (_name, call, message) => {
    expect(call).toThrow(message);
  });

  it("each built-in carries its name and law claims", () => {
    expect([append, replace, sum, union, mergeById].map(reducerNameOf)).toEqual(["append", "replace", "sum", "union", "mergeById"]);
    expect(append.laws).toMatchObject({ associative: "deep", commutative: false, identity: { value: [] } });
    expect(sum.laws).toMatchObject({ associative: "deep", commutative: "deep", identity: { value: 0 } });
    expect(union.laws).toMatchObject({ commutative: "set" });
  });
});

describe("defineReducer", () => {
  it("attaches a name and law claims to a user reducer", () => {
    const max = defineReducer("max", (a: number, b: number) => Math.max(a, b), { associative: "deep", commutative: "deep" });
    expect(max(2, 5)).toBe(5);
    expect(reducerNameOf(max)).toBe("max");
    expect(max.laws.commutative).toBe("deep");
  });

  it("rejects a reducer that is not a function", () => {
    expect(() => defineReducer("bad", 3 as never)).toThrow(/^defineReducer: "bad" must be a function/);
  });

  it("names an anonymous reducer 'custom'", () => {
    expect(
      reducerNameOf(
        (
          () => (a: number) =>
            a
        )(),
      ),
    ).toBe("custom");
  });
});

describe("reducer edge cases found by property tests", () => {
  it("union keeps 0 and -0 apart, as it does inside objects", () => {
    expect(Object.is(union([0], [-0])[1], -0)).toBe(true);
    expect(union([-0], [0])).toHaveLength(2);
  });
});

describe("defineReducer never renames a shared reducer", () => {
  it("refuses a function that already has a name, saying how to wrap it", () => {
    expect(() => defineReducer("myAppend", append, { commutative: "set" })).toThrow(/already the reducer "append"; wrap it/);
    expect(reducerNameOf(append)).toBe("append");
  });
});
