/**
 * The compile errors behind docs/langgraph.md's side-by-side table: the three mistakes LangGraph.js
 * accepts (test/langgraph/silent-failures.test.ts shows what it does with them) are type errors here.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import type { LangGraphGraph } from "../../src/langgraph/index.js";

interface S {
  n: number;
  log: string[];
}

const nodes = new StateGraph<S>({ reducers: { log: append }, fields: ["n", "log"] })
  .addNode("a", () => ({ log: ["a"] }))
  .addNode("b", () => ({ log: ["b"] }));

describe("what LangGraph.js accepts and the builder rejects", () => {
  it("1. a router key missing from the path map", () => {
    // @ts-expect-error - the router can return "stop", which the path map lacks (LangGraph.js: a run-time error, only when taken)
    nodes.addConditionalEdges("a", (s): "go" | "stop" => (s.n > 0 ? "go" : "stop"), { go: "b" });
    nodes.addConditionalEdges("a", (s): "go" | "stop" => (s.n > 0 ? "go" : "stop"), { go: "b", stop: END });
  });

  it("2. a router returning an undeclared node name without a path map", () => {
    // @ts-expect-error - a path map is required (LangGraph.js: the run ends silently when the router names no node)
    nodes.addConditionalEdges("a", (): "bb" => "bb");
    // @ts-expect-error - "bb" is not a declared node
    nodes.addConditionalEdges("a", (): "bb" => "bb", { bb: "bb" });
  });

  it("3. a node returning an unknown key", () => {
    // @ts-expect-error - "totl" is not a field of the state (LangGraph.js drops it silently)
    nodes.addNode("c", () => ({ n: 1, totl: 2 }));
    nodes.addNode("c", () => ({ n: 1 }));
  });
});

describe("the exported graph's type", () => {
  it("invoke takes and returns the graph's state", () => {
    expectTypeOf<S>().toExtend<Parameters<LangGraphGraph<S>["invoke"]>[0]>();
    expectTypeOf<Awaited<ReturnType<LangGraphGraph<S>["invoke"]>>>().toEqualTypeOf<S>();
    expectTypeOf<typeof import("../../src/langgraph/index.js").toLangGraph<S>>().parameter(0).toEqualTypeOf<CompiledGraph<S>>();
  });
});

void START;
