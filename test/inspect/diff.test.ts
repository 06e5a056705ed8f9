/** diffStates: what changed between two checkpoints' states, path by path. */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { diffStates } from "../../src/inspect/diff.js";

describe("diffStates", () => {
  it("lists added, removed and changed paths, nested objects and arrays included, in key order", () => {
    expect(
      diffStates(
        { n: 1, log: ["a"], draft: { notice: "x", rows: 2 }, gone: true },
        { n: 2, log: ["a", "b"], draft: { notice: "y", rows: 2 }, fresh: null },
      ),
    ).toEqual([
      { path: "draft.notice", kind: "changed", before: "x", after: "y" },
      { path: "fresh", kind: "added", after: null },
      { path: "gone", kind: "removed", before: true },
      { path: "log[1]", kind: "added", after: "b" },
      { path: "n", kind: "changed", before: 1, after: 2 },
    ]);
  });

  it("sees a shortened array and a value that changes type", () => {
    expect(diffStates({ a: [1, 2], b: { c: 1 } }, { a: [1], b: "text" })).toEqual([
      { path: "a[1]", kind: "removed", before: 2 },
      { path: "b", kind: "changed", before: { c: 1 }, after: "text" },
    ]);
  });

  test.prop([fc.jsonValue()])("a state has no changes against itself", (state) => {
    expect(diffStates(state, structuredClone(state))).toEqual([]);
  });

  test.prop([fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue()), fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue())])(
    "no change exactly when the two states are equal as JSON (key order aside)",
    (before, after) => {
      const sorted = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(sorted)
          : typeof value === "object" && value !== null
            ? Object.fromEntries(
                Object.entries(value)
                  .sort(([a], [b]) => (a < b ? -1 : 1))
                  .map(([k, v]) => [k, sorted(v)]),
              )
            : value;
      expect(diffStates(before, after).length === 0).toBe(JSON.stringify(sorted(before)) === JSON.stringify(sorted(after)));
    },
  );
});
