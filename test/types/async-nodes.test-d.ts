/**
 * An async node's update is checked as a sync node's is (issue 18 §4, a silent pass): a wrong field
 * type in a Promise was accepted, by `defineGraph` and by the builder, because the update's type
 * (`{ count?: number }`, every property optional) took a Promise, which has none of its properties,
 * inside the intersections that node parameters are. Same message as the sync node, on both compilers.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { NodeResult } from "../../src/builder/types.js";
import { Command, defineGraph, END, START, StateGraph } from "../../src/index.js";

interface S {
  count: number;
  note: string | null;
}

const define = defineGraph<S>();

describe("an async node returning a wrong field type", () => {
  it("is a compile error in defineGraph, as for a sync node", () => {
    // @ts-expect-error - count is a number
    define({ nodes: { a: async () => ({ count: "x" }) }, edges: [[START, "a"], ["a", END]] });
    // @ts-expect-error - the sync node, for comparison
    define({ nodes: { a: () => ({ count: "x" }) }, edges: [[START, "a"], ["a", END]] });
    define({
      nodes: {
        // @ts-expect-error - a node reading the state, on one path
        a: async (s) => (s.count > 0 ? { count: s.count } : { note: 1 }),
      },
      edges: [[START, "a"], ["a", END]],
    });
    // @ts-expect-error - undefined for a required field
    define({ nodes: { a: async () => ({ count: undefined }) }, edges: [[START, "a"], ["a", END]] });
  });

  it("is a compile error on addNode", () => {
    // @ts-expect-error - count is a number
    new StateGraph<S>().addNode("a", async () => ({ count: "x" }));
    // @ts-expect-error - the same through the state
    new StateGraph<S>().addNode("a", async (s) => ({ note: s.count }));
  });

  it("is told by the update type itself: a Promise is not an update", () => {
    expectTypeOf<Promise<{ count: string }>>().not.toMatchTypeOf<NodeResult<S>>();
    expectTypeOf<{ count: string }>().not.toMatchTypeOf<NodeResult<S>>();
    expectTypeOf<Promise<{ count: number }>>().toMatchTypeOf<NodeResult<S>>();
  });

  it("accepts async updates, nothing, and (on addNode) Commands", () => {
    define({
      nodes: {
        a: async (s) => ({ count: s.count + 1 }),
        b: async () => ({ note: null }),
        c: async () => {},
        e: async () => ({}),
      },
      edges: [
        [START, "a"],
        ["a", "b"],
        ["b", "c"],
        ["c", "e"],
        ["e", END],
      ],
    });
    new StateGraph<S>()
      .addNode("a", async (s) => ({ count: s.count + 1 }))
      .addNode("b", async () => ({ note: "b" }))
      .addNode("c", async () => undefined)
      .addNode("d", async () => new Command({ update: { count: 0 } }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", "d")
      .addEdge("d", END)
      .compile();
  });
});
