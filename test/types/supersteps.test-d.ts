/** Fan-out, joins, several route keys and Send keep the builder's compile-time guarantees. */
import { describe, expectTypeOf, it } from "vitest";
import { END, Send, START, StateGraph, union, type CompiledGraph } from "../../src/index.js";

interface R {
  topic: string;
  findings: string[];
  docs: string[];
  summary: string | null;
}

const nodes = new StateGraph<R>({ reducers: { findings: union } })
  .addNode("plan", (s) => ({ docs: [s.topic] }))
  .addNode("web", () => ({ findings: ["web"] }))
  .addNode("papers", () => ({ findings: ["papers"] }))
  .addNode("synthesize", (s) => ({ summary: s.findings.join() }));

describe("fan-out and joins", () => {
  it("compiles a fan-out with a join", () => {
    const graph = nodes
      .addEdge(START, "plan")
      .addEdge("plan", ["web", "papers"])
      .addEdge(["web", "papers"], "synthesize")
      .addEdge("synthesize", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<R, "plan" | "web" | "papers" | "synthesize">>();
  });

  it("rejects an undeclared node in a fan-out or a join", () => {
    // @ts-expect-error - "blogs" is not a declared node
    nodes.addEdge("plan", ["web", "blogs"]);
    // @ts-expect-error - "blogs" is not a declared join source
    nodes.addEdge(["web", "blogs"], "synthesize");
  });

  it("a join source already has its rule", () => {
    // @ts-expect-error - "web" already leads to the join
    nodes.addEdge(["web", "papers"], "synthesize").addEdge("web", END);
  });

  it("a join leads to one node", () => {
    const both = nodes.addEdge(["web", "papers"], ["synthesize", "plan"]);
    // @ts-expect-error - the result is an error type, not a builder
    both.compile();
  });

  it("reachability follows fan-outs: a branch that cannot reach END is an error", () => {
    const deadEnd = nodes
      .addEdge(START, "plan")
      .addEdge("plan", ["web", "papers"])
      .addEdge("web", "synthesize")
      .addEdge("synthesize", END)
      .addEdge("papers", "papers");
    // @ts-expect-error - "papers" loops on itself and never reaches END
    deadEnd.compile();
  });
});

describe("routers with several keys, and Send", () => {
  it("a router may return a list of its keys", () => {
    nodes
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => (s.docs.length > 1 ? ["both", "one"] : "one"), { both: "papers", one: "web" })
      .addEdge("web", END)
      .addEdge("papers", END)
      .addEdge("synthesize", END);
  });

  it("a list of keys is checked like a single key", () => {
    // @ts-expect-error - "other" is missing from the path map
    nodes.addConditionalEdges("plan", (s) => (s.docs.length > 1 ? ["other", "one"] : "one"), { one: "web" });
  });

  it("Send targets must be among the listed destinations, and the listed destinations declared", () => {
    nodes.addConditionalEdges("plan", (s) => s.docs.map(() => new Send("web", s)), ["web"]);
    // @ts-expect-error - "ghost" is not a declared node
    nodes.addConditionalEdges("plan", (s) => s.docs.map((doc) => new Send("ghost", { doc })), ["web"]);
    // @ts-expect-error - "papers" is listed but the router never returns it
    nodes.addConditionalEdges("plan", (s) => s.docs.map(() => new Send("web", s)), ["web", "papers"]);
  });

  it("a Send target may take the Send's input type", () => {
    const graph = new StateGraph<R>({ reducers: { findings: union } })
      .addNode("plan", () => ({}))
      .addNode("summarize", (input: { doc: string }) => ({ findings: [input.doc] }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => s.docs.map((doc) => new Send("summarize", { doc })), ["summarize"])
      .addEdge("summarize", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<R, "plan" | "summarize">>();
  });
});

describe("subgraphs", () => {
  it("a compiled graph of the same state is a node", () => {
    const child = new StateGraph<R>().addNode("x", () => ({})).addEdge(START, "x").addEdge("x", END).compile();
    new StateGraph<R>().addNode("child", child).addEdge(START, "child").addEdge("child", END).compile();
  });

  it("a compiled graph of another state is not", () => {
    const other = new StateGraph<{ n: number }>().addNode("x", () => ({})).addEdge(START, "x").addEdge("x", END).compile();
    // @ts-expect-error - the subgraph's state differs: map it with subgraph(graph, { input, output })
    new StateGraph<R>().addNode("child", other);
  });
});
