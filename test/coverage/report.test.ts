import { describe, expect, it } from "vitest";
import { coverageReport, CoverageError } from "../../src/coverage/index.js";
import {
  AGENT_TASKS,
  agentQuestion,
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  ScriptedModel,
  type AgentOptions,
} from "../../src/examples/agent/index.js";
import { buildReportGraph, initialReportState, type DraftStyle } from "../../src/examples/report/index.js";
import { append, END, START, StateGraph } from "../../src/index.js";
import { assertRouteCoverage } from "../../src/testing/assert-route-coverage.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState } from "../../src/xstate/index.js";

const report = buildReportGraph();

/** The report suite's runs: a draft that passes, one fixed by a revision, one held twice over. */
async function reportRuns(styles: readonly [DraftStyle, number][]) {
  return Promise.all(
    styles.map(([draftStyle, maxRevisions]) =>
      buildReportGraph({ draftStyle, maxRevisions }).invoke(initialReportState(), { maxSteps: 30 }),
    ),
  );
}

/** The agent suite's runs: every task, plus a tool budget of 0. */
async function agentRuns(budgets: readonly AgentOptions[]) {
  const runs = [];
  for (const task of AGENT_TASKS) {
    for (const budget of budgets) {
      const graph = buildAgentGraph(new ScriptedModel({ city: "Paris", task, language: "en" }), budget);
      runs.push(
        await graph.invoke(initialAgentState(agentQuestion({ city: "Paris", task, language: "en" })), { maxSteps: agentStepLimit(6) }),
      );
    }
  }
  return runs;
}

describe("coverageReport", () => {
  it("lists what one run exercised and what it missed", async () => {
    const result = coverageReport(report, await reportRuns([["missing-notice", 1]]));
    expect(result.missing.map((t) => t.label)).toEqual(["check_draft [hold] → hold", "hold → END"]);
    expect([result.covered, result.total, result.runs]).toEqual([7, 9, 1]);
  });

  it("counts how often the runs took each transition, back-edges included", async () => {
    const result = coverageReport(
      report,
      await reportRuns([
        ["stubborn", 2],
        ["complete", 0],
      ]),
    );
    const count = (label: string) => result.counts.find((c) => c.transition.label === label)?.count;
    expect(count("START → collect")).toBe(2);
    expect(count("check_draft [revise] → revise_draft")).toBe(2);
    expect(count("revise_draft → check_draft")).toBe(2);
    expect(count("check_draft [accept] → publish")).toBe(1);
  });

  it("reads runs of either engine, or plain { trace, routes } records", async () => {
    const graph = buildReportGraph({ draftStyle: "stubborn", maxRevisions: 1 });
    const onXState = await runOnXState(graph, initialReportState(), { maxSteps: 30 });
    const { trace, routes } = await graph.invoke(initialReportState(), { maxSteps: 30 });
    expect(coverageReport(report, [onXState])).toEqual(coverageReport(report, [{ trace: [...trace], routes: [...routes] }]));
  });

  it("counts a fan-out's and a join's edges when their sources ran", async () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("plan", () => ({}))
      .addNode("web", () => ({ log: ["web"] }))
      .addNode("papers", () => ({ log: ["papers"] }))
      .addNode("merge", () => ({}))
      .addEdge(START, "plan")
      .addEdge("plan", ["web", "papers"])
      .addEdge(["web", "papers"], "merge")
      .addEdge("merge", END)
      .compile();
    const result = coverageReport(graph, [await graph.invoke({ log: [] })]);
    expect([result.covered, result.total]).toEqual([6, 6]);
  });

  it("refuses a run of another graph (code RUN_MISMATCH), naming what does not fit", async () => {
    const [run] = await reportRuns([["complete", 0]]);
    expect(() => coverageReport(report, [{ trace: ["collect", "fly"], routes: [] }])).toThrow(
      /^coverageReport: run #1 does not fit the graph: its trace names "fly"/,
    );
    expect(() => coverageReport(report, [run!, { trace: [], routes: [{ from: "check_draft", key: "skip", to: "publish" }] }])).toThrow(
      expect.objectContaining({ code: "RUN_MISMATCH", message: expect.stringContaining("run #2") }),
    );
    expect(() => coverageReport(report, [{ trace: [], routes: [{ from: "check_draft", key: "accept", to: "hold" }] }])).toThrow(
      /took the route/,
    );
    expect(() => coverageReport(report, [{ trace: "collect" } as never])).toThrow(CoverageError);
  });
});

