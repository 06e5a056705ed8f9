import { describe, expect, it } from "vitest";
import {
  buildReportGraph,
  createReportNodes,
  DRAFT_STYLES,
  initialReportState,
  NOTICES,
  readTeachingRecord,
  REPORT_FIELDS,
  runReportPlain,
  type City,
  type ReportNodeOptions,
  type ReportRequest,
  type ReportState,
} from "../../../src/examples/report/index.js";
import { GraphExecutionError, GraphLimitError } from "../../../src/index.js";

const run = (options: ReportNodeOptions = {}, request: ReportRequest = {}) =>
  buildReportGraph(options).invoke(initialReportState(request), { maxSteps: 30 });

const firstCheck = (steps: readonly { node: string; state: ReportState }[]) => steps.find((s) => s.node === "check_draft")?.state.review;

describe("the default run (missing-notice, one revision)", () => {
  it("collects, drafts, is rejected for the missing notice, revises once and publishes", async () => {
    const { state, trace, steps } = await run();
    expect(trace).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"]);
    expect(state.revisions).toBe(1);
    expect(firstCheck(steps)?.issues).toEqual(["missing_fixed_data_notice"]);
    expect(state.status).toBe("completed");
  });

  it("publishes a row for each city, then the notice", async () => {
    const { state } = await run();
    expect(state.answer).toBe(
      "Tokyo: 18.0°C / 64.4°F, cloudy.\nParis: 12.0°C / 53.6°F, light rain.\nFixed teaching data, not live weather.",
    );
  });

  it("records one plain-words event per node", async () => {
    const { state } = await run();
    expect(state.events).toEqual([
      "collected requested records",
      "wrote draft",
      "checked draft: missing_fixed_data_notice",
      "revised draft",
      "checked draft: accepted",
      "published brief",
    ]);
  });

  it("uses the required notice of the language", async () => {
    const { state } = await run({}, { language: "zh-CN" });
    expect(state.answer?.split("\n").at(-1)).toBe(NOTICES["zh-CN"]);
  });
});

describe("the draft styles and the revision budget", () => {
  it("complete never runs revise_draft", async () => {
    const { state, trace } = await run({ draftStyle: "complete" });
    expect(trace).toEqual(["collect", "write_draft", "check_draft", "publish"]);
    expect(state.revisions).toBe(0);
  });

  it("complete still publishes with maxRevisions 0", async () => {
    const { state, trace } = await run({ draftStyle: "complete", maxRevisions: 0 });
    expect(trace).not.toContain("revise_draft");
    expect(state.status).toBe("completed");
  });

  it("stubborn with maxRevisions 2 holds after 2 revisions, with no answer and the last draft kept", async () => {
    const { state, trace } = await run({ draftStyle: "stubborn", maxRevisions: 2 });
    expect(trace).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "revise_draft", "check_draft", "hold"]);
    expect(state.revisions).toBe(2);
    expect(state.answer).toBeNull();
    expect(state.status).toBe("needs_attention");
    expect(state.draft).toEqual({
      rows: [
        { city: "Tokyo", temperature_c: 18, temperature_f: 64.4, condition: "cloudy" },
        { city: "Paris", temperature_c: 12, temperature_f: 53.6, condition: "light rain" },
      ],
      notice: "",
    });
    expect(state.events.at(-1)).toBe("held draft: revision limit reached");
  });

  it("maxRevisions 0 checks the first draft, then holds", async () => {
    const { state, trace } = await run({ maxRevisions: 0 });
    expect(trace).toEqual(["collect", "write_draft", "check_draft", "hold"]);
    expect(state.review?.issues).toEqual(["missing_fixed_data_notice"]);
    expect(state.status).toBe("needs_attention");
  });
});

