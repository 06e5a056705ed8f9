/**
 * The six nodes of the report workflow and its router. They are plain functions of the state:
 * the engine, the plain loop and the other engines all run these same functions, so comparing
 * engines changes the scheduling, never the acceptance rules.
 */
import { InvalidOptionError, type Awaitable } from "../../index.js";
import { copyData } from "../_data.js";
import { describe } from "./_describe.js";
import { checkReading, NOTICES, readTeachingRecord } from "./data.js";
import { expectedRows, renderBrief } from "./draft.js";
import { isSameDraft, reviewIssues } from "./review.js";
import type { City, Draft, Reading, ReportState, ReportUpdate } from "./state.js";

/** How the drafts come out, which decides the path a run takes. */
export type DraftStyle = "missing-notice" | "complete" | "stubborn";

/** Every draft style: `missing-notice` (the default) fixes the notice on revision, `complete` needs none, `stubborn` never fixes it. */
export const DRAFT_STYLES: readonly DraftStyle[] = ["missing-notice", "complete", "stubborn"];

/** Where `check_draft` leads. */
export type ReportRoute = "accept" | "revise" | "hold";

/** The node names, in the order a default run first meets them. */
export const REPORT_NODE_NAMES = ["collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"] as const;

/** A node of the report graph. */
export type ReportNodeName = (typeof REPORT_NODE_NAMES)[number];

/**
 * Returns the record of a city. `collect` validates whatever comes back, so a reader may be any
 * data source (or a test double that counts calls or fails).
 */
export type ReportReader = (city: City) => Awaitable<unknown>;

/** Options of {@link createReportNodes}. */
export interface ReportNodeOptions {
  /** Default `missing-notice`. */
  readonly draftStyle?: DraftStyle;
  /** Revisions allowed after the first check: a non-negative integer, default 1. */
  readonly maxRevisions?: number;
  /** Default: the fixed teaching records. */
  readonly reader?: ReportReader;
}

/** The report's nodes, by node name, and the router after `check_draft`. */
export interface ReportNodes {
  /** Reads every requested city once and validates each record. */
  readonly collect: (state: ReportState) => Promise<ReportUpdate>;
  /** Writes the first draft from the readings; voids any old review. */
  readonly write_draft: (state: ReportState) => ReportUpdate;
  /** Checks the current draft and records a copy of what it checked. */
  readonly check_draft: (state: ReportState) => ReportUpdate;
  /** Rewrites a rejected draft from the saved readings (no new reads) and counts the revision. */
  readonly revise_draft: (state: ReportState) => ReportUpdate;
  /** Re-verifies the acceptance, then renders the answer. */
  readonly publish: (state: ReportState) => ReportUpdate;
  /** Re-verifies that the budget is spent, then stops without an answer, keeping the draft. */
  readonly hold: (state: ReportState) => ReportUpdate;
  /** `accept` if the current draft's review passed, else `revise` while revisions remain, else `hold`. */
  readonly routeAfterCheck: (state: ReportState) => ReportRoute;
}

const OPTION_KEYS = new Set(["draftStyle", "maxRevisions", "reader"]);

/**
 * Creates the report workflow's nodes and router, closed over the options.
 *
 * @throws InvalidOptionError for an unknown option, an unknown draft style, a `maxRevisions`
 * that is not a non-negative integer, or a reader that is not a function.
 * @example
 * ```ts
 * let reads = 0;
 * const nodes = createReportNodes({ draftStyle: "stubborn", maxRevisions: 2, reader: (city) => (reads++, readTeachingRecord(city)) });
 * const { state } = await runReportPlain(initialReportState(), nodes); // state.status === "needs_attention"
 * ```
 */
