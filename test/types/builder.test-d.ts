/**
 * Compile-time guarantees of the typed builder, (a) to (e) of the core issue.
 * Each `@ts-expect-error` fails the type check if the line it guards stops being an error.
 * Message texts are asserted through the message types, not through compiler output, because
 * TS 6 and TS 7 order union members differently.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import type { CompileThis, NodeNameCheck, TopologyProblems } from "../../src/builder/types.js";
import type { Demand } from "../../src/builder/messages.js";

interface S {
  count: number;
  events: string[];
  note: string | null;
}

const base = new StateGraph<S>({ reducers: { events: append } });
const two = base.addNode("a", (s) => ({ count: s.count + 1 })).addNode("b", () => ({ note: "b" }));

describe("(a) names are checked against declared nodes", () => {
  it("accepts declared nodes, START and END", () => {
    two.addEdge(START, "a").addEdge("a", "b").addEdge("b", END);
  });

  it("rejects an edge naming an undeclared node", () => {
    // @ts-expect-error - "c" is not a declared node
    two.addEdge("a", "c");
    // @ts-expect-error - "ghost" is not a declared source
    two.addEdge("ghost", "a");
  });

  it("rejects an undeclared conditional source and path-map destination", () => {
    // @ts-expect-error - "ghost" is not a declared source
    two.addConditionalEdges("ghost", () => "x", { x: "a" });
    // @ts-expect-error - "nowhere" is not a declared destination
    two.addConditionalEdges("a", () => "x", { x: "nowhere" });
  });

  it("rejects END as a source and START as a destination", () => {
    // @ts-expect-error - END has no outgoing edges
    two.addEdge(END, "a");
    // @ts-expect-error - START cannot be a destination
    two.addEdge("a", START);
  });

  it("rejects a second rule on one source", () => {
    // @ts-expect-error - "a" already has its fixed edge
    two.addEdge("a", "b").addEdge("a", END);
  });
});

describe("(b) route keys match the path map exactly", () => {
  it("accepts a router whose keys are exactly the path map's, sync or async", () => {
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), { big: "b", small: END });
    two.addConditionalEdges("a", async (s) => (s.count > 1 ? "big" : "small"), { big: "b", small: END });
    two.addConditionalEdges("a", (s) => {
      if (s.note === null) return "none";
      return s.count > 1 ? "big" : "small";
    }, { none: END, big: "b", small: "a" });
  });

  it("rejects a router key missing from the path map", () => {
    // @ts-expect-error - the router can return "small", which the path map lacks
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), { big: "b" });
  });

  it("rejects a path-map key the router never returns", () => {
    // @ts-expect-error - the router never returns "huge"
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), { big: "b", small: END, huge: "a" });
    const paths = { big: "b", small: END, huge: "a" } as const;
    // @ts-expect-error - the router never returns "huge" (path map from a variable)
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), paths);
  });

  it("turns a router typed as plain string into an error naming the fix", () => {
    const routed = two.addConditionalEdges("a", (s) => String(s.count), { x: "b" });
    expectTypeOf(routed).toEqualTypeOf<{
      readonly "typed-state-graph error": `the router for "a" returns string; annotate its return type with a union of route keys, e.g. (s): "accept" | "revise" => …`;
    }>();
    // @ts-expect-error - the result is an error type, not a builder
    routed.addEdge("b", END);
  });
});

describe("(c) a node's update is a partial of the state", () => {
  it("accepts partial updates, nothing, and async updates inline without annotations", () => {
    base.addNode("x", (s) => ({ count: s.count + 1 }));
    base.addNode("x", () => {});
    base.addNode("x", () => ({}));
    base.addNode("x", async (s) => ({ events: [String(s.count)] }));
    base.addNode("x", (s) => (s.count > 0 ? { note: null } : { events: ["zero"] }));
  });

  it("rejects an unknown key", () => {
    // @ts-expect-error - "typo" is not a field of the state
    base.addNode("x", () => ({ count: 1, typo: true }));
    // @ts-expect-error - "typo" is not a field of the state (async)
    base.addNode("x", async () => ({ typo: true }));
  });

  it("rejects a wrong value type", () => {
    // @ts-expect-error - count is a number
    base.addNode("x", () => ({ count: "1" }));
    // @ts-expect-error - a reducer field takes a delta of its own type: string[], not string
    base.addNode("x", () => ({ events: "done" }));
  });
});

describe("(d) node names are unique and not reserved", () => {
  it("rejects a duplicate name", () => {
    // @ts-expect-error - "a" is already declared
    two.addNode("a", () => ({}));
    expectTypeOf<NodeNameCheck<"a", "a" | "b">>().toEqualTypeOf<Demand<`addNode: node "a" is already declared; choose another name`>>();
    expectTypeOf<NodeNameCheck<"c", "a" | "b">>().toEqualTypeOf<unknown>();
  });

  it("rejects START, END and the empty name", () => {
    // @ts-expect-error - START is reserved
    base.addNode(START, () => ({}));
    // @ts-expect-error - END is reserved
    base.addNode("__end__", () => ({}));
    // @ts-expect-error - empty names are not allowed
    base.addNode("", () => ({}));
    expectTypeOf<NodeNameCheck<"__end__", never>>().toEqualTypeOf<Demand<`addNode: "__end__" is reserved for END; choose another node name`>>();
  });
});

describe("(e) compile() checks exits and reachability", () => {
  const sound = two.addEdge(START, "a").addEdge("a", "b").addEdge("b", END);

  it("compiles a sound graph to a CompiledGraph of the state", () => {
    expectTypeOf(sound.compile()).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });

  it("rejects a node without an outgoing rule, naming it", () => {
    const noExit = two.addEdge(START, "a").addEdge("a", "b");
    // @ts-expect-error - "b" has no outgoing edge
    noExit.compile();
    expectTypeOf<TopologyProblems<"a" | "b", readonly [typeof START, "a"] | readonly ["a", "b"], typeof START | "a">>().toEqualTypeOf<
      `node "b" has no outgoing edge; add addEdge("b", <next node or END>) or addConditionalEdges("b", router, paths)` | `node "a" has no path to END, so a run that enters it can never finish (a closed cycle); add an exit toward END`
    >();
  });

  it("rejects a missing START edge", () => {
    const noStart = two.addEdge("a", "b").addEdge("b", END);
    // @ts-expect-error - nothing leaves START
    noStart.compile();
  });

  it("rejects a node unreachable from START, naming it", () => {
    const unreachable = two.addEdge(START, "b").addEdge("a", END).addEdge("b", END);
    // @ts-expect-error - "a" is not reachable from START
    unreachable.compile();
    type Problems = TopologyProblems<"a" | "b", readonly [typeof START, "b"] | readonly ["a", typeof END] | readonly ["b", typeof END], typeof START | "a" | "b">;
    expectTypeOf<Problems>().toEqualTypeOf<`node "a" is not reachable from START; add an edge that leads to it, or remove it`>();
  });

  it("rejects a node that cannot reach END (a closed cycle)", () => {
    const closed = two
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.count > 0 ? "loop" : "out"), { loop: "b", out: END })
      .addEdge("b", "c")
      .addEdge("c", "b");
    // @ts-expect-error - "b" and "c" can never reach END
    closed.compile();
  });

  it("accepts a cycle that can exit", () => {
    two
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addConditionalEdges("b", (s) => (s.count > 3 ? "done" : "again"), { done: END, again: "a" })
      .compile();
  });

  it("shows the problems as the text of compile()'s `this` type", () => {
    type Self = { self: true };
    type Shown = CompileThis<Self, "a", readonly [typeof START, "a"], typeof START>;
    expectTypeOf<keyof Shown>().toEqualTypeOf<"typed-state-graph error">();
    expectTypeOf<Shown["typed-state-graph error"]>().toEqualTypeOf<
      `compile(): node "a" has no outgoing edge; add addEdge("a", <next node or END>) or addConditionalEdges("a", router, paths)`
    >();
    expectTypeOf<CompileThis<Self, "a", readonly [typeof START, "a"] | readonly ["a", typeof END], typeof START | "a">>().toEqualTypeOf<Self>();
  });

  it("{ typeLevelTopology: false } skips the type-level search (run-time validation still runs)", () => {
    const noExit = two.addEdge(START, "a").addEdge("a", "b");
    expectTypeOf(noExit.compile({ typeLevelTopology: false })).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });
});

describe("composition", () => {
  it("a function can take and return a builder", () => {
    const wireExits = (builder: typeof two) => builder.addEdge(START, "a").addEdge("a", "b").addEdge("b", END);
    expectTypeOf(wireExits(two).compile()).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });
});
