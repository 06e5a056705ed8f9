export { START, END } from "./spec.js";
export { transitionPairs } from "./spec.js";
export type { GraphSpec, EdgeSpec, FanOutSpec, JoinSpec, RouteSpec, ReducerSpec, Start, End } from "./spec.js";
export {
  GraphValidationError,
  GraphExecutionError,
  GraphLimitError,
  InvalidUpdateError,
  InvalidOptionError,
} from "./errors.js";
export type { GraphProblem, GraphProblemCode, GraphExecutionCode, ExecutionContext } from "./errors.js";
export { StateGraph } from "./builder/state-graph.js";
export { defineGraph } from "./builder/define-graph.js";
export { route } from "./builder/route.js";
export type { RouteDeclaration } from "./builder/route.js";
export { bindSpec } from "./builder/bind-spec.js";
export type { BindableSpec, GraphDeclaration, Implementations } from "./builder/define-types.js";
export { checkSpecSchema } from "./validate/spec-schema.js";
export type {
  StateGraphOptions,
  CompileOptions,
  ReducersFor,
  Awaitable,
  CompileError,
  RouteError,
  MaxTypeLevelDepth,
} from "./builder/types.js";
export { CompiledGraph, compileGraph } from "./engine/compiled-graph.js";
export type { StreamChunk } from "./engine/compiled-graph.js";
export type { GraphDefinition, NodeFunction, RouterFunction } from "./engine/executable.js";
export type { NodeContext, RouterContext } from "./engine/context.js";
export { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "./engine/run.js";
export type { RunOptions, RunResult, Step, StreamMode, StreamOptions, SuperstepValues } from "./engine/run.js";
export type { RouteTaken } from "./engine/step.js";
export { append, replace, sum, union, mergeById, defineReducer, reducerNameOf } from "./engine/reducers.js";
export type { Reducer, AnyReducer, ReducerMetadata, NamedReducer, ReducerLaws, LawEquality, Identified } from "./engine/reducers.js";
export { mergeUpdate } from "./engine/merge.js";
export { Send } from "./engine/send.js";
export { subgraph } from "./engine/subgraph.js";
export type { SubgraphOptions } from "./engine/subgraph.js";
export type { GraphWarning } from "./engine/warnings.js";
export { cloneState, isPlainObject } from "./engine/clone.js";
export { jsonEqual } from "./engine/json-equal.js";
export { validateTopology } from "./validate/topology.js";
export { coveragePlan, coverageReport, replayPath, scriptedGraph, transitionsOf, formatPath, CoverageError } from "./coverage/index.js";
export type {
  CoveragePlan,
  CoveragePlanOptions,
  CoveragePlanner,
  CoveragePath,
  CoverageReport,
  RecordedRun,
  TransitionCount,
  ReplayOptions,
  RouteScript,
  GraphRunner,
  GraphTransition,
  EdgeTransition,
  RouteTransition,
  RouteChoice,
  ScriptedChoice,
  HasSpec,
  CoverageErrorCode,
} from "./coverage/index.js";
export { toMermaid } from "./render/mermaid.js";
export type { MermaidOptions, DiagramSource, DiagramCoverage, ExercisedTransition } from "./render/mermaid.js";
export { toDot } from "./render/dot.js";
export type { DotOptions } from "./render/dot.js";
// Threaded runs: the types only; the stores (SQLite, memory) live in typed-state-graph/persistence.
export type { Checkpoint, Checkpointer, CheckpointMetadata, ListOptions } from "./engine/threads/checkpointer.js";
export type { Interrupt, ThreadReadOptions, ThreadRunOptions, ThreadRunResult, UpdateStateOptions } from "./engine/threads/threads.js";
export type { StateGraphConstructor } from "./builder/types.js";
