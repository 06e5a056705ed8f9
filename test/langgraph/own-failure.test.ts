/**
 * A failure of LangGraph.js itself (here its checkpointer), not of the graph's nodes, routers or
 * reducers, is LANGGRAPH_FAILED with LangGraph's error as the cause: never reported as a node's failure.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";

/** LangGraph's MemorySaver whose third save fails, as a full disk would. */
class FailingSaver extends MemorySaver {
  saves = 0;
  override async put(...args: Parameters<MemorySaver["put"]>): ReturnType<MemorySaver["put"]> {
    this.saves += 1;
    if (this.saves > 2) throw new Error("disk full");
    return super.put(...args);
  }
}

describe("LangGraph.js's own failures", () => {
  it("a checkpointer that throws is LANGGRAPH_FAILED, not NODE_FAILED, with its error as the cause", async () => {
    const graph = new StateGraph<{ n: number }>({ fields: ["n"] })
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addNode("b", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const error = await runOnLangGraph(graph, { n: 0 }, { threadId: "t", checkpointer: new FailingSaver() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      name: "GraphExecutionError",
      code: "LANGGRAPH_FAILED",
      message: expect.stringContaining("LangGraph.js failed at"),
      cause: expect.objectContaining({ message: "disk full" }),
    });
  });
});
