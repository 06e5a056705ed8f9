import { InvalidOptionError } from "../errors.js";
import type { GraphMigration } from "./threads/versions/migrations.js";
import type { DeclaredInterrupt } from "./interrupt.js";
import type { GraphSpec } from "../spec.js";
import type { ExecutableGraph } from "./executable.js";
import type { CacheStore, NodeErrorHandler, RetryPolicy } from "./policies.js";
import { invokeRun } from "./invoke.js";
import type {
  CustomEvent,
  DebugEvent,
  MessageStreamEvent,
  RunOptions,
  RunResult,
  Step,
  StreamMode,
  StreamOptions,
  SuperstepValues,
  TaskEvent,
} from "./run-types.js";
import { streamRun } from "./stream.js";
import type { GraphWarning } from "./warnings.js";
import type { Checkpoint, Checkpointer, CheckpointWithSubgraphs } from "./checkpointer.js";
import { getThreadHistory, getThreadState } from "./threads/read-state.js";
import { invokeThread } from "./threads/invoke-thread.js";
import { isThreadRun, threadRequired } from "./threads/thread-options.js";
import type {
  BulkUpdateStateOptions,
  GetStateHistoryOptions,
  GetStateOptions,
  ThreadRunOptions,
  ThreadRunResult,
  ThreadSettings,
  UpdateStateOptions,
  UpdateSuperstep,
} from "./threads/types.js";
import { updateThreadState } from "./threads/update-state.js";
import { bulkUpdateThreadState } from "./threads/bulk-update.js";
import type { AnyRunOptions, InvokeOptions, InvokeResult, RunInput, StreamRunOptions } from "./invoke-input.js";

/** Options of a threaded `stream`: `stream(input, { threadId, streamMode })`, or `stream(null, …)` to resume. */
export type ThreadStreamOptions<M extends StreamMode | readonly StreamMode[] = "updates"> = StreamOptions<M> & ThreadRunOptions;

/** What `stream` yields for the stream mode(s) `M`, for a graph whose nodes are `N`. */
export type StreamYield<S, M, N extends string = string> = M extends readonly StreamMode[]
  ? StreamMode[] extends M
    ? StreamChunk<S, N>
    : { readonly [K in M[number]]: readonly [K, StreamYield<S, K, N>] }[M[number]]
  : M extends "values"
    ? SuperstepValues<S>
    : M extends "custom"
      ? CustomEvent
      : M extends "messages"
        ? MessageStreamEvent
        : M extends "tasks"
          ? TaskEvent<S, N>
          : M extends "checkpoints"
            ? StreamedCheckpoint<S, N>
            : M extends "debug"
              ? DebugEvent<S, N, StreamedCheckpoint<S, N>>
              : Step<S, N>;

/**
 * What `stream` yields with `subgraphs: true`: each chunk under its namespace, `[namespace, chunk]`, or
 * `[namespace, mode, chunk]` with a list of modes. The graph's own chunks (namespace `[]`) are typed by its
 * state; a subgraph's carry the child's state, which the parent's type does not know: a plain record.
 *
 * @example
 * ```ts
 * for await (const [namespace, step] of graph.stream(input, { subgraphs: true }))
 *   console.log(namespace.join(" > ") || "(root)", step.node); // "p_two:2:0 c_one"
 * ```
 */
export type SubgraphStreamYield<S, M, N extends string = string> = M extends readonly StreamMode[]
  ? Namespaced<StreamYield<S, M, N> | StreamYield<Record<string, unknown>, M>>
  : readonly [namespace: readonly string[], chunk: StreamYield<S, M, N> | StreamYield<Record<string, unknown>, M>];

/** A `[mode, chunk]` pair under its namespace. */
type Namespaced<C> = C extends readonly [infer K, infer P] ? readonly [namespace: readonly string[], mode: K, chunk: P] : never;

/** A checkpoint as `streamMode: "checkpoints"` yields it. */
type StreamedCheckpoint<S, N extends string> = S extends object ? Checkpoint<S, N> : never;

