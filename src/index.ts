export { START, END } from "./spec.js";
export type { GraphSpec, EdgeSpec, RouteSpec, ReducerSpec, Start, End } from "./spec.js";
export {
  GraphValidationError,
  GraphExecutionError,
  GraphLimitError,
  InvalidUpdateError,
  InvalidOptionError,
} from "./errors.js";
export type { GraphProblem, GraphProblemCode, GraphExecutionCode, ExecutionContext } from "./errors.js";
export { StateGraph } from "./builder/state-graph.js";
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
export type { GraphDefinition, NodeFunction, RouterFunction } from "./engine/executable.js";
export { DEFAULT_MAX_STEPS } from "./engine/run.js";
export type { RunOptions, RunResult, Step } from "./engine/run.js";
export { append, replace, sum, union, mergeById, defineReducer, reducerNameOf } from "./engine/reducers.js";
export type { Reducer, AnyReducer, ReducerMetadata, NamedReducer, ReducerLaws, LawEquality, Identified } from "./engine/reducers.js";
export { mergeUpdate } from "./engine/merge.js";
export { cloneState, isPlainObject } from "./engine/clone.js";
export { validateTopology } from "./validate/topology.js";
