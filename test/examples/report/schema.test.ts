/**
 * The report example declares its state with `reportStateSchema`, a Standard Schema it carries itself
 * (a JSON Schema and a checker of it, no zod): every run of the example fits it, a wrong value of any
 * field is refused where it enters the state, and its JSON Schema lists exactly the state's fields.
 */
import { describe, expect, it } from "vitest";
import { jsonSchemaIssues } from "../../../src/examples/_json-schema-state.js";
import {
  buildReportGraph,
  DRAFT_STYLES,
  initialReportState,
  REPORT_FIELDS,
  reportStateSchema,
  type ReportState,
} from "../../../src/examples/report/index.js";
import { executionFailure } from "../../helpers/execution-failure.js";
import type { MemoryCheckpointer } from "../../../src/persistence/index.js";
import { expectEditRefused, expectSchemaFields } from "../_state-schema-checks.js";

const validate = (value: unknown) => reportStateSchema["~standard"].validate(value);

describe("reportStateSchema", () => {
  it.each(DRAFT_STYLES)("accepts every state a %s run commits (the run ends where it did without a schema)", async (draftStyle) => {
    const { state, steps } = await buildReportGraph({ draftStyle, maxRevisions: 1 }).invoke(initialReportState(), { maxSteps: 30 });
    expect(["completed", "needs_attention"]).toContain(state.status);
    for (const step of steps) expect(validate(step.state)).toEqual({ value: step.state });
  });

  it.each([
    ["cities", ["Rome"], "cities[0]", 'expected one of "Tokyo", "Paris"'],
    ["includeFahrenheit", "yes", "includeFahrenheit", "expected boolean"],
    ["language", "fr", "language", 'expected one of "en", "zh-CN"'],
    [
      "readings",
      [{ city: "Tokyo", temperature_c: "18", condition: "cloudy", source: "s" }],
      "readings[0].temperature_c",
      "expected number",
    ],
    ["draft", { rows: [], notice: "", extra: 1 }, "draft.extra", "not a field of this object"],
    ["review", { passed: true, issues: [] }, "review.checkedDraft", "required"],
    ["revisions", -1, "revisions", "expected a number ≥ 0"],
    ["events", [1], "events[0]", "expected string"],
    ["answer", 42, "answer", "expected string or null"],
    ["status", "done", "status", "expected one of"],
  ])("refuses a wrong %s at the input with INVALID_INPUT, naming the path", async (field, value, path, message) => {
    const error = await executionFailure(buildReportGraph().invoke({ ...initialReportState(), [field]: value } as ReportState));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(new RegExp(`\\n  - ${path.replace(/[.[\]]/g, "\\$&")} \\((got |missing).*: ${message}`));
  });

  it("refuses an edit of a paused thread it does not accept with INVALID_STATE, keeping the checkpoint", async () => {
    const graph = buildReportGraph({}, { interruptBefore: ["publish"] });
    const run = (checkpointer: MemoryCheckpointer) => graph.invoke(initialReportState(), { threadId: "t", checkpointer, maxSteps: 30 });
    await expectEditRefused(graph, run, { revisions: 1.5 }, "revisions (got 1.5): expected integer");
  });

  it("is the graph's schema, and its JSON Schema lists exactly the state's fields, none other allowed", () => {
    expectSchemaFields(buildReportGraph(), reportStateSchema, REPORT_FIELDS);
  });

  it("refuses an unknown field of the input", async () => {
    const error = await executionFailure(buildReportGraph().invoke({ ...initialReportState(), colour: "blue" } as ReportState));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^invoke: the input has fields the graph .*"colour"/);
  });
});

describe("jsonSchemaIssues (the subset the examples' schemas use)", () => {
  it("reports every issue with its path, and none for a fitting value", () => {
    const schema = {
      type: "object",
      properties: { n: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
      required: ["n", "tags"],
      additionalProperties: false,
    } as const;
    expect(jsonSchemaIssues(schema, { n: 1, tags: ["a"] })).toEqual([]);
    expect(jsonSchemaIssues(schema, { n: -1, tags: ["a", 2], x: 0 })).toEqual([
      { path: ["x"], message: "not a field of this object" },
      { path: ["n"], message: "expected a number ≥ 0" },
      { path: ["tags", 1], message: "expected string" },
    ]);
    expect(jsonSchemaIssues(schema, { tags: [] })).toEqual([{ path: ["n"], message: "required" }]);
    expect(jsonSchemaIssues(schema, [])).toEqual([{ path: [], message: "expected object" }]);
    expect(jsonSchemaIssues({ type: "number" }, Number.NaN)).toEqual([{ path: [], message: "expected number" }]);
  });
});
