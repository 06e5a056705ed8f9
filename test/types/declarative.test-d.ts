/** defineGraph and bindSpec carry the builder's compile-time guarantees. */
import { describe, expectTypeOf, it } from "vitest";
import { append, bindSpec, defineGraph, END, route, Send, START, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  events: string[];
  note: string | null;
}
const define = defineGraph<S>();
const loop = route((s: S) => (s.count < 3 ? "again" : "done"), { again: "inc", done: END });

describe("defineGraph", () => {
  it("compiles a sound declaration to a CompiledGraph of the state, inferring node parameters", () => {
    const graph = define({
      reducers: { events: append },
      nodes: { inc: (s) => ({ count: s.count + 1, events: ["inc"] }), note: async () => ({ note: "done" }) },
      edges: [
        [START, "inc"],
        ["note", END],
      ],
      routes: { inc: route((s: S) => (s.count < 3 ? "again" : "done"), { again: "inc", done: "note" }) },
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "note" | "inc">>();
  });

  it("(a) rejects an edge or a route naming an undeclared node", () => {
    define({
      nodes: { inc: (s) => ({ count: s.count + 1 }) },
      // @ts-expect-error - "ghost" is not a declared node
      edges: [[START, "inc"], ["inc", "ghost"]],
    });
    define({
      nodes: { inc: (s) => ({ count: s.count + 1 }) },
      edges: [[START, "inc"]],
      // @ts-expect-error - "ghost" is not a declared route source
      routes: { ghost: loop },
    });
    define({
      nodes: { inc: (s) => ({ count: s.count + 1 }) },
      edges: [[START, "inc"]],
      // @ts-expect-error - the route's destination "nowhere" is not a declared node
      routes: { inc: route((s: S) => (s.count ? "a" : "b"), { a: "nowhere", b: END }) },
    });
  });

  it("(b) route() rejects a key missing from the path map, and a key the router never returns", () => {
    // @ts-expect-error - "done" is missing from the path map
    route((s: S) => (s.count < 3 ? "again" : "done"), { again: "inc" });
    // @ts-expect-error - the router never returns "later"
    route((s: S) => (s.count < 3 ? "again" : "done"), { again: "inc", done: END, later: END });
  });

  it("(c) rejects an update with an unknown key or a wrong value type", () => {
    define({
      // @ts-expect-error - "typo" is not a field of the state
      nodes: { inc: () => ({ typo: 1 }) },
      edges: [[START, "inc"], ["inc", END]],
    });
    define({
      // @ts-expect-error - count is a number
      nodes: { inc: () => ({ count: "1" }) },
      edges: [[START, "inc"], ["inc", END]],
    });
  });

  it("(d) rejects a reserved node name", () => {
    define({
      // @ts-expect-error - END is reserved
      nodes: { __end__: () => ({}) },
      edges: [[START, "__end__"]],
    });
  });

  it("(e) a node without an exit, unreachable or unable to reach END makes the result the list of problems", () => {
    const noExit = define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["a", "b"]] });
    expectTypeOf(noExit).toEqualTypeOf<{
      readonly "typed-state-graph error": `defineGraph: node "b" has no outgoing edge; add an edge ["b", <next node or END>] or a route from "b"` | `defineGraph: node "a" has no path to END, so a run that enters it can never finish (a closed cycle); add an exit toward END`;
    }>();
    // @ts-expect-error - the result is the list of problems, not a graph
    void noExit.invoke;
    const unreachable = define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["a", END], ["b", END]] });
    expectTypeOf(unreachable).toEqualTypeOf<{
      readonly "typed-state-graph error": `defineGraph: node "b" is not reachable from START; add an edge that leads to it, or remove it`;
    }>();
    const closed = define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["a", "b"], ["b", "a"]] });
    expectTypeOf(closed).not.toEqualTypeOf<CompiledGraph<S>>();
    // @ts-expect-error - nothing leaves START
    define({ nodes: { a: () => ({}) }, edges: [["a", END]] });
  });

  it("rejects a source with two rules, as the builder does", () => {
    // @ts-expect-error - "a" has two edges
    define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["a", "b"], ["a", END], ["b", END]] });
    define({
      nodes: { a: (s) => ({ count: s.count + 1 }) },
      // @ts-expect-error - "a" has an edge and a route
      edges: [[START, "a"], ["a", END]],
      routes: { a: route((s: S) => (s.count < 3 ? "again" : "done"), { again: "a", done: END }) },
    });
    // a fan-out is one rule
    define({ nodes: { a: () => ({}), b: () => ({}), c: () => ({}) }, edges: [[START, "a"], ["a", ["b", "c"]], [["b", "c"], END]] });
  });

  it("{ typeLevelTopology: false } skips the type-level search", () => {
    const graph = define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["a", "b"]] }, { typeLevelTopology: false });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });
});

describe("bindSpec", () => {
  const spec = {
    nodes: ["inc", "note"],
    edges: [
      { from: START, to: "inc" },
      { from: "note", to: END },
    ],
    routes: [{ from: "inc", paths: { again: "inc", done: "note" } }],
  } as const;
  const inc = (s: S) => ({ count: s.count + 1 });
  const note = () => ({ note: "done" });

  it("binds a TypeScript spec to matching implementations", () => {
    const graph = bindSpec(spec, { nodes: { inc, note }, routers: { inc: (s: S) => (s.count < 3 ? "again" : "done") } });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S>>();
  });

  it("rejects a missing implementation", () => {
    // @ts-expect-error - "note" has no implementation
    bindSpec(spec, { nodes: { inc }, routers: { inc: (s: S) => (s.count < 3 ? "again" : "done") } });
  });

  it("rejects an extra implementation", () => {
    // @ts-expect-error - "extra" is not a node of the spec
    bindSpec(spec, { nodes: { inc, note, extra: note }, routers: { inc: (s: S) => (s.count < 3 ? "again" : "done") } });
  });

  it("rejects a router whose keys do not match the spec's", () => {
    // @ts-expect-error - the router can return "later", which the spec's route lacks
    bindSpec(spec, { nodes: { inc, note }, routers: { inc: (s: S) => (s.count < 3 ? "again" : "later") } });
    // @ts-expect-error - the router never returns "done", a key of the spec's route
    bindSpec(spec, { nodes: { inc, note }, routers: { inc: (s: S) => (s.count < 3 ? "again" : "again") } });
  });

  it("rejects a missing router", () => {
    // @ts-expect-error - "inc" has a route in the spec but no router
    bindSpec(spec, { nodes: { inc, note } });
  });

  it("accepts a router that returns Sends to the spec's destinations, and rejects Sends elsewhere", () => {
    const sendSpec = {
      nodes: ["plan", "summarize"],
      edges: [
        { from: START, to: "plan" },
        { from: "summarize", to: END },
      ],
      routes: [{ from: "plan", paths: { summarize: "summarize" }, sends: true }],
    } as const;
    const nodes = { plan: () => ({}), summarize: (input: { doc: string }) => ({ note: input.doc }) };
    bindSpec(sendSpec, { nodes, routers: { plan: (s: S) => s.events.map((doc) => new Send("summarize", { doc })) } });
    // @ts-expect-error - "ghost" is not a destination of the spec's route
    bindSpec(sendSpec, { nodes, routers: { plan: (s: S) => s.events.map((doc) => new Send("ghost", { doc })) } });
  });

  it("accepts a spec whose shape is only known at run time", () => {
    const parsed: unknown = JSON.parse("{}");
    expectTypeOf(bindSpec(parsed, { nodes: {} })).toEqualTypeOf<CompiledGraph<Record<string, unknown>>>();
  });
});
