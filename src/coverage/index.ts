/**
 * `typed-state-graph/coverage`: plans of START→END paths (or runs, superstep by superstep) that take
 * every transition, reports of what runs took, and replays.
 *
 * @module typed-state-graph/coverage
 */

export { coveragePlan } from "./plan.js";
export type { CoveragePlan, CoveragePlanOptions, CoveragePlanner } from "./plan.js";
export { formatPath } from "./path.js";
export type { CoveragePath, RouteChoice } from "./path.js";
export { coverageReport } from "./report.js";
export type { CoverageReport, RecordedRun, TransitionCount } from "./report.js";
export { replayPath, scriptedGraph } from "./replay.js";
export type { ReplayOptions, RouteScript, ScriptedChoice, GraphRunner } from "./replay.js";
export { transitionsOf } from "./transitions.js";
export type { GraphTransition, EdgeTransition, RouteTransition, GotoTransition, HasSpec } from "./transitions.js";
export { CoverageError } from "./errors.js";
export type { CoverageErrorCode } from "./errors.js";