export function createReportNodes(options: ReportNodeOptions = {}): ReportNodes {
  const { draftStyle, maxRevisions, reader } = checkOptions(options);
  const notice = (state: ReportState, withNotice: boolean): string => (withNotice ? NOTICES[state.language] : "");

  const routeAfterCheck = (state: ReportState): ReportRoute => {
    if (state.review === null) {
      throw new Error("routeAfterCheck: the current draft has not been checked (review is null); run check_draft before routing.");
    }
    if (!isSameDraft(state.review.checkedDraft, state.draft)) {
      throw new Error("routeAfterCheck: the review is of a different draft than the current one; check the current draft before routing.");
    }
    if (state.review.passed) return "accept";
    return state.revisions < maxRevisions ? "revise" : "hold";
  };

  // publish and hold act on the router's decision, so they ask it again rather than trust the edge that led here.
  const verifiedRoute = (node: string, state: ReportState): ReportRoute => {
    try {
      return routeAfterCheck(state);
    } catch (error) {
      throw new Error(`${node}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };

  return {
    async collect(state) {
      const readings: Reading[] = [];
      // One city at a time: if a read fails, nothing is committed, and no city is read twice.
      for (const city of state.cities) readings.push(checkReading(city, await reader(city)));
      return { readings, events: ["collected requested records"] };
    },

    write_draft(state) {
      return { draft: freshDraft("write_draft", state, notice(state, draftStyle === "complete")), review: null, events: ["wrote draft"] };
    },

    check_draft(state) {
      const issues = reviewIssues(state);
      return {
        review: { passed: issues.length === 0, issues, checkedDraft: copyData(state.draft) },
        events: [`checked draft: ${issues.length === 0 ? "accepted" : issues.join(", ")}`],
      };
    },

    revise_draft(state) {
      const review = state.review;
      if (review === null || review.passed || !isSameDraft(review.checkedDraft, state.draft)) {
        throw new Error("revise_draft: there is no rejected review of the current draft; route here only after check_draft rejects it.");
      }
      if (state.revisions >= maxRevisions) {
        throw new Error(
          `revise_draft: the revision budget is spent (${state.revisions} of maxRevisions ${maxRevisions}); route to hold instead.`,
        );
      }
      return {
        draft: freshDraft("revise_draft", state, notice(state, draftStyle !== "stubborn")),
        review: null,
        revisions: state.revisions + 1,
        events: ["revised draft"],
      };
    },

    publish(state) {
      const route = verifiedRoute("publish", state);
      const issues = reviewIssues(state);
      if (route !== "accept" || issues.length > 0 || state.draft === null) {
        throw new Error(
          `publish: the current draft is not accepted (route ${route}, issues: ${issues.join(", ") || "none"}); only an accepted, unchanged draft is published.`,
        );
      }
      return { answer: renderBrief(state.draft), status: "completed", events: ["published brief"] };
    },

    hold(state) {
      const route = verifiedRoute("hold", state);
      if (route !== "hold") {
        throw new Error(`hold: the route after the check is ${route}, not hold; hold only once the revision budget is spent.`);
      }
      return { answer: null, status: "needs_attention", events: ["held draft: revision limit reached"] };
    },

    routeAfterCheck,
  };
}

function freshDraft(node: string, state: ReportState, notice: string): Draft {
  const rows = expectedRows(state);
  if (rows === undefined) {
    throw new Error(`${node}: the readings do not cover the requested cities (${state.cities.join(", ")}); run collect before drafting.`);
  }
  return { rows, notice };
}

function checkOptions(options: ReportNodeOptions): Required<ReportNodeOptions> {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(
      `createReportNodes: options must be an object { draftStyle, maxRevisions, reader }; got ${describe(options)}.`,
    );
  }
  const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.has(key));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `createReportNodes: unknown option ${unknown.map((k) => `"${k}"`).join(", ")}; the options are draftStyle, maxRevisions and reader.`,
    );
  }
  const { draftStyle = "missing-notice", maxRevisions = 1, reader = readTeachingRecord } = options;
  if (!DRAFT_STYLES.includes(draftStyle)) {
    throw new InvalidOptionError(`createReportNodes: draftStyle must be one of ${DRAFT_STYLES.join(", ")}; got ${describe(draftStyle)}.`);
  }
  if (typeof maxRevisions !== "number" || !Number.isSafeInteger(maxRevisions) || maxRevisions < 0) {
    throw new InvalidOptionError(
      `createReportNodes: maxRevisions must be a non-negative integer; got ${describe(maxRevisions)}. Use 0 to allow no revision.`,
    );
  }
  if (typeof reader !== "function") {
    throw new InvalidOptionError(`createReportNodes: reader must be a function (city) => record; got ${describe(reader)}.`);
  }
  return { draftStyle, maxRevisions, reader };
}
