/**
 * A node's Command goto on XState: the superstep layout (the default for a graph with ends) runs the
 * kernel's own superstep, so it routes as the mini engine does; the one-state-per-node layout and the
 * coverage model refuse a graph with ends by name, never running through a goto.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, START, StateGraph } from "../../src/index.js";
import { runOnXState, toCoverageModel, toMachine, XStateExportError } from "../../src/xstate/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}

function graphs() {
  const edgeless = new StateGraph<Ticket>({ reducers: { log: append } })
    .addNode("triage", (s) => new Command({ update: { log: ["triage"] }, goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] })
    .addNode("page", () => ({ log: ["page"] }))
    .addNode("queue", () => ({ log: ["queue"] }))
    .addEdge(START, "triage")
    .addEdge("page", END)
    .addEdge("queue", END)
    .compile();
  const beside = new StateGraph<Ticket>({ reducers: { log: append } })
    .addNode("a", () => new Command({ update: { log: ["a"] }, goto: "c" }), { ends: ["c"] })
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .addEdge("c", END)
    .compile();
  return { edgeless, beside };
}

describe("a Command goto on XState", () => {
  it("runs as on the mini engine, in the superstep layout it gets by default", async () => {
    for (const graph of Object.values(graphs())) {
      for (const urgent of [true, false]) {
        const onXState = await runOnXState(graph, { urgent, log: [] });
        const mini = await graph.invoke({ urgent, log: [] });
        expect(onXState.state).toEqual(mini.state);
        expect(onXState.trace).toEqual(mini.trace);
      }
    }
  });

  it("the one-state-per-node layout and the coverage model refuse a graph with ends, naming the node", async () => {
    const { edgeless } = graphs();
    expect(() => toMachine(edgeless, { layout: "nodes" })).toThrow(XStateExportError);
    expect(() => toMachine(edgeless, { layout: "nodes" })).toThrow(/a node's Command ends\): "triage"/);
    expect(() => toCoverageModel(edgeless)).toThrow(expect.objectContaining({ code: "UNSUPPORTED_GRAPH", names: ["triage"] }));
    await expect(runOnXState(edgeless, { urgent: true, log: [] }, { layout: "nodes" })).rejects.toMatchObject({
      code: "UNSUPPORTED_GRAPH",
    });
  });
});
