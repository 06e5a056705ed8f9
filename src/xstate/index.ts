/**
 * `typed-state-graph/xstate`: a compiled graph as a running XState v5 machine, as the abstract coverage
 * model that path generators explore, and as a drop-in engine with the mini engine's results.
 *
 * @module typed-state-graph/xstate
 */

export { toMachine, STEP_LIMIT_STATE, SUPERSTEP_STATE, WAITING_TAG } from "./machine.js";
export type {
  ToMachineOptions,
  GraphMachine,
  GraphMachineMode,
  GraphMachineLayout,
  GraphMachineInput,
  GraphMachineContext,
  GraphMachineOutput,
  LastStep,
  PendingTask,
  StepEvent,
  SuperstepProgress,
} from "./machine.js";
export { runOnXState, streamOnXState } from "./run.js";
export type { XStateRunOptions } from "./run.js";
export { toCoverageModel, routeEvent } from "./coverage-model.js";
export type { CoverageModel, CoverageModelEvent, CoverageModelSnapshot, NextEvent, RouteEvent } from "./coverage-model.js";
export { XStateExportError } from "./errors.js";
export type { XStateExportCode } from "./errors.js";