describe("coverageReport checks each run against the graph (RUN_MISMATCH)", () => {
  const accepted = ["collect", "write_draft", "check_draft", "publish"];
  const accept = { from: "check_draft", key: "accept", to: "publish" };
  const mismatch = (why: string) =>
    expect.objectContaining({
      code: "RUN_MISMATCH",
      message: `coverageReport: run #1 does not fit the graph: ${why}. Report runs of this graph only.`,
    });

  it("counts a consistent hand-made record as a real run does", async () => {
    const [run] = await reportRuns([["complete", 0]]);
    expect(coverageReport(report, [{ trace: accepted, routes: [accept] }])).toEqual(coverageReport(report, [run!]));
  });

  it.each([
    [
      "a trace that skips a fixed edge",
      { trace: ["collect", "publish"], routes: [] },
      "after collect publish ran next, which no edge of this graph allows",
    ],
    [
      "a route whose destination never ran",
      { trace: ["collect", "write_draft", "check_draft"], routes: [{ from: "check_draft", key: "hold", to: "hold" }] },
      "it took the route check_draft [hold] → hold, but hold never ran",
    ],
    [
      "a route whose source never ran",
      { trace: ["collect", "write_draft"], routes: [accept] },
      "it took the route check_draft [accept] → publish, but check_draft never ran",
    ],
    [
      "a router's choice missing from routes",
      { trace: accepted, routes: [] },
      "after check_draft its routes do not say which key check_draft's router returned",
    ],
    [
      "a route that leads elsewhere than the trace",
      { trace: [...accepted.slice(0, 3), "revise_draft", "check_draft", "publish"], routes: [accept, accept] },
      "it took the route check_draft [accept] → publish after check_draft, but revise_draft ran next",
    ],
    [
      "a run that stops before END",
      { trace: ["collect", "write_draft"], routes: [] },
      "after write_draft the run ended, which no edge of this graph allows",
    ],
    [
      "a trace that does not start at START's successor",
      { trace: ["write_draft", "check_draft", "publish"], routes: [accept] },
      "after START write_draft ran next, which no edge of this graph allows",
    ],
    [
      "a route taken twice for one check",
      { trace: accepted, routes: [accept, accept] },
      "its route check_draft [accept] → publish does not follow its trace",
    ],
  ])("refuses %s", (_what, run, why) => {
    expect(() => coverageReport(report, [run])).toThrow(mismatch(why));
  });

  it("accepts a paused threaded run, whose last route leads to the node still to run", async () => {
    const paused = await buildReportGraph({ draftStyle: "complete" }, { interruptBefore: ["publish"] }).invoke(initialReportState(), {
      threadId: "t",
      checkpointer: new MemoryCheckpointer(),
    });
    expect(paused.status).toBe("interrupted");
    expect(paused.routes).toEqual([accept]);
    expect(coverageReport(report, [paused]).covered).toBe(4);
  });

  it("accepts every real run of every example graph, on every engine", async () => {
    const runs = await reportRuns([
      ["complete", 1],
      ["missing-notice", 1],
      ["stubborn", 1],
      ["stubborn", 0],
    ]);
    expect(coverageReport(report, runs).covered).toBe(9);
    const onXState = await runOnXState(report, initialReportState(), { maxSteps: 30 });
    expect(() => coverageReport(report, [onXState])).not.toThrow();
  });
});

describe("assertRouteCoverage", () => {
  it("passes for the report suite's runs, which take all 9 transitions", async () => {
    const result = assertRouteCoverage(
      report,
      await reportRuns([
        ["complete", 1],
        ["missing-notice", 1],
        ["stubborn", 1],
      ]),
    );
    expect([result.covered, result.total]).toEqual([9, 9]);
  });

  it("passes for the agent suite's runs, which take all 5 transitions", async () => {
    const agent = buildAgentGraph(new ScriptedModel({ city: "Paris", task: "greet", language: "en" }));
    const result = assertRouteCoverage(agent, await agentRuns([{}, { maxToolCalls: 0 }]));
    expect([result.covered, result.total]).toEqual([5, 5]);
  });

  it("throws a CoverageError listing each transition no run took", async () => {
    const error = (() => {
      try {
        assertRouteCoverage(report, [] as never[]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CoverageError);
    expect(error).toMatchObject({ code: "MISSING_TRANSITIONS" });
    expect((error as CoverageError).transitions).toHaveLength(9);
  });

  it("names the missing routes in its message, with how to find runs that take them", async () => {
    const agent = buildAgentGraph(new ScriptedModel({ city: "Paris", task: "greet", language: "en" }));
    expect(() => assertRouteCoverage(agent, [] as never[])).toThrow(
      /^assertRouteCoverage: 5 of 5 transitions were never taken by the 0 run\(s\):\n {2}- START → model\n/,
    );
    const onlyAnswers = await agentRuns([{}]);
    expect(() => assertRouteCoverage(agent, onlyAnswers)).toThrow(
      "assertRouteCoverage: 1 of 5 transitions were never taken by the 3 run(s):\n  - tools [end] → END\n" +
        "Add runs that take them: coveragePlan(graph) lists a path through each, and replayPath(graph, path, input) runs one.",
    );
  });
});
