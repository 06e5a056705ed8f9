/**
 * How `tsg test report` explores the report workflow: requests from arbitraries, and a thread that may
 * already have spent its one revision (`revisions` in the input). Loaded only by `tsg test`, because it
 * needs fast-check (a peer dependency that `tsg report` and the examples entry do not need).
 */
import * as fc from "fast-check";
import type { CompiledGraph } from "../../index.js";
import type { ExploreOptions } from "../../testing/index.js";
import { buildReportGraph } from "./graph.js";
import { initialReportState } from "./request.js";
import type { ReportState } from "./state.js";

/** The options the explored graph is built with, written the same way into the generated test file. */
const GRAPH_OPTIONS = { draftStyle: "missing-notice", maxRevisions: 1 } as const;

/** The report graph `tsg test report` explores. */
export function reportExplorationGraph(): CompiledGraph<ReportState> {
  return buildReportGraph(GRAPH_OPTIONS);
}

/** The code a generated test file binds `graph` with: the same graph, from the package. */
export const REPORT_EXPLORATION_SETUP = [
  'import { buildReportGraph } from "typed-state-graph/examples";',
  "",
  `const graph = buildReportGraph({ draftStyle: ${JSON.stringify(GRAPH_OPTIONS.draftStyle)}, maxRevisions: ${GRAPH_OPTIONS.maxRevisions} });`,
].join("\n");

/** Requests, and threads that have or have not spent their revision; the seed's invariants. */
export const reportExploration: ExploreOptions<ReportState> = {
  input: fc
    .record({
      cities: fc.subarray(["Tokyo", "Paris"] as const, { minLength: 1 }),
      includeFahrenheit: fc.boolean(),
      revisions: fc.constantFrom(0, 1),
    })
    .map(({ revisions, ...request }) => ({ ...initialReportState(request), revisions })),
  invariants: {
    "revisions never exceed the allowance": (s) => s.revisions <= GRAPH_OPTIONS.maxRevisions || `revisions = ${s.revisions}`,
    "a published brief has both cities and the notice": (s) =>
      s.answer === null ||
      (s.cities.every((city) => s.answer?.includes(city)) && s.answer.includes("Fixed teaching data")) ||
      `answer = ${s.answer.slice(0, 120)}`,
    "hold ends with no answer": (s) => s.status !== "needs_attention" || s.answer === null || "an answer on hold",
  },
};
