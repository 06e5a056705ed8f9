/**
 * Error handlers against LangGraph.js 1.7.3's own `errorHandler`: the graphs of
 * test/helpers/handler-graphs.ts written natively on LangGraph.js (as its tests write them: addNode's
 * `errorHandler`, `setNodeDefaults({ errorHandler })`) and run on this library agree on the state; the
 * export refuses a graph with handlers, naming them (LANGGRAPH_ERROR_HANDLER).
 */
import { Command as LangGraphCommand, END as LG_END, StateGraph as LangGraphStateGraph, START as LG_START } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { defaultHandler, handledBesideSibling, handledToRecovery, type LogState } from "../helpers/handler-graphs.js";
import { LogAnnotation as Log, logStep as step, type NativeLogGraph as Native } from "./_helpers.js";
const boom = (): never => {
  throw new Error("boom");
};

function nativeBesideSibling(): Native {
  return new LangGraphStateGraph(Log)
    .addNode("a", boom, { errorHandler: (_s: unknown, { node, error }) => ({ log: [`handled ${node}: ${error.message}`] }) })
    .addNode("b", step("b"))
    .addNode("c", step("c"))
    .addEdge(LG_START, "a")
    .addEdge(LG_START, "c")
    .addEdge("a", "b")
    .addEdge("c", LG_END)
    .addEdge("b", LG_END)
    .compile();
}

function nativeToRecovery(): Native {
  return new LangGraphStateGraph(Log)
    .addNode("a", boom, {
      errorHandler: (s: LogState) => new LangGraphCommand({ update: { log: [`h(${s.log.length})`] }, goto: "r" }),
    })
    .addNode("b", step("b"))
    .addNode("r", step("r"))
    .addEdge(LG_START, "a")
    .addEdge("a", "b")
    .addEdge("b", LG_END)
    .addEdge("r", LG_END)
    .compile();
}

function nativeDefault(): Native {
  return new LangGraphStateGraph(Log)
    .setNodeDefaults({ errorHandler: (_s: unknown, { node }) => ({ log: [`d:${node}`] }) })
    .addNode("a", boom)
    .addNode("b", boom)
    .addEdge(LG_START, "a")
    .addEdge(LG_START, "b")
    .addEdge("a", LG_END)
    .addEdge("b", LG_END)
    .compile();
}

describe("error handlers, differential against LangGraph.js 1.7.3", () => {
  it.each([
    ["a handled node beside a sibling (its own edge does not apply)", handledBesideSibling, nativeBesideSibling],
    ["a handler's Command goto", handledToRecovery, nativeToRecovery],
    ["the graph-wide default handler", defaultHandler, nativeDefault],
  ])("%s: the same state", async (_name, ours, native) => {
    const onLangGraph = await native().invoke({ log: [] });
    const onMini = await ours().invoke({ log: [] });
    expect(onMini.state).toEqual(onLangGraph);
  });

  it("the export refuses a graph with error handlers, naming the nodes", async () => {
    await expect(toLangGraph(handledToRecovery())).rejects.toMatchObject({ code: "LANGGRAPH_ERROR_HANDLER", message: /"a"/ });
    await expect(runOnLangGraph(defaultHandler(), { log: [] })).rejects.toMatchObject({ code: "LANGGRAPH_ERROR_HANDLER" });
  });
});
