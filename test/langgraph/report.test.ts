/**
 * The report graph on three engines: LangGraph.js, the mini engine and the plain loop. Same nodes,
 * same router, same reducers; only the scheduler changes, so the final state must not.
 */
import { describe, expect, it } from "vitest";
import {
  buildReportGraph,
  createReportNodes,
  DRAFT_STYLES,
  initialReportState,
  runReportPlain,
  type ReportRequest,
} from "../../src/examples/report/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { outcome } from "./_helpers.js";

const REQUESTS: readonly ReportRequest[] = [{}, { cities: ["Paris"], includeFahrenheit: false, language: "zh-CN" }];
const CASES = DRAFT_STYLES.flatMap((draftStyle) =>
  [0, 1, 2].flatMap((maxRevisions) => REQUESTS.map((request) => ({ draftStyle, maxRevisions, request }))),
);

describe("the report graph: LangGraph.js, the mini engine and the plain loop agree", () => {
  it.each(CASES)("$draftStyle, maxRevisions $maxRevisions, request $request", async ({ draftStyle, maxRevisions, request }) => {
    const options = { draftStyle, maxRevisions };
    const input = initialReportState(request);
    const graph = buildReportGraph(options);

    const plain = await runReportPlain(input, createReportNodes(options));
    const mini = await graph.invoke(input, { maxSteps: 30 });
    const langGraphState = await (await toLangGraph(graph)).invoke(input, { recursionLimit: 30 });
    const onLangGraph = await runOnLangGraph(graph, input, { maxSteps: 30 });

    expect(mini.state).toEqual(plain.state);
    expect(langGraphState).toEqual(plain.state);
    expect(mini.trace).toEqual(plain.trace);
    expect(outcome(onLangGraph)).toEqual(outcome(mini));
  });

  it("covers every draft style and both outcomes", async () => {
    const statuses = await Promise.all(
      DRAFT_STYLES.map(async (draftStyle) => (await runOnLangGraph(buildReportGraph({ draftStyle }), initialReportState())).state.status),
    );
    expect(statuses).toEqual(["completed", "completed", "needs_attention"]);
  });

  it("LangGraph.js gets its own copy of the input: the caller's object is never changed", async () => {
    const input = initialReportState();
    const before = structuredClone(input);
    await (await toLangGraph(buildReportGraph())).invoke(input);
    await runOnLangGraph(buildReportGraph(), input);
    expect(input).toEqual(before);
  });
});