/** What `stream` yields with a list of modes. */
export type StreamChunk<S, N extends string = string> =
  | readonly ["updates", Step<S, N>]
  | readonly ["values", SuperstepValues<S>]
  | readonly ["custom", CustomEvent]
  | readonly ["messages", MessageStreamEvent]
  | readonly ["tasks", TaskEvent<S, N>]
  | readonly ["checkpoints", StreamedCheckpoint<S, N>]
  | readonly ["debug", DebugEvent<S, N, StreamedCheckpoint<S, N>>];

/**
 * A validated, frozen graph: run it with {@link CompiledGraph.invoke} or {@link CompiledGraph.stream},
 * or hand its {@link CompiledGraph.spec} to an exporter. It shares nothing between runs. `N` is its
 * node names (kept by `compile()`): they type the result's `trace` and steps, where a thread paused,
 * and `updateState`'s `asNode`. `CompiledGraph<S>` (any node names) accepts every graph of state `S`.
 *
 * @example
 * ```ts
 * const { state, trace } = await graph.invoke({ n: 0 });
 * for await (const step of graph.stream({ n: 0 })) console.log(step.node, step.update);
 * ```
 */
export class CompiledGraph<S extends object = Record<string, unknown>, N extends string = string, Input extends object = S> {
  /** The plain-data description of the graph (JSON-serializable, frozen). */
  readonly spec: GraphSpec;
  /** Non-fatal findings of `compile()`, such as order-dependent parallel merges. */
  readonly warnings: readonly GraphWarning[];
  readonly #executable: ExecutableGraph;
  readonly #threads: ThreadSettings;

  /** @internal Use `StateGraph.compile()` (or `compileGraph`) rather than this constructor. */
  constructor(
    spec: GraphSpec,
    executable: ExecutableGraph,
    warnings: readonly GraphWarning[] = [],
    threads: ThreadSettings = noThreadSettings,
  ) {
    this.spec = spec;
    this.warnings = warnings;
    this.#executable = executable;
    this.#threads = threads;
    executables.set(this, executable);
    if (threads !== noThreadSettings) threadSettings.set(this, threads);
  }

