/**
 * Parallel-write conflicts for a builder with reducers (issue 18 §3, issue 35 §1): `stateGraph<S>()({ reducers })`
 * (the declaration form: the state given to the first call, the options to the second) and
 * `new StateGraph<S, Reduced>(…)` tell the compiler which fields have a reducer, so it reports two nodes
 * of one superstep that both surely write any other field; `new StateGraph<S>({ reducers })` alone
 * tells it nothing, and stays silent.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { RouteError } from "../../src/builder/types.js";
import { append, END, Send, START, StateGraph, stateGraph, sum, type Reducer, type ReducersFor } from "../../src/index.js";

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

const declared = stateGraph<S>()({ reducers: { docs: append } })
  .addNode("plan", () => ({}))
  .addNode("a", (s) => ({ count: s.count + 1, docs: ["a"] }))
  .addNode("b", () => ({ count: 2, docs: ["b"] }))
  .addNode("c", () => ({ docs: ["c"] }));

describe("stateGraph<S>()({ reducers })", () => {
  it("is the builder of S", () => {
    expectTypeOf(stateGraph<S>()().addNode("x", () => ({ count: 1 })).nodes).toEqualTypeOf<readonly string[]>();
    const graph = stateGraph<S>()({ reducers: { docs: append } })
      .addNode("a", (s) => ({ count: s.count + 1 }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expectTypeOf(graph.invoke({ count: 0, note: null, docs: [] })).resolves.toHaveProperty("state").toEqualTypeOf<S>();
  });

  it("reports a fan-out whose targets both write a field without a reducer", () => {
    // @ts-expect-error - "a" and "b" both write count, which has no reducer
    declared.addEdge("plan", ["a", "b"]);
    declared.addEdge("plan", ["a", "c"]);
  });

  it("reports Sends to two writers of a field without a reducer, not of a field with one", () => {
    expectTypeOf(declared.addConditionalEdges("plan", (s) => [new Send("a", s), new Send("b", s)], ["a", "b"])).toEqualTypeOf<
      RouteError<`the router for "plan" can start "a" and "b" in one superstep, and both write "count", which has no reducer; give "count" a reducer (reducers: { count: … }), or write it from one of them`>
    >();
    declared.addConditionalEdges("plan", (s) => [new Send("a", s), new Send("c", s)], ["a", "c"]);
  });

  it("knows every field that has a reducer, the optional ones and a reducers object held in a const too", () => {
    const reducers = { count: sum, note: latest, tags: append } as const;
    const b = stateGraph<S>()({ reducers })
      .addNode("x", () => ({ count: 1, note: "x", tags: ["x"] }))
      .addNode("y", () => ({ count: 2, note: "y", tags: ["y"] }));
    b.addEdge(START, ["x", "y"]);
  });

  it("stays silent for reducers typed with the wide ReducersFor<S> (any field may have one)", () => {
    const wide: ReducersFor<S> = { docs: append };
    stateGraph<S>()({ reducers: wide })
      .addNode("a", () => ({ count: 1 }))
      .addNode("b", () => ({ count: 2 }))
      .addEdge(START, ["a", "b"]);
  });

  it("without options, no field has a reducer", () => {
    const b = stateGraph<S>()()
      .addNode("a", () => ({ docs: ["a"] }))
      .addNode("b", () => ({ docs: ["b"] }));
    // @ts-expect-error - both write docs, which has no reducer here
    b.addEdge(START, ["a", "b"]);
    // new StateGraph<S>() says the same
    const n = new StateGraph<S>()
      .addNode("a", () => ({ docs: ["a"] }))
      .addNode("b", () => ({ docs: ["b"] }));
    // @ts-expect-error - both write docs, which has no reducer here
    n.addEdge(START, ["a", "b"]);
  });

  it("rejects a reducer for a field the state lacks, beside a valid one and from a variable", () => {
    // @ts-expect-error - "dcos" is not a field of S
    stateGraph<S>()({ reducers: { docs: append, dcos: append } });
    const typo = { docs: append, dcos: append };
    // @ts-expect-error - "dcos" is not a field of S
    stateGraph<S>()({ reducers: typo });
    // @ts-expect-error - a reducer of the wrong type
    stateGraph<S>()({ reducers: { count: append } });
  });

  it("takes fields and orderedMerge among the reducers' fields", () => {
    stateGraph<S>()({ reducers: { docs: append }, orderedMerge: ["docs"], fields: ["count", "note", "docs", "tags"] });
    // @ts-expect-error - count has no reducer, so no merge order to acknowledge
    stateGraph<S>()({ reducers: { docs: append }, orderedMerge: ["count"] });
    // @ts-expect-error - the field list leaves tags out
    stateGraph<S>()({ fields: ["count", "note", "docs"] });
  });
});
