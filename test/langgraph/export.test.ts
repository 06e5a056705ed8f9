/**
 * toLangGraph builds a real LangGraph.js StateGraph from the spec, refuses what LangGraph cannot
 * take with a coded error, and keeps @langchain/langgraph out of the main entry.
 */
import { withoutCommentLines } from "../helpers/source-text.js";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { BinaryOperatorAggregate, CompiledStateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { append, compileGraph, END, Send, START, StateGraph, sum } from "../../src/index.js";
import { LangGraphInteropError, toLangGraph } from "../../src/langgraph/index.js";
import { loadLangGraph } from "../../src/langgraph/_load.js";

const node = () => ({});

describe("the exported graph mirrors the spec", () => {
  it("channels, nodes, fixed edges and conditional edges with their path maps", async () => {
    const ours = buildReportGraph();
    const { spec } = ours;
    const graph = await toLangGraph(ours);
    expect(graph).toBeInstanceOf(CompiledStateGraph);
    const { channels, nodes, edges, branches } = graph.builder;

    expect(Object.keys(channels)).toEqual(spec.fields);
    const kinds = Object.fromEntries(Object.entries(channels).map(([field, channel]) => [field, channel.lc_graph_name]));
    expect(kinds).toEqual(
      Object.fromEntries((spec.fields ?? []).map((f) => [f, f === "events" ? "BinaryOperatorAggregate" : "LastValue"])),
    );
    expect(Object.keys(nodes)).toEqual(spec.nodes);
    expect([...edges]).toEqual(spec.edges.map((e) => [e.from, e.to]));
    const routes = Object.entries(branches).map(([from, byName]) => ({ from, paths: Object.values(byName).map((b) => b.ends) }));
    expect(routes).toEqual(spec.routes.map((r) => ({ from: r.from, paths: [r.paths] })));
  });

  it("fan-out: one edge per destination; a join: a waiting edge; a join into END: plain edges (LangGraph refuses a waiting edge into END)", async () => {
    const graph = compileGraph({
      spec: {
        nodes: ["plan", "web", "papers", "merge"],
        edges: [
          { from: START, to: "plan" },
          { from: "merge", to: END },
        ],
        fanOuts: [{ from: "plan", to: ["web", "papers"] }],
        joins: [{ from: ["web", "papers"], to: "merge" }],
        routes: [],
        reducers: [],
        fields: ["n"],
      },
      nodes: { plan: node, web: node, papers: node, merge: node },
      routers: {},
      reducers: {},
    });
    const { edges, waitingEdges } = (await toLangGraph(graph)).builder;
    expect([...edges]).toEqual([
      [START, "plan"],
      ["merge", END],
      ["plan", "web"],
      ["plan", "papers"],
    ]);
    expect([...waitingEdges]).toEqual([[["web", "papers"], "merge"]]);

    const intoEnd = new StateGraph<{ n: number }>({ fields: ["n"] })
      .addNode("a", node)
      .addNode("b", node)
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    const exported = (await toLangGraph(intoEnd)).builder;
    expect([...exported.edges]).toEqual([
      [START, "a"],
      [START, "b"],
      ["a", END],
      ["b", END],
    ]);
    expect([...exported.waitingEdges]).toEqual([]);
  });

  it("a Send route keeps its path map; a reducer channel is still a BinaryOperatorAggregate", async () => {
    const graph = new StateGraph<{ docs: string[]; out: string[] }>({ reducers: { out: append }, fields: ["docs", "out"] })
      .addNode("split", node)
      .addNode("each", (_input: { doc: string }) => ({}))
      .addEdge(START, "split")
      .addConditionalEdges("split", (s) => (s.docs.length === 0 ? END : s.docs.map((doc) => new Send("each", { doc }))), ["each", END])
      .addEdge("each", END)
      .compile();
    const { branches, channels } = (await toLangGraph(graph)).builder;
    expect(Object.values(branches["split"] ?? {}).map((branch) => branch.ends)).toEqual([{ each: "each", [END]: END }]);
    expect(channels["out"]).toBeInstanceOf(BinaryOperatorAggregate);
  });

  it("LangGraph draws the routes as conditional edges (it leaves the label off when a key equals its node)", async () => {
    const mermaid = (await toLangGraph(buildReportGraph())).getGraph().drawMermaid();
    const routed = mermaid.split("\n").filter((line) => line.includes("check_draft -."));
    expect(routed.map((line) => line.trim())).toEqual([
      "check_draft -. &nbsp;accept&nbsp; .-> publish;",
      "check_draft -. &nbsp;revise&nbsp; .-> revise_draft;",
      "check_draft -.-> hold;",
    ]);
  });
});

describe("what toLangGraph refuses, with a code", () => {
  it("a graph without `fields`: LANGGRAPH_FIELDS_REQUIRED, saying how to fix it", async () => {
    const graph = new StateGraph<{ n: number }>().addNode("a", node).addEdge(START, "a").addEdge("a", END).compile();
    const error: unknown = await toLangGraph(graph).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGraphInteropError);
    expect(error).toMatchObject({ code: "LANGGRAPH_FIELDS_REQUIRED", name: "LangGraphInteropError" });
    expect((error as Error).message).toMatch(/^toLangGraph: .*drops.*fields: \[/);
  });

  it("fields named after Object.prototype members: LANGGRAPH_FIELD_NAME, naming each", async () => {
    const graph = new StateGraph<Record<string, unknown>>({
      reducers: { toString: sum } as never,
      fields: ["toString", "constructor", "n"],
    })
      .addNode("a", node)
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error: unknown = await toLangGraph(graph).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LANGGRAPH_FIELD_NAME", name: "LangGraphInteropError" });
    expect((error as Error).message).toMatch(/^toLangGraph: LangGraph\.js cannot hold the fields "toString", "constructor": /);
  });

  it("node names LangGraph.js forbids: a field's name, or one with | or :", async () => {
    const graph = new StateGraph<{ n: number; log: string[] }>({ reducers: { log: append }, fields: ["n", "log"] })
      .addNode("log", node)
      .addNode("a:b", node)
      .addEdge(START, "log")
      .addEdge("log", "a:b")
      .addEdge("a:b", END)
      .compile();
    const error: unknown = await toLangGraph(graph).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LANGGRAPH_NODE_NAME" });
    expect((error as Error).message).toContain(`"log" is also a state field`);
    expect((error as Error).message).toContain(`"a:b" contains`);
  });

  it("a node named after an Object.prototype member: LANGGRAPH_NODE_NAME (found by the interrupts property)", async () => {
    const graph = new StateGraph<{ n: number }>({ fields: ["n"] })
      .addNode("constructor", node)
      .addEdge(START, "constructor")
      .addEdge("constructor", END)
      .compile();
    await expect(toLangGraph(graph)).rejects.toMatchObject({
      code: "LANGGRAPH_NODE_NAME",
      message: expect.stringContaining(`"constructor" is the name of an Object.prototype member`),
    });
  });

  it("a graph without nodes is exported and runs START → END, as on the mini engine", async () => {
    const graph = compileGraph<{ n: number }>({
      spec: { nodes: [], edges: [{ from: START, to: END }], routes: [], reducers: [], fields: ["n"] },
      nodes: {},
      routers: {},
      reducers: {},
    });
    expect(await (await toLangGraph(graph)).invoke({ n: 1 })).toEqual((await graph.invoke({ n: 1 })).state);
  });
});

describe("@langchain/langgraph is an optional peer, loaded on demand", () => {
  it("a missing package is LANGGRAPH_NOT_INSTALLED with the install command, never a fallback", async () => {
    const missing = Object.assign(new Error("Cannot find package '@langchain/langgraph'"), { code: "ERR_MODULE_NOT_FOUND" });
    const error: unknown = await loadLangGraph(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LANGGRAPH_NOT_INSTALLED", cause: missing });
    expect((error as Error).message).toContain("npm install @langchain/langgraph @langchain/core zod");
  });

  it("any other load failure is LANGGRAPH_LOAD_FAILED", async () => {
    await expect(loadLangGraph(() => Promise.reject(new SyntaxError("bad")))).rejects.toMatchObject({ code: "LANGGRAPH_LOAD_FAILED" });
  });

  it("nothing the main entry imports names @langchain/*; the langgraph entry imports it only with import()", () => {
    const srcDir = resolve(import.meta.dirname, "../../src");
    const reachable = new Set<string>();
    const visit = (file: string): void => {
      if (reachable.has(file)) return;
      reachable.add(file);
      for (const [, spec] of withoutCommentLines(readFileSync(file, "utf8")).matchAll(
        /(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g,
      )) {
        visit(resolve(dirname(file), (spec as string).replace(/\.js$/, ".ts")));
      }
    };
    visit(join(srcDir, "index.ts"));
    const offenders = [...reachable].filter((file) => /["']@langchain\//.test(readFileSync(file, "utf8")));
    expect(offenders.map((f) => relative(srcDir, f))).toEqual([]);

    const langgraphDir = join(srcDir, "langgraph");
    const valueImports = readdirSync(langgraphDir).flatMap((name) =>
      [...readFileSync(join(langgraphDir, name), "utf8").matchAll(/^(?!import type\b).*["']@langchain\/langgraph["'].*$/gm)].map(
        (m) => `${name}: ${m[0].trim()}`,
      ),
    );
    expect(valueImports).toEqual([
      `_load.ts: export type LangGraphModule = typeof import("@langchain/langgraph");`,
      `_load.ts: const importLangGraph: LangGraphImporter = () => import("@langchain/langgraph");`,
    ]);
  });
});
