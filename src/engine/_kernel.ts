/**
 * The engine's internal seam, for the drivers of the run kernel and the layers that read a compiled
 * graph's tables: `xstate/`, `langgraph/`, `dbos/`, `coverage/`, `persistence/`, `builder/`. Not part
 * of the public API. A superstep's rules are the kernel's (`kernel/`); a driver only decides when each
 * one is applied. It exports only what a driver imports (test/architecture.test.ts counts the names):
 * what the public face already exports (errors, `JsonValue`, `RouteTaken`) is imported from
 * `engine/index.ts`, and the kernel's tests import the kernel's files themselves.
 */

// The compiled graph's tables and the checks of a driver's run: its input and its options.
export { graphView, type GraphView } from "./graph-view.js";
export { implementationProblems } from "./compile.js";
export type { ExecutableGraph, Transition } from "./executable.js";
export { checkedStart, errorOfCode, executionError, runOptionsOf } from "./run-checks.js";
export { limitMessage } from "./kernel/limits.js";

// The kernel's decisions.
export { superstepCeiling, verdict } from "./kernel/superstep.js";
export { next, settle } from "./kernel/transition.js";
export { advance, schedule } from "./kernel/advance.js";
export type { RunSnapshot, Verdict } from "./kernel/superstep.js";
export type { Arrival } from "./kernel/advance.js";
export { reroutes, updateSource } from "./kernel/updates.js";
export type { Settled } from "./kernel/failures.js";
export { staticPause } from "./kernel/pauses.js";
export { isAborted, onAbort } from "./abortable.js";

// Running a task and a superstep.
export { taskEntry } from "./task-entry.js";
export { Run } from "./run.js";
export type { RunSettings, TaskRunner } from "./run-settings.js";
export { ObservedRun, type ObservedSettings } from "./observed-run.js";
export { StepFailure, type State, type Successors, type Task } from "./step.js";
export type { EventSink } from "./task-context.js";
export { nodeOutput } from "./command-list.js";
export { sendInputCodec } from "./send-command.js";

// Interrupts, subgraphs and threads.
export { InterruptHost, SuperstepPaused, type TaskFrame } from "./interrupt-scope.js";
export type { InterruptFrame, SubgraphLimits } from "./interrupt-scope.js";
export { NodePaused } from "./node-paused.js";
export { checkGoto, resumeAnswers, updated as commandUpdate } from "./threads/resume.js";
export { subgraphEntry } from "./subgraph-entry.js";
export { threadRequired } from "./threads/thread-options.js";
export { nothingToResume } from "./threads/thread-start.js";
export { continuedCheckpoint } from "./threads/versions/continue-thread.js";
