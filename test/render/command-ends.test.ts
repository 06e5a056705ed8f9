/** Diagrams draw a node's Command ends dashed, as LangGraph draws them, and a coverage overlay marks the gotos runs took. */
import { describe, expect, it } from "vitest";
import { coverageReport } from "../../src/coverage/index.js";
import { append, Command, END, START, StateGraph } from "../../src/index.js";
import { toDot } from "../../src/render/dot.js";
import { toMermaid } from "../../src/render/mermaid.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}

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

describe("diagrams of a node's Command ends", () => {
  it("Mermaid draws each end as a dashed arrow", () => {
    const text = toMermaid(triage());
    expect(text).toContain("  triage -.-> page\n  triage -.-> queue\n");
    expect(text).toContain("  __start__ --> triage\n");
  });

  it("DOT draws each end dashed", () => {
    expect(toDot(triage())).toContain(`  triage -> page [style="dashed"];\n  triage -> queue [style="dashed"];\n`);
  });

  it("a coverage overlay marks the gotos the runs never took, from a report or from a run's routes", async () => {
    const graph = triage();
    const run = await graph.invoke({ urgent: true, log: [] });
    const fromReport = toDot(graph, { coverage: coverageReport(graph, [run]) });
    const fromRoutes = toDot(graph, { coverage: [...run.routes, { from: START, to: "triage" }, { from: "page", to: END }] });
    for (const text of [fromReport, fromRoutes]) {
      expect(text).toContain("coverage: 3/5 transitions taken");
      expect(text).toContain(`  triage -> page [style="dashed"];\n`);
      expect(text).toContain(`  triage -> queue [style="dashed", color="#d62728", fontcolor="#d62728", class="missed"];\n`);
    }
    expect(() => toMermaid(graph, { coverage: [{ from: "triage", to: "__end__", goto: true }] })).toThrow(
      /toMermaid: the coverage names the goto triage → END, which the ends of triage do not declare/,
    );
  });
});
