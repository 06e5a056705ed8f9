/** The coverage overlay: transitions that recorded runs never took are drawn dashed and red. */
import { describe, expect, it } from "vitest";
import { coverageReport } from "../../src/coverage/index.js";
import { initialReportState } from "../../src/examples/report/index.js";
import { InvalidOptionError } from "../../src/index.js";
import { toDot } from "../../src/render/dot.js";
import { toMermaid } from "../../src/render/mermaid.js";
import { everyRule, examples } from "./_graphs.js";
import { readDot, readMermaid } from "./_read.js";

async function reportRun() {
  const graph = examples.report();
  return { graph, run: await graph.invoke(initialReportState(), { maxSteps: 30 }) };
}

describe("toMermaid(graph, { coverage })", () => {
  it("dashes and colours what a coverage report says the runs never took", async () => {
    const { graph, run } = await reportRun();
    expect(toMermaid(graph, { coverage: coverageReport(graph, [run]) })).toMatchInlineSnapshot(`
      "flowchart TD
        %% coverage: 7/9 transitions taken; dashed red: never taken
        __start__(("START"))
        collect["collect"]
        write_draft["write_draft"]
        check_draft["check_draft"]
        revise_draft["revise_draft"]
        publish["publish"]
        hold["hold"]
        __end__((("END")))
        __start__ --> collect
        collect --> write_draft
        write_draft --> check_draft
        check_draft -->|"accept"| publish
        check_draft -->|"revise"| revise_draft
        check_draft -.->|"hold"| hold
        revise_draft --> check_draft
        publish --> __end__
        hold -.-> __end__
        linkStyle 5,8 stroke:#d62728,stroke-width:2px,color:#d62728
      "
    `);
  });

  it("takes a plain list of transitions: fixed edges as { from, to }, route keys with their key", async () => {
    const { graph, run } = await reportRun();
    const fixed = graph.spec.edges.filter((edge) => edge.from === "__start__" || run.trace.includes(edge.from));
    expect(toMermaid(graph, { coverage: [...fixed, ...run.routes] })).toBe(toMermaid(graph, { coverage: coverageReport(graph, [run]) }));
  });

  it("a transition without a key marks the route keys that lead to its destination", () => {
    const graph = examples.report();
    const drawing = readMermaid(toMermaid(graph, { coverage: [{ from: "check_draft", to: "hold" }] }));
    const taken = drawing.links.filter((link) => link.arrow !== "-.->").map((link) => `${link.from} ${link.label ?? ""} ${link.to}`);
    expect(taken).toEqual(["check_draft hold hold"]);
  });

  it("with no run, every transition is dashed", () => {
    const graph = examples.research();
    const drawing = readMermaid(toMermaid(graph, { coverage: [] }));
    expect(drawing.links.every((link) => link.arrow === "-.->")).toBe(true);
    expect(toMermaid(graph, { coverage: [] })).toContain("%% coverage: 0/8 transitions taken");
  });

  it("a join's way out is dashed while any way in is", () => {
    const partly = readMermaid(toMermaid(everyRule, { coverage: [{ from: "a", to: "merge" }] }));
    const out = partly.links.find((link) => link.from.startsWith("join_"));
    expect(out?.arrow).toBe("-.->");
    const fully = readMermaid(
      toMermaid(everyRule, {
        coverage: [
          { from: "a", to: "merge" },
          { from: "b", to: "merge" },
        ],
      }),
    );
    expect(fully.links.filter((link) => link.arrow !== "-.->").map((link) => `${link.from}→${link.to}`)).toEqual([
      "a→join_0",
      "b→join_0",
      "join_0→merge",
    ]);
  });

  it("rejects coverage of transitions the graph does not declare, naming them", () => {
    const graph = examples.report();
    expect(() => toMermaid(graph, { coverage: [{ from: "check_draft", key: "approve", to: "publish" }] })).toThrow(
      new InvalidOptionError(
        "toMermaid: the coverage names the transition check_draft [approve] → publish, which this graph does not declare; pass the coverage of this graph's runs.",
      ),
    );
    expect(() => toDot(graph, { coverage: [{ from: "__start__", to: "hold" }] })).toThrow(
      /^toDot: the coverage names the transition START → hold/,
    );
  });
});

describe("toDot(graph, { coverage })", () => {
  it("dashes, colours and classes the transitions never taken", async () => {
    const { graph, run } = await reportRun();
    const drawing = readDot(toDot(graph, { coverage: coverageReport(graph, [run]) }));
    expect(drawing.links.filter((link) => link.arrow === "dashed").map((link) => `${link.from} → ${link.to}`)).toEqual([
      "check_draft → hold",
      "hold → __end__",
    ]);
    expect(toDot(graph, { coverage: coverageReport(graph, [run]) })).toContain(
      `check_draft -> hold [label="hold", style="dashed", color="#d62728", fontcolor="#d62728", class="missed"];`,
    );
  });
});
