/**
 * `defer` is a known node option (LangGraph's `addNode(name, fn, { defer: true })`): a boolean on
 * `addNode`, beside the policies, `ends` and `bound`; on `defineGraph`, a list of the graph's own nodes.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, defineGraph, END, START, stateGraph, type CompiledGraph, type NodeOptions } from "../../src/index.js";

interface S {
  log: string[];
}

describe("defer on addNode and defineGraph", () => {
  it("addNode takes defer: true or false, with the other options", () => {
    const graph = stateGraph<S>()({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("reduce", () => ({ log: ["r"] }), { defer: true, timeout: 1_000 })
      .addNode("other", () => ({}), { defer: false })
      .addEdge(START, ["a", "other"])
      .addEdge("a", "reduce")
      .addEdge("other", "reduce")
      .addEdge("reduce", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "a" | "reduce" | "other">>();
    expectTypeOf<NodeOptions["defer"]>().toEqualTypeOf<boolean | undefined>();
  });

  it("addNode refuses a defer that is not a boolean", () => {
    stateGraph<S>()({ reducers: { log: append } })
      // @ts-expect-error - defer is true or false
      .addNode("reduce", () => ({}), { defer: "yes" });
  });

  it("defineGraph's defer lists its own nodes, and refuses another name", () => {
    defineGraph<S>()({
      reducers: { log: append },
      nodes: { a: () => ({ log: ["a"] }), reduce: () => ({ log: ["r"] }) },
      edges: [
        [START, "a"],
        ["a", "reduce"],
        ["reduce", END],
      ],
      defer: ["reduce"],
    });
    defineGraph<S>()({
      nodes: { only: () => ({}) },
      edges: [
        [START, "only"],
        ["only", END],
      ],
      // @ts-expect-error - "nope" is not a node of the graph
      defer: ["nope"],
    });
  });
});
