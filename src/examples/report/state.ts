/**
 * The report workflow's worksheet: the data a run needs to continue, and nothing else.
 * `draft` and `review` hold the *current* document and its assessment (replaced whole);
 * `events` is the one deliberately cumulative field (the append reducer).
 */

/** A city the teaching records cover. */
export type City = "Tokyo" | "Paris";

/** A page language, which picks the required notice. */
export type Language = "en" | "zh-CN";

/** Where a run stands: `completed` only after publish, `needs_attention` after hold. */
export type ReportStatus = "working" | "completed" | "needs_attention";

/** One collected record, exactly as a reader must return it (snake_case keys are the record format). */
export interface Reading {
  readonly city: City;
  readonly temperature_c: number;
  readonly condition: string;
  readonly source: string;
}

/**
 * One display row of the brief. `temperature_f` is computed from `temperature_c` with
 * `fahrenheit()` when Fahrenheit is on, and `null` when the page is Celsius only.
 */
export interface DraftRow {
  readonly city: City;
  readonly temperature_c: number;
  readonly temperature_f: number | null;
  readonly condition: string;
}

/** The document under review: display rows plus the data notice. */
export interface Draft {
  readonly rows: readonly DraftRow[];
  readonly notice: string;
}

/** A reason `check_draft` rejects a draft. The order of this union is the order issues are reported in. */
export type ReviewIssue = "invalid_draft_shape" | "rows_do_not_match_records_and_units" | "missing_fixed_data_notice";

/** The assessment of one specific draft: `checkedDraft` is a copy of what was checked. */
export interface Review {
  readonly passed: boolean;
  readonly issues: readonly ReviewIssue[];
  readonly checkedDraft: Draft | null;
}

/**
 * The state of one report run.
 *
 * @example
 * ```ts
 * const state: ReportState = initialReportState({ cities: ["Tokyo"], includeFahrenheit: false, language: "en" });
 * state.draft; // null until write_draft runs
 * ```
 */
export interface ReportState {
  readonly cities: readonly City[];
  readonly includeFahrenheit: boolean;
  readonly language: Language;
  readonly readings: readonly Reading[];
  readonly draft: Draft | null;
  readonly review: Review | null;
  /** Revisions performed so far (not checks: the first check and the re-check are two checks, one revision). */
  readonly revisions: number;
  /** What happened, in plain words, one entry per node. Uses the append reducer. */
  readonly events: readonly string[];
  /** The published brief, or `null` until publish (and after hold). */
  readonly answer: string | null;
  readonly status: ReportStatus;
}

/** An update a report node returns: only the fields it changed. */
export type ReportUpdate = Partial<ReportState>;

/** Every field of {@link ReportState}, for the graph's `fields` option. */
export const REPORT_FIELDS = [
  "cities",
  "includeFahrenheit",
  "language",
  "readings",
  "draft",
  "review",
  "revisions",
  "events",
  "answer",
  "status",
] as const satisfies readonly (keyof ReportState)[];
