/**
 * `context.writer` events written by a subgraph's nodes reach the parent's `custom` stream, with the
 * path of the node that wrote them. Ported from LangGraph.js 1.7.3's
 * libs/langgraph/src/tests/pregel.test.ts, "streamMode should be respected" (the custom events of
 * `p_two`'s child node `c_two` reach the parent's stream, under the `p_two` namespace).
 */
import { describe, expect, it } from "vitest";
import { append, END, START, StateGraph, subgraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface S {
  log: string[];
}

/** START → p_one → p_two (a subgraph: c_one → c_two, which writes; c_three nests one more, which writes) → END. */
function graph() {
  const grandchild = new StateGraph<S>({ reducers: { log: append } })
    .addNode("g_one", (_s, { writer }) => (writer({ from: "grandchild" }), { log: ["g_one"] }))
    .addEdge(START, "g_one")
    .addEdge("g_one", END)
    .compile();
  const child = new StateGraph<S>({ reducers: { log: append } })
    .addNode("c_one", () => ({ log: ["c_one"] }))
    .addNode("c_two", (_s, { writer }) => (writer({ from: "subgraph", content: "1" }), { log: ["c_two"] }))
    .addNode("c_three", subgraph(grandchild))
    .addEdge(START, "c_one")
    .addEdge("c_one", "c_two")
    .addEdge("c_two", "c_three")
    .addEdge("c_three", END)
    .compile();
  return new StateGraph<S>({ reducers: { log: append } })
    .addNode("p_one", (_s, { writer }) => (writer({ from: "parent" }), { log: ["p_one"] }))
    .addNode("p_two", subgraph(child))
    .addEdge(START, "p_one")
    .addEdge("p_one", "p_two")
    .addEdge("p_two", END)
    .compile();
}

const expected = [
  { node: "p_one", event: { from: "parent" } },
  { node: "c_two", event: { from: "subgraph", content: "1" }, path: ["p_two", "c_two"] },
  { node: "g_one", event: { from: "grandchild" }, path: ["p_two", "c_three", "g_one"] },
];

async function gather(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("a subgraph's custom events on the parent's stream", () => {
  it("reach it in the order written, each with the path of the node that wrote it", async () => {
    expect(await gather(graph().stream({ log: [] }, { streamMode: "custom" }))).toEqual(expected);
  });

  it("on a thread too, where the child runs on a thread of its own", async () => {
    const chunks = await gather(
      graph().stream({ log: [] }, { streamMode: "custom", threadId: "t", checkpointer: new MemoryCheckpointer() }),
    );
    expect(chunks).toEqual(expected);
  });

  it("and with several modes, tagged as custom", async () => {
    const chunks = await gather(graph().stream({ log: [] }, { streamMode: ["custom", "values"] }));
    expect(chunks.filter((chunk) => (chunk as [string])[0] === "custom").map((chunk) => (chunk as [string, unknown])[1])).toEqual(expected);
  });
});
