/**
 * How a run on LangGraph.js knows a superstep's announcement is over: its first node to start says so
 * on the run's own stream (LangGraph starts none before it announced them all), never a timer; and a
 * child's nodes write to the child's stream, whose run hands their custom events on to the parent.
 */
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it, vi } from "vitest";
import { append, END, START, StateGraph, type CustomEvent } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";

interface Log {
  log: string[];
}

const LOG = { reducers: { log: append }, fields: ["log"] } as const;

afterEach(() => {
  vi.useRealTimers();
});

describe("the end of a superstep's announcement, on LangGraph.js", () => {
  it("is read from the stream: a fan-out then a chain runs with every timer frozen", async () => {
    const graph = new StateGraph<Log>(LOG)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", (s) => ({ log: [`d:${s.log.length}`] }))
      .addEdge(START, ["a", "b", "c"])
      .addEdge("a", "d")
      .addEdge("b", "d")
      .addEdge("c", "d")
      .addEdge("d", END)
      .compile();
    // Load LangGraph.js first (its import is not what this test is about); two nodes at a time, so
    // the third node of the first superstep starts after the admission.
    expect((await runOnLangGraph(graph, { log: [] }, { maxConcurrency: 2 })).trace).toEqual(["a", "b", "c", "d"]);
    vi.useFakeTimers({ toFake: ["setTimeout", "setImmediate", "setInterval"] });
    const result = await runOnLangGraph(graph, { log: [] }, { maxConcurrency: 2 });
    expect(result.trace).toEqual(["a", "b", "c", "d"]);
    expect(result.state.log).toEqual(["a", "b", "c", "d:3"]);
  });

  it("a child's custom events reach the top-level run's listener, in order", async () => {
    const child = new StateGraph<Log>(LOG)
      .addNode("c1", (_s, { writer }) => (writer("c1 started"), { log: ["c1"] }))
      .addNode("c2", (_s, { writer }) => (writer("c2 started"), { log: ["c2"] }))
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .addEdge("c2", END)
      .compile();
    const graph = new StateGraph<Log>(LOG)
      .addNode("before", (_s, { writer }) => (writer("before started"), { log: ["before"] }))
      .addNode("sub", child)
      .addEdge(START, "before")
      .addEdge("before", "sub")
      .addEdge("sub", END)
      .compile();
    const events: CustomEvent[] = [];
    const result = await runOnLangGraph(
      graph,
      { log: [] },
      { threadId: "t", checkpointer: new MemorySaver(), onCustomEvent: (event) => void events.push(event) },
    );
    expect(result.state.log).toEqual(["before", "c1", "c2"]);
    expect(events).toEqual([
      { node: "before", event: "before started" },
      { node: "c1", event: "c1 started" },
      { node: "c2", event: "c2 started" },
    ]);
  });
});
