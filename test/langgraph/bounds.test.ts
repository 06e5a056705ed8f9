/**
 * Loop bounds on LangGraph.js: runOnLangGraph enforces a bound without an exit where the mini engine
 * does (the kernel admits each superstep); a bound with an exit, and any bound in a plain export, are
 * refused with LANGGRAPH_LOOP_BOUND, since LangGraph.js counts no visits.
 */
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { draftInput, reviseLoop, type DraftState } from "../helpers/loop-graphs.js";
import { settle } from "./_helpers.js";

describe("loop bounds on LangGraph.js", () => {
  it("runOnLangGraph: LOOP_BOUND where the mini engine raises it, and the same result within the bound", async () => {
    const graph = reviseLoop(1);
    for (const failing of [1, 99]) {
      expect(await settle(runOnLangGraph(graph, draftInput(failing)))).toEqual(await settle(graph.invoke(draftInput(failing))));
    }
    await expect(runOnLangGraph(graph, draftInput(99))).rejects.toMatchObject({
      name: "GraphLimitError",
      code: "LOOP_BOUND",
      node: "revise",
    });
  });

  it("refuses a bound with an exit, naming the node and the fix", async () => {
    await expect(runOnLangGraph(reviseLoop(1, "hold"), draftInput(99))).rejects.toMatchObject({
      code: "LANGGRAPH_LOOP_BOUND",
      message: expect.stringMatching(/^runOnLangGraph: the loop bounds of "revise" have an exit/),
    });
  });

  it("toLangGraph refuses any bound: the exported graph would loop unbounded", async () => {
    await expect(toLangGraph(reviseLoop(1))).rejects.toMatchObject({
      code: "LANGGRAPH_LOOP_BOUND",
      message: expect.stringMatching(/^toLangGraph: .*runOnLangGraph/),
    });
  });

  it("a subgraph with a bound runs on the mini engine inside its task, which keeps the bound", async () => {
    const parent = new StateGraph<DraftState>({ fields: ["revisions", "failing", "status", "events"] })
      .addNode("inner", reviseLoop(1, "hold"))
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    expect(await settle(runOnLangGraph(parent, draftInput(99)))).toEqual(await settle(parent.invoke(draftInput(99))));
  });
});
