import { describe, expect, it } from "vitest";
import {
  createReportNodes,
  expectedRows,
  initialReportState,
  NOTICES,
  readTeachingRecord,
  REVIEW_ISSUES,
  reviewIssues,
  type Draft,
  type ReportNodeOptions,
  type ReportRequest,
  type ReportState,
  type ReportUpdate,
} from "../../../src/examples/report/index.js";

const apply = (state: ReportState, update: ReportUpdate): ReportState => ({
  ...state,
  ...update,
  events: [...state.events, ...(update.events ?? [])],
});

/** The state after collect, with the teaching records (or the given ones). */
function collected(request: ReportRequest = {}): ReportState {
  const state = initialReportState(request);
  return { ...state, readings: state.cities.map(readTeachingRecord) };
}

const rows = (state: ReportState) => expectedRows(state) ?? [];
const withDraft = (state: ReportState, draft: unknown): ReportState => ({ ...state, draft: draft as Draft });

/** A draft, checked. */
function checked(draft: Draft, options: ReportNodeOptions = {}, base: ReportState = collected()): ReportState {
  const nodes = createReportNodes(options);
  const state = withDraft(base, draft);
  return apply(state, nodes.check_draft(state));
}

const good = (state: ReportState = collected()): Draft => ({ rows: rows(state), notice: NOTICES[state.language] });

describe("the check reads the content, not the revision count", () => {
  it.each([0, 1, 5])("a correct draft passes at revisions %i", (revisions) => {
    const state = { ...checked(good()), revisions };
    const nodes = createReportNodes();
    expect(nodes.check_draft({ ...state, review: null }).review?.passed).toBe(true);
  });

  it.each([0, 1, 5])("a draft without the notice fails at revisions %i", (revisions) => {
    const nodes = createReportNodes({ maxRevisions: 10 });
    const state = { ...withDraft(collected(), { rows: rows(collected()), notice: "" }), revisions };
    expect(nodes.check_draft(state).review).toEqual({ passed: false, issues: ["missing_fixed_data_notice"], checkedDraft: state.draft });
  });

  it("a revised draft that is still wrong is rejected again", () => {
    const nodes = createReportNodes({ draftStyle: "stubborn", maxRevisions: 3 });
    let state = apply(collected(), nodes.write_draft(collected()));
    state = apply(state, nodes.check_draft(state));
    state = apply(state, nodes.revise_draft(state));
    expect(nodes.check_draft(state).review?.passed).toBe(false);
  });
});

describe("reviewIssues", () => {
  it("reports every issue in the required order", () => {
    expect(REVIEW_ISSUES).toEqual(["invalid_draft_shape", "rows_do_not_match_records_and_units", "missing_fixed_data_notice"]);
    expect(reviewIssues(withDraft(collected(), null))).toEqual([...REVIEW_ISSUES]);
    expect(reviewIssues(withDraft(collected(), { rows: [], notice: "", extra: 1 }))).toEqual([...REVIEW_ISSUES]);
  });

  it("flags a draft that is not exactly { rows, notice }, even when its rows and notice are right", () => {
    const state = collected();
    expect(reviewIssues(withDraft(state, { ...good(state), title: "Brief" }))).toEqual(["invalid_draft_shape"]);
    expect(reviewIssues(withDraft(state, { rows: rows(state) }))).toEqual(["invalid_draft_shape", "missing_fixed_data_notice"]);
    expect(reviewIssues(withDraft(state, "Tokyo: 18.0°C"))).toEqual([...REVIEW_ISSUES]);
  });

  it("flags rows that do not match the readings: a hard-coded 64.4 °F for a 22 °C reading", () => {
    const state: ReportState = { ...collected({ cities: ["Tokyo"] }), readings: [{ ...readTeachingRecord("Tokyo"), temperature_c: 22 }] };
    const stale = { rows: [{ city: "Tokyo", temperature_c: 22, temperature_f: 64.4, condition: "cloudy" }], notice: NOTICES.en };
    expect(reviewIssues(withDraft(state, stale))).toEqual(["rows_do_not_match_records_and_units"]);
    expect(reviewIssues(withDraft(state, good(state)))).toEqual([]);
  });

  it("flags rows in the wrong units: °F on a Celsius-only page, or none when Fahrenheit is on", () => {
    const celsiusOnly = collected({ includeFahrenheit: false });
    expect(reviewIssues(withDraft(celsiusOnly, good(collected())))).toEqual(["rows_do_not_match_records_and_units"]);
    expect(reviewIssues(withDraft(collected(), good(celsiusOnly)))).toEqual(["rows_do_not_match_records_and_units"]);
  });

  it("flags a missing city and a city out of order", () => {
    const state = collected();
    const [tokyo, paris] = rows(state);
    expect(reviewIssues(withDraft(state, { rows: [tokyo], notice: NOTICES.en }))).toEqual(["rows_do_not_match_records_and_units"]);
    expect(reviewIssues(withDraft(state, { rows: [paris, tokyo], notice: NOTICES.en }))).toEqual(["rows_do_not_match_records_and_units"]);
  });

  it("flags rows when the readings do not cover the requested cities", () => {
    const state = { ...collected(), readings: [readTeachingRecord("Tokyo")] };
    expect(reviewIssues(withDraft(state, good(collected())))).toEqual(["rows_do_not_match_records_and_units"]);
  });

  it("flags the other language's notice", () => {
    const state = collected({ language: "zh-CN" });
    expect(reviewIssues(withDraft(state, { rows: rows(state), notice: NOTICES.en }))).toEqual(["missing_fixed_data_notice"]);
  });
});

