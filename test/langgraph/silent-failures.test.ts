/**
 * What real LangGraph.js (1.7) does with three mistakes this library rejects when the graph is
 * declared (see test/types/langgraph-contrast.test-d.ts for the compile errors). Each LangGraph case
 * compiles; two of them never raise at all. The same mistakes smuggled past the types (with a cast)
 * still fail loudly here, on the mini engine and on the exported LangGraph graph alike.
 */
import { Annotation, END as LG_END, START as LG_START, StateGraph as LangGraphStateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { END, GraphValidationError, START, StateGraph } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { settle } from "./_helpers.js";

const LangGraphState = Annotation.Root({
  n: Annotation<number>(),
  log: Annotation<string[]>({ reducer: (current, update) => [...current, ...update], default: () => [] }),
});

interface S {
  n: number;
  log: string[];
}
const declared = () => new StateGraph<S>({ reducers: { log: (a, b) => [...a, ...b] }, fields: ["n", "log"] });

describe("1. a router key missing from the path map", () => {
  const router = (s: { n: number }) => (s.n > 0 ? "go" : "stop");

  it("LangGraph.js compiles it and fails only when a run returns that key, with a message naming neither key nor node", async () => {
    const graph = new LangGraphStateGraph(LangGraphState)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(LG_START, "a")
      .addConditionalEdges("a", router, { go: "b" }) // "stop" is missing
      .addEdge("b", LG_END)
      .compile();
    await expect(graph.invoke({ n: 1 })).resolves.toEqual({ n: 1, log: ["a", "b"] });
    await expect(graph.invoke({ n: 0 })).rejects.toThrow("Branch condition returned unknown or null destination");
  });

  it("here: a compile error; forced past the types, a run error naming the key and the path map, on both engines", async () => {
    const graph = declared()
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", router as (s: S) => "go", { go: "b" })
      .addEdge("b", END)
      .compile();
    const message = `invoke: the router after "a" returned "stop", which is not a key of its path map ("go"). Return a declared key or add it to the path map.`;
    expect((await settle(graph.invoke({ n: 0, log: [] }))).failed).toMatchObject({ code: "UNKNOWN_ROUTE_KEY", message });
    expect((await settle(runOnLangGraph(graph, { n: 0, log: [] }))).failed).toMatchObject({ code: "UNKNOWN_ROUTE_KEY", message });
  });
});

describe("2. a router returning an undeclared node name, without a path map", () => {
  it("LangGraph.js compiles it, and the run just ends: no error, and no sign the route went nowhere", async () => {
    const graph = new LangGraphStateGraph(LangGraphState)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(LG_START, "a")
      .addConditionalEdges("a", () => "bb") // a typo for "b"
      .addEdge("b", LG_END)
      .compile();
    await expect(graph.invoke({ n: 0 })).resolves.toEqual({ n: 0, log: ["a"] });
  });

  it("here: the path map is required and its destinations are checked; forced past the types, compile() throws", () => {
    const builder = declared()
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "bb" => "bb", { bb: "bb" } as unknown as { bb: "b" })
      .addEdge("b", END);
    expect(() => builder.compile()).toThrow(GraphValidationError);
    expect(() => builder.compile()).toThrow(/"bb"/);
  });
});

describe("3. a node returning an unknown key", () => {
  it("LangGraph.js drops the key without a word", async () => {
    const graph = new LangGraphStateGraph(LangGraphState)
      .addNode("a", () => ({ n: 1, totl: 2 }) as { n: number }) // a typo for a field
      .addEdge(LG_START, "a")
      .addEdge("a", LG_END)
      .compile();
    await expect(graph.invoke({ n: 0 })).resolves.toEqual({ n: 1, log: [] });
  });

  it("here: a compile error; forced past the types, an InvalidUpdateError naming the key, also on the exported LangGraph graph", async () => {
    const graph = declared()
      .addNode("a", () => ({ n: 1, totl: 2 }) as { n: number })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const mini = await settle(graph.invoke({ n: 0, log: [] }));
    expect(mini.failed).toMatchObject({ name: "InvalidUpdateError", code: "UNDECLARED_FIELD", node: "a" });
    expect(mini.failed?.message).toContain("totl");
    expect(await settle(runOnLangGraph(graph, { n: 0, log: [] }))).toEqual(mini);
    await expect((await toLangGraph(graph)).invoke({ n: 0, log: [] })).rejects.toMatchObject({
      name: "LangGraphNodeError",
      code: "UNDECLARED_FIELD",
    });
  });
});
