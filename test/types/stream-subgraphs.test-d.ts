/**
 * `stream(input, { subgraphs: true })` (issue 38 §2): the chunks are tuples under a namespace,
 * `[namespace, chunk]` with one mode and `[namespace, mode, chunk]` with several, as LangGraph.js yields
 * them. The graph's own chunks are typed by its state and nodes; a subgraph's carry the child's state,
 * which the parent's type does not know, so the chunk is the union of both.
 */
import { describe, expectTypeOf, it } from "vitest";
import { END, START, StateGraph, type Step, type StreamYield, type SubgraphStreamYield, type TaskEvent } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface S {
  draft: string;
}
type Nodes = "write" | "publish";
type Child = Record<string, unknown>;

const graph = new StateGraph<S>()
  .addNode("write", () => ({ draft: "hello" }))
  .addNode("publish", () => ({}))
  .addEdge(START, "write")
  .addEdge("write", "publish")
  .addEdge("publish", END)
  .compile();
const input: S = { draft: "" };

describe("stream with subgraphs: true", () => {
  it("yields [namespace, chunk] with one mode: the graph's own step or a subgraph's", async () => {
    for await (const chunk of graph.stream(input, { subgraphs: true })) {
      expectTypeOf(chunk).toEqualTypeOf<readonly [namespace: readonly string[], chunk: Step<S, Nodes> | Step<Child>]>();
      const [namespace, step] = chunk;
      expectTypeOf(namespace).toEqualTypeOf<readonly string[]>();
      expectTypeOf(step.node).toEqualTypeOf<string>();
    }
    for await (const [, event] of graph.stream(input, { streamMode: "tasks", subgraphs: true }))
      expectTypeOf(event).toEqualTypeOf<TaskEvent<S, Nodes> | TaskEvent<Child>>();
  });

  it("yields [namespace, mode, chunk] with several modes, the mode following the modes asked for", async () => {
    for await (const chunk of graph.stream(input, { streamMode: ["updates", "custom"], subgraphs: true })) {
      expectTypeOf(chunk[1]).toEqualTypeOf<"updates" | "custom">();
      if (chunk[1] === "updates") expectTypeOf(chunk[2]).toEqualTypeOf<Step<S, Nodes> | Step<Child>>();
      // @ts-expect-error - "values" is not one of the modes asked for
      if (chunk[1] === "values") expectTypeOf(chunk[2]).toBeObject();
    }
  });

  it("on a thread too; without it, or with subgraphs: false, the chunks are as before; a boolean gives either", async () => {
    const checkpointer = new MemoryCheckpointer();
    for await (const [namespace, mode] of graph.stream(input, { threadId: "t", checkpointer, streamMode: ["checkpoints"], subgraphs: true })) {
      expectTypeOf(namespace).toEqualTypeOf<readonly string[]>();
      expectTypeOf(mode).toEqualTypeOf<"checkpoints">();
    }
    expectTypeOf(graph.stream(input, { subgraphs: false })).toEqualTypeOf<AsyncIterable<StreamYield<S, "updates", Nodes>>>();
    expectTypeOf(graph.stream(input)).toEqualTypeOf<AsyncIterable<Step<S, Nodes>>>();
    const flag = Math.random() > 0.5;
    expectTypeOf(graph.stream(input, { subgraphs: flag })).toEqualTypeOf<
      AsyncIterable<StreamYield<S, "updates", Nodes> | SubgraphStreamYield<S, "updates", Nodes>>
    >();
  });

  it("refuses a subgraphs option that is not a boolean", () => {
    // @ts-expect-error - subgraphs is true or false
    graph.stream(input, { subgraphs: "yes" });
  });
});
