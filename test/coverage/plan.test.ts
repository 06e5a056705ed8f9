import { describe, expect, it } from "vitest";
import { coveragePlan, CoverageError, formatPath, transitionsOf } from "../../src/coverage/index.js";
import { buildAgentGraph, ScriptedModel } from "../../src/examples/agent/index.js";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { append, END, InvalidOptionError, START, StateGraph } from "../../src/index.js";
import { counterGraph } from "../helpers/graphs.js";
import { compileSpec, isWalkOf } from "./_graphs.js";

const report = buildReportGraph();
const agent = buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }));
const PLANNERS = ["linear", "xstate", "@xstate/graph"] as const;

describe("transitionsOf", () => {
  it("lists every fixed edge and every route key of the report graph: 9 transitions", () => {
    expect(transitionsOf(report).map((t) => t.label)).toEqual([
      "START → collect",
      "collect → write_draft",
      "write_draft → check_draft",
      "check_draft [accept] → publish",
      "check_draft [revise] → revise_draft",
      "check_draft [hold] → hold",
      "revise_draft → check_draft",
      "publish → END",
      "hold → END",
    ]);
  });
});

describe("coveragePlan on the example graphs", () => {
  it("covers the report graph's 9 transitions with 3 paths, the back-edge included", () => {
    const plan = coveragePlan(report);
    expect(plan.paths.map((p) => p.name)).toEqual(["accept", "revise → accept", "hold"]);
    expect([plan.covered, plan.total]).toEqual([9, 9]);
    expect(formatPath(plan.paths[1] ?? plan.paths[0]!)).toBe(
      "START → collect → write_draft → check_draft [revise] → revise_draft → check_draft [accept] → publish → END",
    );
  });

  it("via xstate, covers the report graph's 9 transitions with XState's 4 paths", async () => {
    const plan = await coveragePlan(report, { via: "xstate" });
    expect(plan.paths.map((p) => p.name)).toEqual(["accept", "revise → accept", "revise → hold", "hold"]);
    expect([plan.via, plan.covered, plan.total]).toEqual(["xstate", 9, 9]);
  });

  it.each(PLANNERS)("covers all 5 transitions of the agent graph (%s)", async (via) => {
    const plan = await coveragePlan(agent, { via });
    expect([plan.covered, plan.total]).toEqual([5, 5]);
    expect(new Set(plan.paths.flatMap((p) => p.transitions))).toEqual(new Set(plan.transitions));
  });

  it("plans the agent graph's three ways to END", () => {
    expect(coveragePlan(agent).paths.map((p) => p.name)).toEqual(["end", "tools → end", "tools → model → end"]);
  });

  it.each(PLANNERS)("gives paths that follow the spec from START to END, with their traces and routes (%s)", async (via) => {
    for (const graph of [report, agent]) {
      for (const path of (await coveragePlan(graph, { via })).paths) expect(isWalkOf(graph.spec, path), path.name).toBe(true);
    }
  });
});

describe("coveragePlan on small graphs", () => {
  it.each(PLANNERS)("covers a self-loop (%s)", async (via) => {
    const plan = await coveragePlan(counterGraph(), { via });
    expect(plan.paths.some((p) => p.name === "again → stop")).toBe(true);
    expect(plan.covered).toBe(plan.total);
  });

  it.each(PLANNERS)("covers a route from START, and two keys that lead to the same node (%s)", async (via) => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addConditionalEdges(START, (): "first" | "second" => "first", { first: "a", second: "a" })
      .addConditionalEdges("a", (): "on" | "skip" => "on", { on: "b", skip: END })
      .addEdge("b", END)
      .compile();
    const plan = await coveragePlan(graph, { via });
    expect([plan.covered, plan.total]).toEqual([5, 5]);
    expect(plan.paths.map((p) => p.routes[0]?.key).sort()).toEqual(expect.arrayContaining(["first", "second"]));
  });

  it("plans one path for a graph without routes, named by its trace", () => {
    const straight = compileSpec({
      nodes: ["a", "b"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: "b" },
        { from: "b", to: END },
      ],
      routes: [],
      reducers: [],
    });
    const plan = coveragePlan(straight);
    expect(plan.paths.map((p) => p.name)).toEqual(["a → b"]);
  });

  it("takes a plain spec as well as a compiled graph", () => {
    expect(coveragePlan({ spec: report.spec }).paths).toEqual(coveragePlan(report).paths);
  });
});

describe("coveragePlan refuses", () => {
  it("a transition no START→END path takes, naming it (code UNCOVERABLE)", () => {
    const spec = {
      nodes: ["a", "lost"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: END },
        { from: "lost", to: END },
      ],
      routes: [],
      reducers: [],
    };
    expect(() => coveragePlan({ spec })).toThrow(
      expect.objectContaining({ code: "UNCOVERABLE", message: expect.stringContaining("lost → END") }),
    );
  });

  it("via xstate, a graph that fans out (code XSTATE_PLAN_UNSUPPORTED); the default planner plans its runs", async () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", ["b", "c"])
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const error = await coveragePlan(graph, { via: "xstate" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoverageError);
    expect(error).toMatchObject({ code: "XSTATE_PLAN_UNSUPPORTED" });
    // test/coverage/parallel.test.ts covers the planned runs themselves.
    expect(coveragePlan(graph).paths.map(formatPath)).toEqual(["START → a → {b, c} → END"]);
  });

  it("an unknown planner, with InvalidOptionError", () => {
    expect(() => coveragePlan(report, { via: "dfs" as "linear" })).toThrow(InvalidOptionError);
    expect(() => coveragePlan(report, { via: "dfs" as "linear" })).toThrow(
      /^coveragePlan: via must be "linear", "xstate" or "@xstate\/graph"/,
    );
  });
});
