import { CoverageError } from "../coverage/errors.js";
import { coverageReport, type CoverageReport, type RecordedRun } from "../coverage/report.js";
import type { HasSpec } from "../coverage/transitions.js";

/**
 * Throws unless the recorded runs, together, took every fixed edge and every route key of the graph.
 * The error (a `CoverageError` with code `MISSING_TRANSITIONS`) lists each transition no run took;
 * on success the coverage report is returned. It imports no test runner, so it works in any of them.
 *
 * @throws CoverageError `MISSING_TRANSITIONS` listing what is missing; `RUN_MISMATCH` for a run of another graph.
 * @example
 * ```ts
 * import { assertRouteCoverage } from "typed-state-graph/testing";
 *
 * test("the suite takes every route of the report graph", async () => {
 *   const runs = await Promise.all(fixtures.map((f) => buildReportGraph(f.options).invoke(f.input, { maxSteps: 30 })));
 *   assertRouteCoverage(buildReportGraph(), runs);
 * });
 * ```
 */
export function assertRouteCoverage(graph: HasSpec, runs: Iterable<RecordedRun>): CoverageReport {
  const report = coverageReport(graph, runs);
  if (report.missing.length === 0) return report;
  throw new CoverageError(
    "MISSING_TRANSITIONS",
    `assertRouteCoverage: ${report.missing.length} of ${report.total} transitions were never taken by the ${report.runs} run(s):\n` +
      report.missing.map((t) => `  - ${t.label}`).join("\n") +
      "\nAdd runs that take them: coveragePlan(graph) lists a path through each, and replayPath(graph, path, input) runs one.",
    { transitions: report.missing },
  );
}