describe("the data flow", () => {
  it("changed source data changes the checked numbers: 22.0 °C gives 71.6 °F", async () => {
    const reader = (city: City) => (city === "Tokyo" ? { ...readTeachingRecord(city), temperature_c: 22.0 } : readTeachingRecord(city));
    const { state } = await run({ reader });
    expect(state.review?.checkedDraft?.rows[0]).toEqual({ city: "Tokyo", temperature_c: 22, temperature_f: 71.6, condition: "cloudy" });
    expect(state.answer).toContain("Tokyo: 22.0°C / 71.6°F, cloudy.");
    expect(state.answer).not.toContain("64.4");
  });

  it("a single city with Celsius only gives no °F and no other city", async () => {
    const { state } = await run({}, { cities: ["Paris"], includeFahrenheit: false });
    expect(state.answer).toBe("Paris: 12.0°C, light rain.\nFixed teaching data, not live weather.");
    expect(state.draft?.rows).toEqual([{ city: "Paris", temperature_c: 12, temperature_f: null, condition: "light rain" }]);
  });

  it("revision does not call the reader again: exactly 2 reads for 2 cities", async () => {
    const reads: City[] = [];
    const { trace } = await run({ reader: (city) => (reads.push(city), readTeachingRecord(city)) });
    expect(trace).toContain("revise_draft");
    expect(reads).toEqual(["Tokyo", "Paris"]);
  });

  it("accepts an async reader", async () => {
    const { state } = await run({ reader: async (city) => readTeachingRecord(city) });
    expect(state.status).toBe("completed");
  });
});

describe("failures", () => {
  it("a failed collection raises GraphExecutionError at collect, whose state still has a null draft", async () => {
    const reader = (city: City) => {
      if (city === "Paris") throw new Error("source offline");
      return readTeachingRecord(city);
    };
    const error = await run({ reader }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    const failure = error as GraphExecutionError;
    expect(failure.node).toBe("collect");
    expect(failure.code).toBe("NODE_FAILED");
    expect(failure.trace).toEqual([]);
    expect(failure.state["draft"]).toBeNull();
    // Tokyo was read, but a node commits all or nothing.
    expect(failure.state["readings"]).toEqual([]);
    expect(failure.message).toContain("source offline");
  });

  it("a malformed record fails collect with a message naming the field", async () => {
    const reader = (city: City) => ({ ...readTeachingRecord(city), temperature_c: "18" });
    const error = await run({ reader }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect((error as GraphExecutionError).node).toBe("collect");
    expect((error as GraphExecutionError).message).toMatch(/temperature_c "18"/);
  });

  it("the step limit stops before check_draft when maxSteps is 2", async () => {
    const error = await buildReportGraph()
      .invoke(initialReportState(), { maxSteps: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    expect((error as GraphLimitError).node).toBe("check_draft");
    expect((error as GraphLimitError).trace).toEqual(["collect", "write_draft"]);
  });
});

describe("the graph", () => {
  it("declares every state field, appends events and routes check_draft three ways", () => {
    const { spec } = buildReportGraph();
    expect(spec.nodes).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"]);
    expect(spec.fields).toEqual([...REPORT_FIELDS]);
    expect(spec.reducers).toEqual([{ field: "events", reducer: "append" }]);
    expect(spec.routes).toEqual([
      { from: "check_draft", router: "routeAfterCheck", paths: { accept: "publish", revise: "revise_draft", hold: "hold" } },
    ]);
    expect(spec.edges).toEqual([
      { from: "__start__", to: "collect" },
      { from: "collect", to: "write_draft" },
      { from: "write_draft", to: "check_draft" },
      { from: "revise_draft", to: "check_draft" },
      { from: "publish", to: "__end__" },
      { from: "hold", to: "__end__" },
    ]);
  });
});

describe("the engine agrees with the plain loop", () => {
  const cases = DRAFT_STYLES.flatMap((draftStyle) => [0, 1, 2].map((maxRevisions) => ({ draftStyle, maxRevisions })));

  it.each(cases)("same final state and trace for $draftStyle with maxRevisions $maxRevisions", async (options) => {
    const request: ReportRequest = { cities: ["Paris", "Tokyo"], language: "zh-CN" };
    const engine = await run(options, request);
    const plain = await runReportPlain(initialReportState(request), createReportNodes(options));
    expect(engine.state).toStrictEqual(plain.state);
    expect(engine.trace).toEqual(plain.trace);
  });

  it.each(DRAFT_STYLES)("same final state for %s with the default request", async (draftStyle) => {
    const engine = await run({ draftStyle });
    const plain = await runReportPlain(initialReportState(), createReportNodes({ draftStyle }));
    expect(engine.state).toStrictEqual(plain.state);
  });
});
