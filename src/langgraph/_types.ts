/**
 * The types the LangGraph entry's files share: the exported graph, a subgraph's exported child, and a
 * run's options. Apart from the code, so the files that run a graph and the one that builds it do not
 * import each other.
 */
import type { BaseChannel, CompiledStateGraph } from "@langchain/langgraph";
import type { ExecutableGraph } from "../engine/_kernel.js";
import type { CustomEvent } from "../engine/index.js";
import type { GraphSpec } from "../spec.js";

/** The LangGraph channels of state `S`: one per field, taking the field's type as its update. */
export type LangGraphChannels<S extends object> = { [K in keyof S & string]: BaseChannel<S[K], S[K]> };

/** A compiled LangGraph.js graph over state `S`, as {@link toLangGraph} returns it: `invoke` takes and returns `S`. */
export type LangGraphGraph<S extends object = Record<string, unknown>> = CompiledStateGraph<
  S,
  Partial<S>,
  string,
  LangGraphChannels<S>,
  LangGraphChannels<S>
>;

/** A child graph exported to LangGraph.js, as a subgraph task runs it and a thread reads its state. */
export interface ChildGraph {
  /** The child's LangGraph graph. */
  readonly graph: Pick<LangGraphGraph, "stream" | "getState" | "getStateHistory">;
  /** The child's tables. */
  readonly executable: ExecutableGraph;
}

/**
 * The LangGraph export of a subgraph node's child (its tables and spec), or `undefined` when it cannot
 * be exported (no `fields`, a name LangGraph refuses): that child then runs on the mini engine inside
 * the task, and a resume runs it again from its START.
 */
export type ChildExport = (executable: ExecutableGraph, spec: GraphSpec) => ChildGraph | undefined;

/** Options of a run on LangGraph.js: the mini engine's bounds and signal, and a listener for custom events. */
export interface LangGraphRunOptions {
  /** The most node executions the run may start, as on the mini engine. Default: no bound. */
  readonly maxSteps?: number;
  /** The most supersteps the run may start. Default: 25, or `maxSteps` when larger. */
  readonly recursionLimit?: number;
  /**
   * Stops the run as on the mini engine: before the next superstep, or at once while nodes run (their
   * `context.signal`, LangGraph's `config.signal`, aborts, and their results are discarded).
   */
  readonly signal?: AbortSignal;
  /** Receives each event a node writes with `context.writer` (LangGraph's `custom` stream mode), in order. */
  readonly onCustomEvent?: (event: CustomEvent) => void;
  /** The most nodes of one superstep that run at once (LangGraph's `maxConcurrency`). Default: all. */
  readonly maxConcurrency?: number;
}
