/**
 * A path-map destination that is not a declared node (issue 18 §4, messages that say why): the error
 * is a sentence naming the destination and the fix, as for an edge, not a bare "not assignable".
 */
import { describe, expectTypeOf, it } from "vitest";
import type { TargetCheck } from "../../src/builder/declared-names.js";
import type { CheckedRoutes } from "../../src/builder/define-types.js";
import type { TypeLevelError } from "../../src/builder/messages.js";
import { defineGraph, END, route, START, StateGraph, type CompiledGraph, type RouteDeclaration } from "../../src/index.js";

interface S {
  count: number;
}
const two = new StateGraph<S>()
  .addNode("a", (s) => ({ count: s.count + 1 }))
  .addNode("b", () => ({}))
  .addEdge(START, "a");

describe("a path map's destinations", () => {
  it("compile when each is a declared node or END", () => {
    const graph = two
      .addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "done"), { more: "b", done: END })
      .addEdge("b", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });

  it("do not compile for an undeclared node, or START", () => {
    // @ts-expect-error - "c" is not a declared node
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "done"), { more: "c", done: END });
    // @ts-expect-error - no edge leads to START
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "done"), { more: START, done: END });
  });

  it("say which destination is not a node, and how to fix it", () => {
    expectTypeOf<TargetCheck<"b" | "c", "a" | "b", unknown, "addConditionalEdges">>().toHaveProperty(
      "addConditionalEdges: \"c\" is not a node of this builder; declare it with addNode first. If you did, that call's result was dropped: each call returns a new builder type, so chain the calls or keep each result",
    );
  });
});

describe("a defineGraph route's destinations", () => {
  const define = defineGraph<S>();
  const router = (s: S): "go" | "stop" => (s.count > 2 ? "stop" : "go");

  it("compile when each is a declared node or END", () => {
    define({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"], ["b", END]], routes: { a: route(router, { go: "b", stop: END }) } });
    define({
      nodes: { a: () => ({}), b: () => ({}) },
      edges: [[START, "a"], ["b", END]],
      routes: { a: route((s: S) => (s.count > 2 ? END : "b"), ["b", END]) },
    });
  });

  it("do not compile for an undeclared node, in a path map or a destination list, with a sentence", () => {
    define({
      nodes: { a: () => ({}), b: () => ({}) },
      edges: [[START, "a"], ["b", END]],
      // @ts-expect-error - "bb" is not a declared node
      routes: { a: route(router, { go: "bb", stop: END }) },
    });
    define({
      nodes: { a: () => ({}), b: () => ({}) },
      edges: [[START, "a"], ["b", END]],
      // @ts-expect-error - "c" is not a declared node
      routes: { a: route((s: S) => (s.count > 2 ? "c" : "b"), ["b", "c"]) },
    });
    type Checked = CheckedRoutes<S, "a" | "b", { a: RouteDeclaration<S, { go: "bb"; stop: typeof END }> }>["a"];
    expectTypeOf<Checked>().toMatchTypeOf<
      TypeLevelError<'defineGraph: the route from "a" leads to "bb", which is not a declared node; add it to `nodes`, or fix the name'>
    >();
  });
});
