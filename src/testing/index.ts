/**
 * `typed-state-graph/testing`: property-based helpers for users' own suites. It imports no test
 * runner; fast-check (a peer dependency) is required for this entry point only.
 *
 * @module typed-state-graph/testing
 */

export { reducerLaws } from "./reducer-laws.js";
export type { ReducerLawName, ReducerLawProperty } from "./reducer-laws.js";
export { arbitraryGraphSpec } from "./arbitrary-graph-spec.js";
export type { GraphSpecOptions } from "./arbitrary-graph-spec.js";
export { assertEveryNodeReachesEnd } from "./assert-every-node-reaches-end.js";
export { assertRouteCoverage } from "./assert-route-coverage.js";
export { exploreGraph, REPLAY_ENV } from "./explore/explore-graph.js";
export { ExplorationError, EXPLORATION_ERROR_CODES } from "./explore/errors.js";
export { PropertyViolation, PROPERTY_VIOLATION_CODES } from "./errors.js";
export type { PropertyViolationCode } from "./errors.js";
export { runScenario } from "./explore/scenario.js";
export type { Scenario } from "./explore/scenario.js";
export { emitVitest } from "./explore/emit-vitest.js";
export type { VitestFile } from "./explore/emit-vitest.js";
export type { ExplorationErrorCode } from "./explore/errors.js";
export type {
  DifferentialEngine,
  ExploreOptions,
  ExplorationReport,
  ExploredRun,
  FeasiblePath,
  Invariant,
  NodeOutcome,
} from "./explore/types.js";
export { assertResumable, checkResumable } from "./assert-resumable.js";
export type { GraphVersion, Resumability, ResumableOptions } from "./assert-resumable.js";
export { ResumabilityError, RESUMABILITY_ERROR_CODES } from "./resumability-error.js";
export type { ResumabilityErrorCode } from "./resumability-error.js";
export { resumePoints } from "../validate/resume-points.js";
export type { ResumePoint, ResumePointKind } from "../validate/resume-points.js";
export type { NodeMap, ResumeProblem } from "../validate/resumability.js";
export type { StateComparison, StateJsonSchema } from "../validate/state-fields.js";
