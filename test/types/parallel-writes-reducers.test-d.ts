/**
 * Parallel-write conflicts for a builder with reducers (issue 18 §3): `new StateGraph<S, Reduced>(…)`
 * names the fields that have a reducer, so the compiler reports two nodes of one superstep that both
 * surely write any other field; `new StateGraph<S>({ reducers })` alone tells it nothing, and stays silent.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { RouteError } from "../../src/builder/types.js";
import { append, END, Send, START, StateGraph, type Reducer, type ReducersFor } from "../../src/index.js";

interface S {
  count: number;
  note: string | null;
  docs: string[];
  tags?: string[];
}

const latest: Reducer<string | null> = (_current, update) => update;

const nodes = new StateGraph<S, "docs">({ reducers: { docs: append } })
  .addNode("plan", () => ({}))
  .addNode("a", (s) => ({ count: s.count + 1, docs: ["a"] }))
  .addNode("b", () => ({ count: 2, docs: ["b"] }))
  .addNode("c", () => ({ docs: ["c"] }))
  .addNode("d", () => ({ note: "d", docs: ["d"] }));

describe("a builder that names its reducer fields", () => {
  it("rejects fan-out targets that both write a field without a reducer", () => {
    // @ts-expect-error - "a" and "b" both write count, which has no reducer
    nodes.addEdge("plan", ["a", "b"]);
  });

  it("accepts fan-out targets whose only shared field has a reducer", () => {
    nodes.addEdge("plan", ["a", "c", "d"]).addEdge(["a", "c", "d"], END).addEdge(START, "plan").addEdge("b", END);
  });

  it("rejects Sends from one router to two writers of a field without a reducer, and accepts them for a reducer field", () => {
    expectTypeOf(nodes.addConditionalEdges("plan", (s) => [new Send("a", s), new Send("b", s)], ["a", "b"])).toEqualTypeOf<
      RouteError<`the router for "plan" can start "a" and "b" in one superstep, and both write "count", which has no reducer; give "count" a reducer (reducers: { count: … }), or write it from one of them`>
    >();
    nodes.addConditionalEdges("plan", (s) => [new Send("a", s), new Send("c", s)], ["a", "c"]).addEdge("a", END);
  });

  it("reports a field that loses its reducer, not one that gains it", () => {
    const both = new StateGraph<S, "docs" | "note">({ reducers: { docs: append, note: latest } })
      .addNode("x", () => ({ note: "x" }))
      .addNode("y", () => ({ note: "y", count: 1 }))
      .addNode("z", () => ({ count: 2 }));
    both.addEdge(START, ["x", "y"]);
    // @ts-expect-error - "y" and "z" both write count
    both.addEdge(START, ["y", "z"]);
  });

  it("takes exactly the reducers the type argument names", () => {
    new StateGraph<S, "docs" | "tags">({ reducers: { docs: append, tags: append } });
    // @ts-expect-error - note has a reducer but is not named
    new StateGraph<S, "docs">({ reducers: { docs: append, note: latest } });
    // @ts-expect-error - count is named but has no reducer
    new StateGraph<S, "docs" | "count">({ reducers: { docs: append } });
    // @ts-expect-error - "dcos" is not a field
    new StateGraph<S, "docs">({ reducers: { dcos: append } });
  });

  it("keeps orderedMerge, among the named fields", () => {
    new StateGraph<S, "docs">({ reducers: { docs: append }, orderedMerge: ["docs"] });
    // @ts-expect-error - count has no reducer, so no merge order to acknowledge
    new StateGraph<S, "docs">({ reducers: { docs: append }, orderedMerge: ["count"] });
  });
});

describe("a builder whose reducer fields the compiler cannot know", () => {
  it("stays silent with options alone, however the reducers are typed", () => {
    const wide: ReducersFor<S> = { docs: append };
    new StateGraph<S>({ reducers: wide })
      .addNode("a", () => ({ count: 1 }))
      .addNode("b", () => ({ count: 2 }))
      .addEdge(START, ["a", "b"]);
    new StateGraph<S>({ reducers: { docs: append } })
      .addNode("a", () => ({ count: 1 }))
      .addNode("b", () => ({ count: 2 }))
      .addEdge(START, ["a", "b"]);
  });
});
