/**
 * The engine's internal seam, for the drivers of the run kernel and the layers that read a compiled
 * graph's tables: `xstate/`, `langgraph/`, `coverage/`, `persistence/`, `builder/`. Not part of the
 * public API. A superstep's rules are the kernel's (`kernel/`); a driver only decides when each
 * one is applied.
 */
export {
  admit,
  advance,
  commit,
  schedule,
  retryDecision,
  abortedBefore,
  abortedWhile,
  superstepCeiling,
  verdict,
} from "./kernel/superstep.js";
export type { Admission, Advance, Arrival, Commit, RetryDecision, RunSnapshot, Verdict } from "./kernel/superstep.js";
export { writesKeptOnFailure, writesKeptOnPause, type KeptWrite } from "./kernel/writes.js";
export { cancelPending, reroutes, updateSource, type UpdateSource } from "./kernel/updates.js";
export { reportedFailure, superstepFailure, type Settled, type TaskOutcome } from "./kernel/failures.js";
export { childPauseRefusal, pauseAfter, pauseBefore, pausedAt, type StaticInterrupts, type StaticPause } from "./kernel/pauses.js";
export { resolvePolicy, type ResolvedPolicy, type ResolvedRetry } from "./policies.js";
export { isAborted, onAbort, unlessAborted } from "./abortable.js";
export { runTask } from "./attempts.js";
export { executableOf, interruptsOf, threadSettingsOf } from "./compiled-graph.js";
export type { ThreadSettings } from "./threads/types.js";
export { implementationProblems } from "./compile.js";
export type { ExecutableGraph, Transition } from "./executable.js";
export { resolveLimits, resolveConcurrency, limitMessage, type RunLimits } from "./kernel/limits.js";
export { computedRecursionLimit, graphLimits } from "./kernel/recursion-limit.js";
export { boundedTasks, loopBoundStop, visitsOf, type BoundTable, type NodeBound } from "./kernel/bounds.js";
export { checkSignal, detachInput, errorOfCode, executionError, inputFailure, startingState } from "./run-checks.js";
export { checkState, type CheckedState, type StateCheck, type StateIssues } from "./kernel/state-check.js";
export { Run, type RunSettings, type TaskRunner } from "./run.js";
export { ObservedRun, type ObservedSettings } from "./observed-run.js";
export { checkStreamMode, type StreamModes } from "./stream.js";
export { detachedStep, type StepRecord } from "./step-record.js";
export {
  describeValue,
  isThenable,
  messageOf,
  runNode,
  StepFailure,
  successorsOf,
  type RouteTaken,
  type State,
  type Successors,
  type Task,
} from "./step.js";
export { SuperstepScope, TaskContext, RouterCallContext, SiblingFailed, type EventSink } from "./task-context.js";
export { andThen, type MaybePromise } from "./maybe-promise.js";
export type { ReducerTable } from "./merge.js";
export { currentFrame, InterruptError, InterruptHost, SuperstepPaused, type TaskFrame } from "./interrupt-scope.js";
export type { JsonValue, PendingInterrupt } from "./threads/checkpointer.js";
export { checkGoto, resumeAnswers, threadOwner, updated as commandUpdate } from "./threads/resume.js";
export { findNonJson, childPath, notSerializable, type JsonProblem } from "./threads/json-check.js";
export { runInInterruptFrame, type InterruptFrame, type SubgraphLimits } from "./interrupt-scope.js";
export { foldUpdates } from "./subgraph-output.js";
export { subgraphOf, subgraphSpecOf } from "./subgraph-specs.js";
export { childThreadId, freshNamespace, pausedNamespace } from "./subgraph-thread.js";
export { gotoOf, gotoRoutes, withoutGoto } from "./command-goto.js";
export { NodePaused } from "./node-paused.js";
export { threadRequired } from "./threads/thread-options.js";
export { nothingToResume } from "./threads/thread-start.js";
export { saveNow, type SavesNow } from "./threads/durability.js";