  /**
   * Runs the graph to END and resolves with the final state, the trace and every step.
   * It never throws synchronously: bad input or options reject the Promise. Without a thread the input
   * is the whole state; on a thread (`{ threadId }`) it is a partial state merged into the thread's
   * state through the reducers (a chat's new message alone), `null` to resume, or a `Command`.
   *
   * @example
   * ```ts
   * const { state, trace, steps } = await graph.invoke(initial, { maxSteps: 30 });
   * await chat.invoke({ messages: [question] }, { threadId: "chat-1", checkpointer }); // appended to the thread's messages
   * ```
   */
  // One signature: the options' threadId (inferred) chooses the input's type, whole or partial (see invoke-input.ts).
  invoke<T extends string | undefined = undefined>(
    input: RunInput<Input, NoInfer<T>, "invoke", N, S>,
    options?: InvokeOptions<T>,
  ): Promise<InvokeResult<S, N, T>>;
  invoke(input: unknown, options?: RunOptions | ThreadRunOptions): Promise<RunResult<S, N>> {
    if (isThreadRun(options)) return invokeThread(this.#executable, this.#threads, input, options) as Promise<ThreadRunResult<S, N>>;
    if (this.#threads !== noThreadSettings) return Promise.reject(threadRequired("invoke", this.#threads));
    return invokeRun(this.#executable, input, options) as Promise<RunResult<S, N>>;
  }

  /**
   * The thread's latest checkpoint (or the one named by `checkpointId`): its `state` and the `next`
   * nodes. `undefined` for a thread with no checkpoint. Given a paused subgraph's thread
   * (`tasks[i].state.threadId` of `getState(threadId, { subgraphs: true })`), the child's own checkpoint,
   * read by the child's tables: call it on the child's own graph for the child's types, or on the
   * top-level graph, which finds the child. A child's thread with no checkpoint (the child finished, and
   * its parent's superstep committed) is a `PersistenceError` `SUBGRAPH_NOT_FOUND`.
   *
   * @example
   * ```ts
   * const { state, next } = (await graph.getState("order-42", { checkpointer }))!; // next: ["publish"]
   * const withChild = await graph.getState("order-43", { checkpointer, subgraphs: true }); // tasks[i].state: a paused subgraph's own state
   * const child = await booking.getState(withChild!.tasks[0]!.state!.threadId, { checkpointer }); // the same, typed by the child
   * ```
   */
  getState(threadId: string, options: GetStateOptions & { readonly subgraphs: true }): Promise<CheckpointWithSubgraphs<S, N> | undefined>;
  getState(threadId: string, options?: GetStateOptions): Promise<Checkpoint<S, N> | undefined>;
  getState(threadId: string, options?: GetStateOptions): Promise<Checkpoint<S, N> | undefined> {
    return getThreadState(this.#executable, this.#threads, threadId, options) as Promise<Checkpoint<S, N> | undefined>;
  }

  /**
   * Applies `update` to the thread through the reducers, as if `asNode` had returned it, and records it
   * as a new checkpoint; resuming continues from there. What runs next is what follows `asNode`, its
   * router reading the updated state. Without `asNode` the update counts as the node that ran last, whose
   * routes are computed again (a stale `Send` is dropped); `asNode: END` (with `null`) cancels the pending work.
   * Given a paused subgraph's thread (`tasks[i].state.threadId` of `getState(threadId, { subgraphs: true })`),
   * it edits the child, checked by the child's fields, reducers and nodes: call it on the child's own
   * graph for the child's types, or on the top-level graph, which finds the child (LangGraph's way).
   *
   * @example
   * ```ts
   * await graph.updateState("order-42", { draft: edited, review: null }, { asNode: "revise_draft", checkpointer });
   * await graph.invoke(null, { threadId: "order-42", checkpointer }); // check_draft runs next
   * await graph.updateState("order-43", null, { asNode: END, checkpointer }); // order-43 has nothing left to run
   * const child = (await trip.getState("trip-1", { checkpointer, subgraphs: true }))?.tasks[0]?.state;
   * await booking.updateState(child!.threadId, { flight: "LY 456" }, { checkpointer }); // the resume continues inside "book"
   * ```
   */
  // One signature, not an overload for `null`: with two, a misspelled asNode was TS2769 ("No overload
  // matches this call") instead of TS's own `'"wirte"' is not assignable to … Did you mean '"write"'?`.
  // `null` without `asNode: END` is refused by the run-time check (INVALID_UPDATE), which names the fix.
  updateState(threadId: string, update: Partial<S> | null, options?: UpdateStateOptions<N>): Promise<Checkpoint<S, N>> {
    return updateThreadState(this.#executable, this.#threads, threadId, update, options) as Promise<Checkpoint<S, N>>;
  }

  /**
   * Applies several supersteps of edits at once, as LangGraph.js's `bulkUpdateState`: each superstep's
   * `updates` are merged together through the reducers, as if their `asNode`s had run in one superstep
   * (each names its node when there are several), and make one checkpoint by the rules of
   * {@link CompiledGraph.updateState}; what follows those nodes runs next. All the checkpoints are stored
   * together, or none (`saveMany`; a store without it is refused with `NO_ATOMIC_SAVE` for more than one).
   * Resolves with the last checkpoint: the thread's latest.
   *
   * @example
   * ```ts
   * await graph.bulkUpdateState("order-42", [
   *   { updates: [{ values: { draft: "v2" }, asNode: "write" }] },
   *   { updates: [{ values: { review: "ok" }, asNode: "review" }, { values: { notes: ["by hand"] }, asNode: "notes" }] },
   * ], { checkpointer });
   * ```
   */
  bulkUpdateState(
    threadId: string,
    supersteps: readonly UpdateSuperstep<S, N>[],
    options?: BulkUpdateStateOptions,
  ): Promise<Checkpoint<S, N>> {
    return bulkUpdateThreadState(this.#executable, this.#threads, threadId, supersteps, options) as Promise<Checkpoint<S, N>>;
  }

  /**
   * The thread's checkpoints, newest first, every branch included (`parentId` links them); `limit` and
   * `before` (a checkpoint id: only those listed after it) page through them. Given a
   * paused subgraph's thread, the child's own checkpoints, as for `getState` (`SUBGRAPH_NOT_FOUND` once
   * the child's thread is gone).
   *
   * @example
   * ```ts
   * const [latest, ...older] = await graph.getStateHistory("order-42", { checkpointer });
   * const nextPage = await graph.getStateHistory("order-42", { checkpointer, limit: 20, before: older.at(-1)!.id }); // the 20 after it
   * const childHistory = await trip.getStateHistory(childThreadId, { checkpointer, limit: 10 }); // the child's, newest first
   * await graph.invoke(null, { threadId: "order-42", checkpointer, checkpointId: older[2]!.id }); // a new branch
   * ```
   */
  getStateHistory(threadId: string, options?: GetStateHistoryOptions): Promise<Checkpoint<S, N>[]> {
    return getThreadHistory(this.#executable, this.#threads, threadId, options) as Promise<Checkpoint<S, N>[]>;
  }

  /**
   * Runs the graph and yields each step as it completes. Each call is a new run: calling `invoke`
   * after `stream` runs the graph a second time. `streamMode: "values"` yields the merged state once
   * per superstep instead; a list of modes yields `[mode, payload]` pairs, from the same single run.
   * `subgraphs: true` adds the chunks of the subgraphs' runs, each under its namespace (`[]` for the graph's own).
   *
   * @example
   * ```ts
   * for await (const step of graph.stream(initial)) console.log(`${step.node} updated:`, Object.keys(step.update));
   * for await (const [namespace, step] of graph.stream(initial, { subgraphs: true })) console.log(namespace, step.node);
   * ```
   */
  stream<T extends string | undefined = undefined, M extends StreamMode | readonly StreamMode[] = "updates", G extends boolean = false>(
    input: RunInput<Input, NoInfer<T>, "stream", N, S>,
    options?: StreamRunOptions<T, M> & { readonly subgraphs?: G },
  ): AsyncIterable<G extends true ? SubgraphStreamYield<S, M, N> : StreamYield<S, M, N>>;
  stream(input: unknown, options?: AnyRunOptions): AsyncIterable<unknown> {
    return streamRun(this.#executable, input, options, this.#threads);
  }
}

const executables = new WeakMap<object, ExecutableGraph>();
const threadSettings = new WeakMap<object, ThreadSettings>();

/**
 * What `compile()` fixed for paused runs (`interruptBefore`, `interruptAfter`): for drivers that pause on
 * their own (DBOS), and for those that cannot pause (the XState machines), which refuse such a graph.
 */
export function threadSettingsOf(graph: object): ThreadSettings {
  return threadSettings.get(graph) ?? noThreadSettings;
}

/** The settings of a graph compiled without threads. */
export const noThreadSettings: ThreadSettings = { interruptBefore: new Set(), interruptAfter: new Set() };

/** What `compile()` fixes for threaded runs. */
export interface ThreadCompileOptions {
  /** Pause before these nodes start (a threaded run only). */
  readonly interruptBefore?: readonly string[];
  /** Pause after these nodes ran (a threaded run only). */
  readonly interruptAfter?: readonly string[];
  /** The checkpointer of threaded runs that pass none. */
  readonly checkpointer?: Checkpointer;
  /** The retry policy of every node that declares none. */
  readonly retry?: RetryPolicy;
  /** The timeout (ms) of every node attempt that declares none. */
  readonly timeout?: number;
  /** The error handler of every node that declares none (see `NodeErrorHandler`). */
  readonly errorHandler?: NodeErrorHandler<never>;
  /** Where cached node updates live. Default: a `MemoryCacheStore` per compiled graph. */
  readonly cacheStore?: CacheStore;
  /** The graph's version, recorded on every checkpoint it writes (a whole number from 1; default 1). */
  readonly version?: number;
  /** How checkpoints of older versions continue on this one: `migrateFrom(…)` values, one per older version. */
  readonly migrations?: readonly GraphMigration[];
  /** The in-node interrupts its nodes raise (`defineInterrupt` values): their answer schemas become reachable from the graph. */
  readonly interrupts?: readonly DeclaredInterrupt[];
}

/**
 * The frozen tables behind a compiled graph: its node functions, transitions (with routers) and
 * reducers. For this package's own runners and exporters (XState, LangGraph), which must run a node
 * exactly as the engine does; not part of the public API.
 */
export function executableOf(graph: object): ExecutableGraph {
  const executable = executables.get(graph);
  if (executable === undefined) {
    throw new InvalidOptionError("executableOf: expected a graph returned by StateGraph.compile() or compileGraph(); got another object.");
  }
  return executable;
}
