/** The declarative forms compile to the same graphs as the builder: same spec, same runs, same validation. */
import { describe, expect, it } from "vitest";
import {
  AGENT_STATE_FIELDS,
  buildAgentGraph,
  createAgentNodes,
  initialAgentState,
  routeAfterModel,
  routeAfterTools,
  ScriptedModel,
  type AgentState,
} from "../../src/examples/agent/index.js";
import {
  buildReportGraph,
  createReportNodes,
  DRAFT_STYLES,
  initialReportState,
  REPORT_FIELDS,
  type ReportState,
} from "../../src/examples/report/index.js";
import { append, bindSpec, defineGraph, END, GraphValidationError, replace, route, START } from "../../src/index.js";

function declarativeReport(options: Parameters<typeof createReportNodes>[0]) {
  const nodes = createReportNodes(options);
  return defineGraph<ReportState>()({
    reducers: { events: append },
    fields: [...REPORT_FIELDS],
    nodes: {
      collect: nodes.collect,
      write_draft: nodes.write_draft,
      check_draft: nodes.check_draft,
      revise_draft: nodes.revise_draft,
      publish: nodes.publish,
      hold: nodes.hold,
    },
    edges: [
      [START, "collect"],
      ["collect", "write_draft"],
      ["write_draft", "check_draft"],
      ["revise_draft", "check_draft"],
      ["publish", END],
      ["hold", END],
    ],
    routes: { check_draft: route(nodes.routeAfterCheck, { accept: "publish", revise: "revise_draft", hold: "hold" }) },
  });
}

function declarativeAgent(model: ScriptedModel) {
  const nodes = createAgentNodes(model);
  return defineGraph<AgentState>()({
    reducers: { messages: append, events: append, pendingToolCalls: replace },
    fields: [...AGENT_STATE_FIELDS],
    nodes: { model: nodes.model, tools: nodes.tools },
    edges: [[START, "model"]],
    routes: {
      model: route(routeAfterModel, { tools: "tools", end: END }),
      tools: route(routeAfterTools, { model: "model", end: END }),
    },
  });
}

/** Routes and edges are declared in another order by each form; compare them as sets. */
function normalized(spec: { readonly edges: readonly object[]; readonly routes: readonly object[] }) {
  const sortJson = (items: readonly object[]) => items.map((item) => JSON.stringify(item)).sort();
  return { ...spec, edges: sortJson(spec.edges), routes: sortJson(spec.routes) };
}

