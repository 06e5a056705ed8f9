/**
 * Parallel-write conflicts in `defineGraph` (issue 18 §3), by the builder's rule (`parallel-writes.ts`):
 * two nodes the declaration starts in one superstep that both surely write a field without a reducer
 * are an error on `edges` (a fan-out) or on the route (a list-form route); what the compiler cannot be
 * sure of stays silent, and the run-time check remains.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { CheckedRoutes, EdgesCheck } from "../../src/builder/define-types.js";
import type { TypeLevelError } from "../../src/builder/messages.js";
import { append, Command, defineGraph, END, route, Send, START, StateGraph, subgraph, sum, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  note: string | null;
  docs: string[];
}
const define = defineGraph<S>();
const writers = {
  plan: () => ({}),
  a: (s: S) => ({ count: s.count + 1 }),
  b: async () => ({ count: 2, note: "b" }),
  maybe: (s: S) => (s.count > 0 ? { count: 1 } : {}),
  d: () => ({ note: "d" }),
  e: () => ({ docs: ["e"] }),
  f: () => ({ docs: ["f"] }),
};
const fix = 'give "count" a reducer (reducers: { count: … }), or write it from one of them';

describe("a defineGraph fan-out", () => {
  it("rejects two targets that both write a field without a reducer", () => {
    define({
      nodes: writers,
      // @ts-expect-error - "a" and "b" both write count
      edges: [
        [START, "plan"],
        ["plan", ["a", "b"]],
        [["a", "b"], END],
        ["maybe", END],
        ["d", END],
        ["e", END],
        ["f", END],
      ],
    });
    define({
      nodes: { a: writers.a, b: writers.b },
      // @ts-expect-error - so does a fan-out from START
      edges: [
        [START, ["a", "b"]],
        [["a", "b"], END],
      ],
    });
  });

  it("reads a node's Command update as its writes (issue 35 §2)", () => {
    define({
      nodes: { a: writers.a, steer: () => new Command({ update: { count: 1 } }) },
      // @ts-expect-error - "steer" writes count through its Command, as "a" does
      edges: [
        [START, ["a", "steer"]],
        [["a", "steer"], END],
      ],
    });
  });

  it("names both nodes, the field and the fix", () => {
    type Edges = readonly [readonly [typeof START, readonly ["a", "b", typeof END]]];
    expectTypeOf<EdgesCheck<Edges, {}, {}, S, {}, typeof writers>>().toEqualTypeOf<
      TypeLevelError<`defineGraph: "a" and "b" run in one superstep (a fan-out) and both write "count", which has no reducer; ${typeof fix}`>
    >();
  });

  it("accepts targets that write different fields, or a field on some paths only, or a field with a reducer", () => {
    const edges = [
      [START, ["a", "d", "maybe"]],
      [["a", "d", "maybe"], END],
    ] as const;
    expectTypeOf(define({ nodes: { a: writers.a, d: writers.d, maybe: writers.maybe }, edges })).toEqualTypeOf<CompiledGraph<S, "a" | "d" | "maybe">>();
    const reduced = define({
      reducers: { count: sum },
      nodes: { a: writers.a, b: writers.b },
      edges: [
        [START, ["a", "b"]],
        [["a", "b"], END],
      ],
    });
    expectTypeOf(reduced).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
    // an append merge in declaration order, acknowledged
    define({
      reducers: { docs: append },
      orderedMerge: ["docs"],
      nodes: { e: writers.e, f: writers.f },
      edges: [
        [START, ["e", "f"]],
        [["e", "f"], END],
      ],
    });
  });

  it("stays silent for the sources of a join, a subgraph and a node whose update type is wide", () => {
    // "a" and "b" are a join's sources: they may arrive in different supersteps (here they do)
    define({
      nodes: { plan: writers.plan, a: writers.a, b: writers.b, d: writers.d, maybe: writers.maybe },
      edges: [
        [START, "plan"],
        ["plan", ["a", "d"]],
        ["d", "b"],
        [["a", "b"], "maybe"],
        ["maybe", END],
      ],
    });
    const child = new StateGraph<S>()
      .addNode("x", () => ({ count: 1 }))
      .addEdge(START, "x")
      .addEdge("x", END)
      .compile();
    const wide = (): Partial<S> => ({ count: 1 });
    define({
      nodes: { a: writers.a, child: subgraph(child), wide },
      edges: [
        [START, ["a", "child", "wide"]],
        [["a", "child", "wide"], END],
      ],
    });
  });
});

describe("defineGraph's reducers", () => {
  it("names fields of the state only", () => {
    define({
      // @ts-expect-error - "dcos" is not a field
      reducers: { docs: append, dcos: append },
      nodes: { e: writers.e },
      edges: [
        [START, "e"],
        ["e", END],
      ],
    });
  });
});

describe("a defineGraph list-form route", () => {
  const edges = [
    [START, "plan"],
    ["a", END],
    ["b", END],
    ["d", END],
  ] as const;
  const nodes = { plan: writers.plan, a: writers.a, b: writers.b, d: writers.d };

  it("rejects two destinations one list can hold, by name or by Send, that both write a field without a reducer", () => {
    define({
      nodes,
      edges,
      // @ts-expect-error - one list may hold "a" and "b"
      routes: { plan: route((s: S) => (s.count > 0 ? (["a", "b"] as ("a" | "b")[]) : []), ["a", "b"]) },
    });
    define({
      nodes,
      edges,
      // @ts-expect-error - Sends to "a" and "b" start both
      routes: { plan: route((s: S) => [new Send("a", s), new Send("b", s)], ["a", "b", "d"]) },
    });
  });

  it("names the route, both nodes, the field and the fix", () => {
    const both = route((s: S) => [new Send("a", s), new Send("b", s)], ["a", "b"]);
    type Checked = CheckedRoutes<S, "plan" | "a" | "b", { plan: typeof both }, {}, typeof nodes>;
    expectTypeOf<Checked["plan"]>().toExtend<
      TypeLevelError<`defineGraph: the router for "plan" can start "a" and "b" in one superstep, and both write "count", which has no reducer; ${typeof fix}`>
    >();
  });

  it("accepts lists that never hold both, destinations that write different fields, and a field with a reducer", () => {
    define({ nodes, edges, routes: { plan: route((s: S): "a"[] | "b"[] => (s.count > 0 ? ["a"] : ["b"]), ["a", "b"]) } });
    define({ nodes, edges, routes: { plan: route((s: S) => [new Send("a", s), new Send("d", s)], ["a", "d"]) } });
    define({ reducers: { count: sum }, nodes, edges, routes: { plan: route((s: S) => [new Send("a", s), new Send("b", s)], ["a", "b"]) } });
  });
});
