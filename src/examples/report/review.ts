/**
 * The acceptance rules. They read the draft's content and the request, never the revision count:
 * a draft passes because it is right, not because it has had its turn.
 */
import { isRecord, sameData } from "../_data.js";
import { NOTICES } from "./data.js";
import { expectedRows } from "./draft.js";
import type { Draft, ReportState, ReviewIssue } from "./state.js";

/** Every review issue, in the order `reviewIssues` reports them. */
export const REVIEW_ISSUES: readonly ReviewIssue[] = [
  "invalid_draft_shape",
  "rows_do_not_match_records_and_units",
  "missing_fixed_data_notice",
];

/**
 * The problems of the current draft, in {@link REVIEW_ISSUES} order; `[]` means it passes.
 * Each rule is judged on its own, so a malformed draft also reports the rows and notice it lacks.
 *
 * - `invalid_draft_shape`: the draft is not exactly `{ rows: [...], notice: "..." }`;
 * - `rows_do_not_match_records_and_units`: the rows differ from {@link expectedRows};
 * - `missing_fixed_data_notice`: the notice is not the language's required sentence.
 *
 * @example
 * ```ts
 * reviewIssues({ ...state, draft: { rows: expectedRows(state), notice: "" } }); // ["missing_fixed_data_notice"]
 * ```
 */
export function reviewIssues(state: ReportState): ReviewIssue[] {
  // The state type promises a Draft, but a draft is what is being checked: read it as untrusted data.
  const draft: unknown = state.draft;
  const fields = isRecord(draft) ? draft : {};
  const issues: ReviewIssue[] = [];
  if (!isDraftShaped(draft)) issues.push("invalid_draft_shape");
  const expected = expectedRows(state);
  if (expected === undefined || !sameData(fields["rows"], expected)) issues.push("rows_do_not_match_records_and_units");
  if (fields["notice"] !== NOTICES[state.language]) issues.push("missing_fixed_data_notice");
  return issues;
}

/**
 * Whether two drafts are the same document: a review only speaks for the draft it checked.
 *
 * @example
 * ```ts
 * isSameDraft(state.review.checkedDraft, state.draft); // false once the draft changed after the check
 * ```
 */
export function isSameDraft(a: Draft | null, b: Draft | null): boolean {
  return sameData(a, b);
}

function isDraftShaped(draft: unknown): boolean {
  if (!isRecord(draft)) return false;
  const keys = Object.keys(draft).sort();
  return (
    keys.length === 2 && keys[0] === "notice" && keys[1] === "rows" && Array.isArray(draft["rows"]) && typeof draft["notice"] === "string"
  );
}