describe("routeAfterCheck", () => {
  const nodes = createReportNodes({ maxRevisions: 1 });

  it("accepts a passed review, revises while the budget lasts, then holds", () => {
    expect(nodes.routeAfterCheck(checked(good()))).toBe("accept");
    const rejected = checked({ rows: rows(collected()), notice: "" });
    expect(nodes.routeAfterCheck(rejected)).toBe("revise");
    expect(nodes.routeAfterCheck({ ...rejected, revisions: 1 })).toBe("hold");
  });

  it("throws when the draft has not been checked", () => {
    expect(() => nodes.routeAfterCheck(withDraft(collected(), good()))).toThrow(/^routeAfterCheck: the current draft has not been checked/);
  });

  it("throws when the draft changed after the check", () => {
    const state = checked(good());
    const changed = withDraft(state, { ...good(), notice: `${NOTICES.en} Updated.` });
    expect(() => nodes.routeAfterCheck(changed)).toThrow(/^routeAfterCheck: the review is of a different draft/);
  });
});

describe("a new draft voids the old review", () => {
  it("write_draft sets review to null", () => {
    const nodes = createReportNodes();
    const state = checked(good());
    expect(nodes.write_draft(state)).toHaveProperty("review", null);
  });

  it("revise_draft sets review to null and counts the revision", () => {
    const nodes = createReportNodes();
    const update = nodes.revise_draft(checked({ rows: rows(collected()), notice: "" }));
    expect(update.review).toBeNull();
    expect(update.revisions).toBe(1);
    expect(update.draft?.notice).toBe(NOTICES.en);
  });
});

describe("revise_draft refuses", () => {
  const nodes = createReportNodes({ maxRevisions: 1 });

  it("without a review", () => {
    expect(() => nodes.revise_draft(withDraft(collected(), good()))).toThrow(/^revise_draft: there is no rejected review/);
  });

  it("after an accepting review", () => {
    expect(() => nodes.revise_draft(checked(good()))).toThrow(/^revise_draft: there is no rejected review/);
  });

  it("once the budget is spent", () => {
    const rejected = { ...checked({ rows: rows(collected()), notice: "" }), revisions: 1 };
    expect(() => nodes.revise_draft(rejected)).toThrow(/^revise_draft: the revision budget is spent/);
  });
});

describe("publish re-verifies before it renders", () => {
  const nodes = createReportNodes();

  it("publishes an accepted, unchanged draft", () => {
    expect(nodes.publish(checked(good()))).toEqual({
      answer: "Tokyo: 18.0°C / 64.4°F, cloudy.\nParis: 12.0°C / 53.6°F, light rain.\nFixed teaching data, not live weather.",
      status: "completed",
      events: ["published brief"],
    });
  });

  it("refuses a draft changed after an accepted check", () => {
    const accepted = checked(good());
    const [tokyo, paris] = rows(accepted);
    const changed = withDraft(accepted, { rows: [{ ...tokyo, temperature_c: 30 }, paris], notice: NOTICES.en });
    expect(() => nodes.publish(changed)).toThrow(/^publish: routeAfterCheck: the review is of a different draft/);
  });

  it("refuses an unchecked draft", () => {
    expect(() => nodes.publish(withDraft(collected(), good()))).toThrow(
      /^publish: routeAfterCheck: the current draft has not been checked/,
    );
  });

  it("refuses a rejected draft", () => {
    expect(() => nodes.publish(checked({ rows: rows(collected()), notice: "" }))).toThrow(
      /^publish: the current draft is not accepted \(route revise/,
    );
  });

  it("refuses when the content rules fail although the review passed (readings changed after the check)", () => {
    const accepted = checked(good());
    const tampered = { ...accepted, readings: [{ ...readTeachingRecord("Tokyo"), temperature_c: 25 }, readTeachingRecord("Paris")] };
    expect(() => nodes.publish(tampered)).toThrow(/issues: rows_do_not_match_records_and_units/);
  });
});

describe("hold re-verifies the route", () => {
  const nodes = createReportNodes({ maxRevisions: 0 });

  it("holds a rejected draft once the budget is spent, clearing the answer and keeping the draft", () => {
    const update = nodes.hold(checked({ rows: rows(collected()), notice: "" }, { maxRevisions: 0 }));
    expect(update).toEqual({ answer: null, status: "needs_attention", events: ["held draft: revision limit reached"] });
    expect(update).not.toHaveProperty("draft");
  });

  it("refuses to hold an accepted draft", () => {
    expect(() => nodes.hold(checked(good()))).toThrow(/^hold: the route after the check is accept, not hold/);
  });

  it("refuses to hold while revisions remain", () => {
    const withBudget = createReportNodes({ maxRevisions: 1 });
    expect(() => withBudget.hold(checked({ rows: rows(collected()), notice: "" }))).toThrow(/route after the check is revise/);
  });

  it("refuses to hold an unchecked draft", () => {
    expect(() => nodes.hold(withDraft(collected(), good()))).toThrow(/^hold: routeAfterCheck: the current draft has not been checked/);
  });
});
