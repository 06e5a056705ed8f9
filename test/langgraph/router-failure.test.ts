/**
 * A router that throws after its node's superstep committed: on LangGraph.js as on the mini engine, the
 * error carries the committed state and the superstep's nodes in its trace (the kernel's failure order
 * says which failure; found by the driver-equivalence property).
 */
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";

const graph = new StateGraph<{ n: number; log: string[] }>({ fields: ["n", "log"] })
  .addNode("a", (s) => ({ n: s.n + 1, log: [...s.log, "a"] }))
  .addEdge(START, "a")
  .addConditionalEdges(
    "a",
    (): "again" | "done" => {
      throw new Error("the router failed");
    },
    { again: "a", done: END },
  )
  .compile();

describe("a router that fails after its superstep committed", () => {
  it("names the same node, state and trace on LangGraph.js as on the mini engine", async () => {
    const input = { n: 0, log: [] };
    const plain = await graph.invoke(input).catch((error: unknown) => error);
    const lang = await runOnLangGraph(graph, input).catch((error: unknown) => error);
    expect(plain).toMatchObject({ code: "ROUTER_FAILED", node: "a", trace: ["a"], state: { n: 1, log: ["a"] } });
    const { code, node, trace, state } = lang as Record<string, unknown>;
    expect({ code, node, trace, state }).toEqual({ code: "ROUTER_FAILED", node: "a", trace: ["a"], state: { n: 1, log: ["a"] } });
  });
});
