/**
 * The engine's public face: what users and the package's other layers may use of it. Drivers of the
 * run kernel (XState, LangGraph, persistence, coverage) use `_kernel.ts` as well; nothing outside
 * `engine/` imports any other file of it (test/architecture.test.ts checks this).
 */
export {
  CompiledGraph,
  type StreamChunk,
  type StreamYield,
  type SubgraphStreamYield,
  type ThreadCompileOptions,
  type ThreadStreamOptions,
} from "./compiled-graph.js";
export {
  MemoryCacheStore,
  type CachePolicy,
  type CacheStore,
  type LoopBound,
  type NodeErrorHandler,
  type NodeFailure,
  type NodeOptions,
  type NodePolicy,
  type RetryPolicy,
} from "./policies.js";
export type { NodeErrorJson } from "./kernel/error-handlers.js";
export { compileGraph } from "./compile.js";
export type { GraphDefinition, NodeFunction, RouterFunction } from "./executable.js";
export type { NodeContext, RouterContext } from "./context.js";
export type {
  ObservedCheckpoint,
  ObservedEngine,
  ObservedInterrupt,
  ObservedRetry,
  ObservedRunEnd,
  ObservedRunStart,
  RunObservation,
  RunObserver,
} from "./observer.js";
export { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "./kernel/limits.js";
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
} from "./run-types.js";
export type { RouteTaken } from "./step.js";
export { append, replace, sum, union, mergeById, defineReducer, reducerNameOf } from "./reducers.js";
export type { Reducer, AnyReducer, ReducerMetadata, NamedReducer, ReducerLaws, LawEquality, Identified } from "./reducers.js";
export { mergeUpdate } from "./merge.js";
export { Send } from "./send.js";
export { MessageDelta } from "./message-delta.js";
export { Command, defineInterrupt, interrupt, type AnyCommand } from "./interrupt.js";
export type { CommandMark, NotACommand } from "./command.js";
export type { DeclaredInterrupt, InterruptDefinition, ResumeSchema } from "./interrupt.js";
export type { InputOf, StandardJSONSchemaV1, StandardSchemaV1, StateOf, StateSchema } from "./state-schema.js";
export { stateJsonSchemaOf, stateSchemaOf } from "./state-schema-of.js";
export { stateJsonSchema } from "./compile-state-schema.js";
export { declaredInterruptsOf } from "./declared-interrupts.js";
export { InterruptError, INTERRUPT_ERROR_CODES } from "./interrupt-scope.js";
export type { InterruptErrorCode } from "./interrupt-scope.js";
export { subgraph, type SubgraphOptions, type ParentState, type SubgraphNode } from "./subgraph.js";
export type { GraphWarning, OrderWarning, UnboundedCycleWarning } from "./warnings.js";
export { cloneState, isPlainObject } from "./clone.js";
export { jsonEqual } from "./json-equal.js";
export type {
  Checkpoint,
  Checkpointer,
  CheckpointMetadata,
  CheckpointRoute,
  CheckpointTask,
  CheckpointWithSubgraphs,
  CheckpointWrite,
  PruneOptions,
  PruneResult,
  JsonValue,
  ListOptions,
  PendingInterrupt,
  SubgraphTask,
} from "./checkpointer.js";
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
} from "./threads/types.js";
export type { Durability } from "./threads/durability.js";
export type { GraphStamp } from "./threads/versions/graph-version.js";
export { migrateFrom } from "./threads/versions/migrations.js";
export { GRAPH_BRAND, graphBrandOf, type GraphBrand } from "./graph-brand.js";
export type { GraphMigration, MigrationDeclaration, SpecNodeNames, SpecWithNodes } from "./threads/versions/migrations.js";
export {
  PersistenceError,
  NotSerializableError,
  CheckpointConflictError,
  PERSISTENCE_ERROR_CODES,
  type PersistenceErrorCode,
  type PersistenceErrorDetails,
} from "./persistence-errors.js";
export type { ThreadInput } from "./invoke-input.js";
