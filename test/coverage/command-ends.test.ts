/** Coverage plans and reports take a node's Command ends as transitions of their own (`from [goto] → to`). */
import { describe, expect, it } from "vitest";
import { coveragePlan, coverageReport, transitionsOf } from "../../src/coverage/index.js";
import { append, Command, END, START, StateGraph } from "../../src/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}

/** LangGraph's edgeless shape: triage leaves only by its Command. */
function triage() {
  return new StateGraph<Ticket>({ reducers: { log: append } })
    .addNode("triage", (s) => new Command({ goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] })
    .addNode("page", () => ({ log: ["page"] }))
    .addNode("queue", () => ({ log: ["queue"] }))
    .addEdge(START, "triage")
    .addEdge("page", END)
    .addEdge("queue", END)
    .compile();
}

/** A node whose goto runs beside its own edge. */
function beside() {
  return new StateGraph<Ticket>({ reducers: { log: append } })
    .addNode("a", (s) => (s.urgent ? new Command({ goto: "c" }) : { log: ["a"] }), { ends: ["c"] })
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .addEdge("c", END)
    .compile();
}

describe("coverage of a node's Command ends", () => {
  it("lists each end as a goto transition", () => {
    expect(transitionsOf(triage()).map((t) => t.label)).toEqual([
      "START → triage",
      "triage [goto] → page",
      "triage [goto] → queue",
      "page → END",
      "queue → END",
    ]);
  });

  it("plans a path through each end, recording the goto as the run records it", () => {
    const plan = coveragePlan(triage());
    expect(`${plan.covered}/${plan.total}`).toBe("5/5");
    expect(plan.paths.map((p) => p.name)).toEqual(["goto page", "goto queue"]);
    expect(plan.paths[0]?.routes).toEqual([{ from: "triage", key: "page", to: "page", goto: true }]);
    // A goto is the node's choice, not a router's: there is nothing to script.
    expect(plan.paths[0]?.choices).toEqual([]);
  });

  it("plans the runs of a node whose goto runs beside its edge, superstep by superstep", () => {
    const plan = coveragePlan(beside());
    expect(`${plan.covered}/${plan.total}`).toBe(`${plan.total}/${plan.total}`);
    expect(plan.paths.map((p) => p.supersteps)).toContainEqual([["a"], ["b", "c"]]);
  });

  it("a report counts the gotos the runs took, and names the ones they never did", async () => {
    const graph = triage();
    const report = coverageReport(graph, [await graph.invoke({ urgent: true, log: [] })]);
    expect(report.missing.map((t) => t.label)).toEqual(["triage [goto] → queue", "queue → END"]);
    const both = coverageReport(graph, [await graph.invoke({ urgent: true, log: [] }), await graph.invoke({ urgent: false, log: [] })]);
    expect(both.missing).toEqual([]);
    const parallel = beside();
    const runs = [await parallel.invoke({ urgent: true, log: [] })];
    expect(runs[0]?.trace).toEqual(["a", "b", "c"]);
    expect(coverageReport(parallel, runs).missing).toEqual([]);
  });

  it("a recorded goto the graph does not declare is a mismatch", () => {
    const run = { trace: ["triage", "page"], routes: [{ from: "triage", key: "elsewhere", to: "elsewhere", goto: true as const }] };
    expect(() => coverageReport(triage(), [run])).toThrow(/RUN_MISMATCH|does not declare/);
  });
});
