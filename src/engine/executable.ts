/**
 * The shapes a compiled graph is made of: its definition (spec + functions) and the frozen tables a
 * run reads. Types only, so the engine's files can share them without importing each other.
 */
import type { GraphSpec } from "../spec.js";
import type { NodeContext, RouterContext } from "./context.js";
import type { CacheStore, NodePolicy, ResolvedPolicy } from "./policies.js";
import type { ReducerTable } from "./merge.js";
import type { AnyReducer } from "./reducers.js";
import type { StandardSchemaV1, StateCheck } from "./state-schema.js";
import type { GraphStamp } from "./graph-stamp.js";
import type { GraphMigration } from "./graph-stamp.js";

/** A node: reads a copy of the state (and, optionally, its {@link NodeContext}), returns a partial update (or nothing). */
export type NodeFunction<S> = (state: S, context: NodeContext) => unknown;
/** A router: reads a copy of the state (and, optionally, its {@link RouterContext}), returns a route key. */
export type RouterFunction<S> = (state: S, context: RouterContext) => unknown;

/** What comes after a node: a fixed successor, a fan-out, a join, or a routed choice. */
export type Transition =
  | { readonly kind: "edge"; readonly to: string }
  | { readonly kind: "fanOut"; readonly to: readonly string[] }
  | { readonly kind: "join"; readonly join: number }
  | { readonly kind: "route"; readonly router: RouterFunction<never>; readonly paths: Readonly<Record<string, string>> };

/** A barrier: `to` runs once every source has run (since it last fired). */
export interface JoinTable {
  readonly sources: ReadonlySet<string>;
  readonly to: string;
}

/** A graph's implementation: the spec plus the functions it names. */
export interface GraphDefinition {
  readonly spec: GraphSpec;
  readonly nodes: Readonly<Record<string, NodeFunction<never>>>;
  /** Router of each conditional source (`START` included), by source name. */
  readonly routers: Readonly<Record<string, RouterFunction<never>>>;
  readonly reducers: Readonly<Record<string, AnyReducer>>;
  /** Each node's retry, timeout and cache policy, by node name (nodes without one may be left out). */
  readonly policies?: Readonly<Record<string, NodePolicy<never>>>;
  /** Reducer fields whose declaration-order merge is intended: no `ORDER_DEPENDENT_MERGE` warning for them. */
  readonly orderedMerge?: readonly string[];
  /**
   * The state's Standard Schema: every state that enters the run (input, each superstep's merge, a
   * `Command` update, an `updateState` edit) is validated whole before it is committed.
   */
  readonly stateSchema?: StandardSchemaV1;
  /**
   * Per-field Standard Schemas: each value an update writes to one of these fields (a node's, a
   * `Command`'s, an `updateState` edit's, an input's) is validated on its own before the reducers merge it.
   */
  readonly fieldSchemas?: Readonly<Record<string, StandardSchemaV1>>;
  /**
   * `"bounded"`: every cycle must cross a bounded node, and a cycle that crosses none is an
   * `UNBOUNDED_CYCLE` problem; otherwise it is a warning.
   */
  readonly loops?: "bounded";
}

/** A node's loop bound, as the run reads it (the kernel's rule is in kernel/bounds.ts). */
export interface NodeBound {
  readonly max: number;
  /** Where the run goes instead, once the node ran `max` times; `undefined`: fail with `LOOP_BOUND`. */
  readonly exit: string | undefined;
}

/** The frozen routing tables a run reads. Internal to the engine. */
export interface ExecutableGraph {
  /** The frozen spec the tables were built from: what the computed `recursionLimit` is derived from. */
  readonly spec: GraphSpec;
  readonly nodes: ReadonlyMap<string, NodeFunction<unknown>>;
  readonly transitions: ReadonlyMap<string, Transition>;
  readonly joins: readonly JoinTable[];
  /** Where each node that declared `ends` may go with a `Command` goto (END included when declared). */
  readonly ends: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each node's position in declaration order: the order updates merge in within a superstep. */
  readonly order: ReadonlyMap<string, number>;
  readonly reducers: ReducerTable;
  readonly fields: ReadonlySet<string> | undefined;
  /** The state schema's check, when the graph has one. */
  readonly stateCheck?: StateCheck | undefined;
  /** The per-field schemas' checks, by field, when the graph declares any (`undefined` otherwise: nothing to check). */
  readonly fieldChecks?: ReadonlyMap<string, StateCheck> | undefined;
  /** The nodes that run under a policy (the others run once, with no timeout). */
  readonly policies: ReadonlyMap<string, ResolvedPolicy>;
  /** Where cached updates live. */
  readonly cacheStore: CacheStore;
  /** A hash of the spec: cache keys carry it, so a changed graph never reads a stale entry. */
  readonly specHash: string;
  /** What each checkpoint of a threaded run records of this graph: `compile({ version })` and the spec's hash. */
  readonly stamp: GraphStamp;
  /** The migrations `compile({ migrations })` declared, oldest first: how a checkpoint of an older version continues here. */
  readonly migrations: readonly GraphMigration[];
  /** Each bounded node's loop bound (`addNode(name, fn, { bound })`); empty for a graph without bounds. */
  readonly bounds: ReadonlyMap<string, NodeBound>;
  /** The deferred nodes (`addNode(name, fn, { defer: true })`; the kernel's rule is in kernel/defer.ts); empty for most graphs. */
  readonly deferred: ReadonlySet<string>;
}
