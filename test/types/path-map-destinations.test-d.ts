/**
 * A path-map destination that is not a declared node (issue 18 §4, messages that say why): the error
 * is a sentence naming the destination and the fix, as for an edge, not a bare "not assignable".
 */
import { describe, expectTypeOf, it } from "vitest";
import type { TargetCheck } from "../../src/builder/declared-names.js";
import { END, START, StateGraph, type CompiledGraph } from "../../src/index.js";

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
