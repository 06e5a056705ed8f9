/** The report workflow example (part of `typed-state-graph/examples`), a two-city weather brief checked before it is published. */
export type { City, Language, ReportStatus, Reading, DraftRow, Draft, ReviewIssue, Review, ReportState, ReportUpdate } from "./state.js";
export { REPORT_FIELDS } from "./state.js";
export { initialReportState, ReportRequestError, REPORT_REQUEST_CODES, DEFAULT_REPORT_REQUEST } from "./request.js";
export type { ReportRequest, ReportRequestCode } from "./request.js";
export {
  CITIES,
  LANGUAGES,
  NOTICES,
  TEACHING_RECORDS,
  TEACHING_SOURCE,
  readTeachingRecord,
  fahrenheit,
  roundToTenth,
  formatTenths,
  checkReading,
  isCity,
  isLanguage,
} from "./data.js";
export { expectedRows, renderBrief } from "./draft.js";
export { REVIEW_ISSUES, reviewIssues, isSameDraft } from "./review.js";
export { createReportNodes, DRAFT_STYLES, REPORT_NODE_NAMES } from "./nodes.js";
export type { DraftStyle, ReportRoute, ReportNodeName, ReportReader, ReportNodeOptions, ReportNodes } from "./nodes.js";
export { buildReportGraph } from "./graph.js";
export { reportStateSchema } from "./schema.js";
export { runReportPlain } from "./plain.js";
export type { PlainReportResult } from "./plain.js";
