/**
 * Streaming on LangGraph.js in one run: `["updates", "values"]` yields each node's change slip and
 * the accumulated state from a single execution; the counting reader proves it ran once.
 */
import { describe, expect, it } from "vitest";
import { buildReportGraph, initialReportState, readTeachingRecord, type City, type ReportState } from "../../src/examples/report/index.js";
import { streamOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";

function countingReader() {
  const reads: City[] = [];
  return { reads, reader: (city: City) => (reads.push(city), readTeachingRecord(city)) };
}

const DEFAULT_PATH = ["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"];

describe("stream on LangGraph.js with streamMode [updates, values], consumed once", () => {
  it("yields per-node updates with one new event each, values ending with all 6 events, and reads each city once", async () => {
    const { reads, reader } = countingReader();
    const graph = await toLangGraph(buildReportGraph({ reader }));
    const updates: [string, Partial<ReportState>][] = [];
    const values: ReportState[] = [];

    for await (const chunk of await graph.stream(initialReportState(), { streamMode: ["updates", "values"] })) {
      const [mode, payload] = chunk as ["updates", Record<string, Partial<ReportState>>] | ["values", ReportState];
      if (mode === "updates") updates.push(...Object.entries(payload));
      else values.push(payload);
    }

    expect(updates.map(([node]) => node)).toEqual(DEFAULT_PATH);
    for (const [, update] of updates) expect(update.events).toHaveLength(1);
    expect(values.map((state) => state.events.length)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const last = values.at(-1);
    expect(last?.events).toEqual([
      "collected requested records",
      "wrote draft",
      "checked draft: missing_fixed_data_notice",
      "revised draft",
      "checked draft: accepted",
      "published brief",
    ]);
    expect(last?.status).toBe("completed");
    expect(reads).toEqual(["Tokyo", "Paris"]);
  });

  it("streamOnLangGraph yields the mini engine's steps from one LangGraph run", async () => {
    const lg = countingReader();
    const mini = countingReader();
    const onLangGraph = [];
    for await (const step of streamOnLangGraph(buildReportGraph({ reader: lg.reader }), initialReportState())) onLangGraph.push(step);
    const onMini = [];
    for await (const step of buildReportGraph({ reader: mini.reader }).stream(initialReportState())) onMini.push(step);

    expect(onLangGraph.map((s) => [s.node, s.update, s.state, s.route])).toEqual(onMini.map((s) => [s.node, s.update, s.state, s.route]));
    expect(onLangGraph.map((s) => s.node)).toEqual(DEFAULT_PATH);
    expect(lg.reads).toHaveLength(2);
    expect(mini.reads).toHaveLength(2);
  });
});
