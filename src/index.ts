/**
 * `typed-state-graph`: the typed builder, the engine, reducers and errors. Coverage, diagrams, XState,
 * LangGraph.js, persistence, testing helpers and the examples have their own entries (see package.json `exports`).
 */
export { START, END } from "./spec.js";
export {
  /** @deprecated An internal of the engine, not part of the supported API; it stays importable from the root in this release and will be removed from it in the next. */
  transitionPairs,
} from "./spec.js";
export type { GraphSpec, EdgeSpec, FanOutSpec, JoinSpec, RouteSpec, ReducerSpec, Start, End } from "./spec.js";
export {
  GraphError,
  GraphValidationError,
  GraphExecutionError,
  GraphLimitError,
  InvalidUpdateError,
  InvalidOptionError,
} from "./errors.js";
export type {
  GraphProblem,
  GraphProblemCode,
  GraphExecutionCode,
  ExecutionContext,
  InvalidUpdateCode,
  InvalidOptionCode,
} from "./errors.js";
export { StateGraph } from "./builder/state-graph.js";
export { stateGraph } from "./builder/declare.js";
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
export { CompiledGraph, compileGraph } from "./engine/index.js";
export type { StreamChunk, StreamYield, ThreadStreamOptions } from "./engine/index.js";
export type { ThreadInput } from "./engine/index.js";
export type { GraphDefinition, NodeFunction, RouterFunction } from "./engine/index.js";
export type { NodeContext, RouterContext } from "./engine/index.js";
export type {
  ObservedCheckpoint,
  ObservedEngine,
  ObservedInterrupt,
  ObservedRetry,
  ObservedRunEnd,
  ObservedRunStart,
  RunObservation,
  RunObserver,
} from "./engine/index.js";
export { MemoryCacheStore } from "./engine/index.js";
export type { CachePolicy, CacheStore, NodeOptions, NodePolicy, RetryPolicy } from "./engine/index.js";
export { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "./engine/index.js";
export type {
  CustomEvent,
  MessageStreamEvent,
  RunOptions,
  RunResult,
  Step,
  StreamMode,
  StreamOptions,
  SuperstepValues,
} from "./engine/index.js";
export type { RouteTaken } from "./engine/index.js";
export { append, replace, sum, union, mergeById, defineReducer, reducerNameOf } from "./engine/index.js";
export type { Reducer, AnyReducer, ReducerMetadata, NamedReducer, ReducerLaws, LawEquality, Identified } from "./engine/index.js";
export {
  /** @deprecated An internal of the engine, not part of the supported API; it stays importable from the root in this release and will be removed from it in the next. */
  mergeUpdate,
} from "./engine/index.js";
export { Send } from "./engine/index.js";
export { MessageDelta } from "./engine/index.js";
export { Command, defineInterrupt, interrupt, InterruptError, INTERRUPT_ERROR_CODES } from "./engine/index.js";
export type { AnyCommand } from "./engine/index.js";
export type { InterruptDefinition, InterruptErrorCode, PendingInterrupt, ResumeSchema } from "./engine/index.js";
export { subgraph } from "./engine/index.js";
export type { SubgraphOptions, SubgraphNode, ParentState } from "./engine/index.js";
export type { GraphWarning } from "./engine/index.js";
export {
  /** @deprecated An internal of the engine, not part of the supported API; it stays importable from the root in this release and will be removed from it in the next. */
  cloneState,
  /** @deprecated An internal of the engine, not part of the supported API; it stays importable from the root in this release and will be removed from it in the next. */
  isPlainObject,
} from "./engine/index.js";
export {
  /** @deprecated An internal of the engine, not part of the supported API; it stays importable from the root in this release and will be removed from it in the next. */
  jsonEqual,
} from "./engine/index.js";
export { validateTopology } from "./validate/topology.js";
// Coverage and diagrams have their own entries (typed-state-graph/coverage, typed-state-graph/render).
export {
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  coveragePlan,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  coverageReport,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  replayPath,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  scriptedGraph,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  transitionsOf,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  formatPath,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoverageError,
} from "./coverage/index.js";
export type {
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoveragePlan,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoveragePlanOptions,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoveragePlanner,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoveragePath,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoverageReport,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  RecordedRun,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  TransitionCount,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  ReplayOptions,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  RouteScript,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  GraphRunner,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  GraphTransition,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  EdgeTransition,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  RouteTransition,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  RouteChoice,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  ScriptedChoice,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  HasSpec,
  /** @deprecated Import it from "typed-state-graph/coverage"; the root re-export stays in this release and goes in the next. */
  CoverageErrorCode,
} from "./coverage/index.js";
export {
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  toMermaid,
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  toDot,
} from "./render/index.js";
export type {
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  MermaidOptions,
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  DiagramSource,
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  DiagramCoverage,
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  ExercisedTransition,
  /** @deprecated Import it from "typed-state-graph/render"; the root re-export stays in this release and goes in the next. */
  DotOptions,
} from "./render/index.js";
// Threaded runs: the types only; the stores (SQLite, memory) live in typed-state-graph/persistence.
export type {
  Checkpoint,
  Checkpointer,
  CheckpointMetadata,
  CheckpointWithSubgraphs,
  CheckpointWrite,
  ListOptions,
  SubgraphTask,
} from "./engine/index.js";
export type {
  GetStateHistoryOptions,
  GetStateOptions,
  Interrupt,
  ThreadReadOptions,
  ThreadRunOptions,
  ThreadRunResult,
  UpdateStateOptions,
} from "./engine/index.js";
export type { Durability } from "./engine/index.js";
export type { StateGraphConstructor, StateGraphDeclaration, StateGraphFactory } from "./builder/types.js";
export type { NodeResult, StateUpdate } from "./builder/types.js";
/** The builder's interface under its own name, so a declaration file can name a builder's type (`StateGraph` above is its alias). */
export type { StateGraph as StateGraphBuilder } from "./builder/types.js";
