/**
 * `typed-state-graph`: what a user writes to declare a graph, run it and handle its errors: the typed
 * builder, the declarative spec, reducers, `Send` / `Command` / interrupts / subgraphs, run options and
 * results, and the errors. Everything else has its own entry (package.json `exports`): coverage
 * (`/coverage`), diagrams (`/render`), XState (`/xstate`), LangGraph.js (`/langgraph`), the checkpoint
 * stores and the types a store implements (`/persistence`, `/postgres`), DBOS (`/dbos`), OpenTelemetry
 * (`/otel`), fast-check helpers (`/testing`) and the examples (`/examples`).
 *
 * @module typed-state-graph
 */

export { START, END } from "./spec.js";
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
  FieldSchemasFor,
  Awaitable,
  CompileError,
  RouteError,
  MaxTypeLevelDepth,
} from "./builder/types.js";
export { CompiledGraph, compileGraph } from "./engine/index.js";
export type { StreamChunk, StreamYield, SubgraphStreamYield, ThreadStreamOptions } from "./engine/index.js";
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
export type {
  CachePolicy,
  CacheStore,
  LoopBound,
  NodeErrorHandler,
  NodeErrorJson,
  NodeFailure,
  NodeOptions,
  NodePolicy,
  RetryPolicy,
} from "./engine/index.js";
export { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "./engine/index.js";
export type {
  CustomEvent,
  MessageStreamEvent,
  RunOptions,
  RunResult,
  Step,
  StreamMode,
  TaskStart,
  TaskResult,
  TaskError,
  TaskEvent,
  DebugEvent,
  StreamOptions,
  SuperstepValues,
} from "./engine/index.js";
export type { RouteTaken } from "./engine/index.js";
export { append, replace, sum, union, mergeById, defineReducer, reducerNameOf } from "./engine/index.js";
export type { Reducer, AnyReducer, ReducerMetadata, NamedReducer, ReducerLaws, LawEquality, Identified } from "./engine/index.js";
export { Send } from "./engine/index.js";
export { MessageDelta } from "./engine/index.js";
export { Command, defineInterrupt, interrupt, InterruptError, INTERRUPT_ERROR_CODES } from "./engine/index.js";
export type { AnyCommand } from "./engine/index.js";
export type { InterruptDefinition, InterruptErrorCode, PendingInterrupt, ResumeSchema } from "./engine/index.js";
export type { InputOf, StandardSchemaV1, StateOf, StateSchema } from "./engine/index.js";
export { stateJsonSchemaOf, stateSchemaOf } from "./engine/index.js";
export { declaredInterruptsOf } from "./engine/index.js";
export type { DeclaredInterrupt } from "./engine/index.js";
export { subgraph } from "./engine/index.js";
export type { SubgraphOptions, SubgraphNode, ParentState } from "./engine/index.js";
export type { GraphWarning, OrderWarning, UnboundedCycleWarning } from "./engine/index.js";
export { validateTopology } from "./validate/topology.js";
export { unboundedCycles, type UnboundedCycle } from "./validate/cycles.js";
export { superstepBound } from "./validate/superstep-bound.js";
// Threaded runs: what a user passes and gets back. The stores and the types a store implements
// (Checkpointer, Checkpoint, ...) live in typed-state-graph/persistence.
export type {
  GetStateHistoryOptions,
  GetStateOptions,
  Interrupt,
  ThreadReadOptions,
  ThreadRunOptions,
  ThreadRunResult,
  UpdateStateOptions,
  BulkUpdate,
  UpdateSuperstep,
  BulkUpdateStateOptions,
} from "./engine/index.js";
export type { Durability } from "./engine/index.js";
// Graph versions: how a graph declares the versions it continues (docs/persistence.md, "Changing a graph with threads in flight").
export { migrateFrom } from "./engine/index.js";
export type { GraphMigration, GraphStamp, MigrationDeclaration, SpecNodeNames, SpecWithNodes } from "./engine/index.js";
export type { StateGraphConstructor, StateGraphDeclaration, StateGraphFactory } from "./builder/types.js";
export type { NodeResult, StateUpdate } from "./builder/types.js";
/** The builder's interface under its own name, so a declaration file can name a builder's type (`StateGraph` above is its alias). */
export type { StateGraph as StateGraphBuilder } from "./builder/types.js";