describe("defineGraph", () => {
  it.each(DRAFT_STYLES)("the report graph (%s) has the builder's spec and runs identically", async (draftStyle) => {
    for (const maxRevisions of [0, 1, 2]) {
      const built = buildReportGraph({ draftStyle, maxRevisions });
      const declared = declarativeReport({ draftStyle, maxRevisions });
      expect(normalized(declared.spec)).toEqual(normalized(built.spec));
      const input = initialReportState({ cities: ["Tokyo", "Paris"], includeFahrenheit: true, language: "en" });
      const [a, b] = await Promise.all([built.invoke(input), declared.invoke(input)]);
      expect(b.trace).toEqual(a.trace);
      expect(b.state).toEqual(a.state);
    }
  });

  it.each(["greet", "weather", "convert"] as const)("the agent graph (%s) runs identically", async (task) => {
    const script = { city: "Tokyo", task, language: "en" } as const;
    const question = initialAgentState("What is the weather in Tokyo?");
    const a = await buildAgentGraph(new ScriptedModel(script)).invoke(question, { maxSteps: 16 });
    const b = await declarativeAgent(new ScriptedModel(script)).invoke(question, { maxSteps: 16 });
    expect(b.trace).toEqual(a.trace);
    expect(b.state).toEqual(a.state);
  });

  it("validates at run time like compile(), listing every problem", () => {
    const loose = defineGraph<{ n: number }>() as unknown as (d: unknown, o: unknown) => unknown;
    let error: unknown;
    try {
      loose({ nodes: { a: () => ({}), b: () => ({}) }, edges: [[START, "a"]] }, { typeLevelTopology: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as GraphValidationError).problems.map((p) => p.code)).toEqual([
      "NO_OUTGOING_RULE",
      "NO_OUTGOING_RULE",
      "UNREACHABLE_NODE",
    ]);
  });

  it("rejects a malformed definition with a clear message", () => {
    const loose = defineGraph<{ n: number }>() as unknown as (d: unknown) => unknown;
    expect(() => loose({ nodes: {}, edges: [["a"]] })).toThrow(/^defineGraph: each edge is a pair \[from, to\]/);
    expect(() => loose({ nodes: { a: () => ({}) }, edges: [[START, "a"]], routes: { a: () => "x" } })).toThrow(
      /must be made with route\(router, pathMap\)/,
    );
  });
});

describe("bindSpec", () => {
  const reportImplementations = (draftStyle: (typeof DRAFT_STYLES)[number]) => {
    const { routeAfterCheck, ...nodes } = createReportNodes({ draftStyle });
    return { nodes, routers: { check_draft: routeAfterCheck } };
  };

  it.each(DRAFT_STYLES)("a compiled graph's spec, bound again, gives the same runs (%s)", async (draftStyle) => {
    const built = buildReportGraph({ draftStyle });
    const json = JSON.parse(JSON.stringify(built.spec)) as unknown;
    const bound = bindSpec(json, reportImplementations(draftStyle));
    expect(bound.spec).toEqual(built.spec);
    const input = initialReportState({ cities: ["Paris"], includeFahrenheit: false, language: "zh-CN" });
    const [a, b] = await Promise.all([built.invoke(input), bound.invoke(input as unknown as Record<string, unknown>)]);
    expect(b.trace).toEqual(a.trace);
    expect(b.state).toEqual(a.state);
  });

  it("binds again the spec of a graph with a subgraph node", async () => {
    const child = defineGraph<{ n: number }>()({
      nodes: { inner: (s) => ({ n: s.n + 1 }) },
      edges: [
        [START, "inner"],
        ["inner", END],
      ],
    });
    const { subgraph } = await import("../../src/index.js");
    const outerNodes = { outer: subgraph(child) };
    const parent = defineGraph<{ n: number }>()({
      nodes: outerNodes,
      edges: [
        [START, "outer"],
        ["outer", END],
      ],
    });
    const bound = bindSpec(JSON.parse(JSON.stringify(parent.spec)) as unknown, { nodes: outerNodes });
    expect(bound.spec).toEqual(parent.spec);
    expect((await bound.invoke({ n: 1 })).state).toEqual({ n: 2 });
  });

  it("reports schema problems with their paths", () => {
    let error: unknown;
    try {
      bindSpec({ nodes: ["a", 3], edges: "none", routes: [{ from: "a", paths: { x: 1 } }], colour: "red" }, { nodes: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    const problems = (error as GraphValidationError).problems;
    expect(problems.map((p) => `${p.code}:${p.node}`)).toEqual([
      "INVALID_SPEC:spec.nodes[1]",
      "INVALID_SPEC:spec.edges",
      "INVALID_SPEC:spec.routes[0].paths.x",
      "INVALID_SPEC:spec.colour",
    ]);
    expect(problems[1]?.message).toBe(`spec.edges must be a list; got "none".`);
    expect((error as GraphValidationError).message).toMatch(/^bindSpec: the graph has 4 problems:\n/);
  });

  it("lists missing and extra implementations, and reducers it cannot resolve", () => {
    const spec = {
      nodes: ["a", "b"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: "b" },
      ],
      routes: [{ from: "b", paths: { done: END } }],
      reducers: [{ field: "log", reducer: "myMerge" }],
    };
    let error: unknown;
    try {
      bindSpec(spec as unknown, { nodes: { a: () => ({}), c: () => ({}) }, routers: { a: () => "x" } });
    } catch (e) {
      error = e;
    }
    expect((error as GraphValidationError).problems.map((p) => `${p.code}:${p.node}`)).toEqual([
      "MISSING_IMPLEMENTATION:b",
      "MISSING_IMPLEMENTATION:b",
      "EXTRA_IMPLEMENTATION:c",
      "EXTRA_IMPLEMENTATION:a",
      "MISSING_IMPLEMENTATION:log",
    ]);
  });

  it("lists the topology's problems together with the implementations'", () => {
    const spec = {
      nodes: ["a", "orphan"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: END },
        { from: "orphan", to: END },
      ],
      routes: [],
    };
    let error: unknown;
    try {
      bindSpec(spec as unknown, { nodes: { a: () => ({}) } });
    } catch (e) {
      error = e;
    }
    expect((error as GraphValidationError).problems.map((p) => `${p.code}:${p.node}`)).toEqual([
      "MISSING_IMPLEMENTATION:orphan",
      "UNREACHABLE_NODE:orphan",
    ]);
  });

  it("rejects a spec that lists a field twice", () => {
    expect(() => bindSpec({ nodes: [], edges: [], routes: [], fields: ["n", "n"] } as unknown, { nodes: {} })).toThrow(
      /spec\.fields must be a list of distinct field names/,
    );
  });

  it("checks the topology of a spec, listing every problem", () => {
    const spec = {
      nodes: ["a", "orphan"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: END },
        { from: "orphan", to: "orphan" },
      ],
      routes: [],
    };
    expect(() => bindSpec(spec as unknown, { nodes: { a: () => ({}), orphan: () => ({}) } })).toThrow(
      /UNREACHABLE_NODE[\s\S]*NO_PATH_TO_END/,
    );
  });
});
