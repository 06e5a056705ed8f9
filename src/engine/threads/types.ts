/**
 * The public types of threaded runs: the options of `invoke`/`stream` with a `threadId`, of the thread
 * reads and edits, and what a threaded run resolves with. Types only; the runner is `thread-run.ts`.
 */
import type { End } from "../../spec.js";
import type { ReducerTable } from "../merge.js";
import type { RunOptions, RunResult } from "../run-types.js";
import type { Checkpointer, CheckpointWrite, JsonValue, PendingInterrupt } from "../checkpointer.js";
import type { Durability } from "./durability.js";

/** What `compile({ interruptBefore, interruptAfter, checkpointer })` fixed for every threaded run. */
export interface ThreadSettings {
  readonly interruptBefore: ReadonlySet<string>;
  readonly interruptAfter: ReadonlySet<string>;
  readonly checkpointer?: Checkpointer;
}

/** Options of a threaded run: `invoke(input, { threadId, checkpointer })`, or `invoke(null, …)` to resume. */
export interface ThreadRunOptions extends RunOptions {
  /** The thread: the line of checkpoints this run continues. */
  readonly threadId: string;
  /** Where checkpoints go. Default: the one passed to `compile({ checkpointer })`. */
  readonly checkpointer?: Checkpointer;
  /**
   * Start from this (older) checkpoint instead of the latest, forking a new branch: `invoke(null, …)`
   * resumes it; a new input is merged onto its state.
   */
  readonly checkpointId?: string;
  /** JSON data stored with each checkpoint (`metadata.user`); a resumed run keeps the checkpoint's. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  /**
   * When checkpoints are stored: `"sync"` (the default) before the next superstep starts; `"async"`
   * behind the run, several at a time, the call returning once all are stored. A crash in async mode
   * can lose the last committed supersteps (they run again on resume). See {@link Durability}.
   */
  readonly durability?: Durability;
}

/**
 * Where a run paused: before some nodes started, after some nodes ran (`interruptBefore`,
 * `interruptAfter`), or during some nodes, which called `interrupt()`. Tell them apart by `when`: a
 * pause `during` nodes always lists the `interrupt()` calls waiting for an answer.
 *
 * @example
 * ```ts
 * if (paused.status === "interrupted" && paused.interrupt.when === "during") {
 *   const [question] = paused.interrupt.interrupts; // no `?.`: a pause during a node has its calls
 * }
 * ```
 */
export type Interrupt<N extends string = string> = StaticPause<N> | InNodePause<N>;

/** A pause before or after nodes (`interruptBefore`, `interruptAfter`): no `interrupt()` call waits. */
export interface StaticPause<N extends string = string> {
  readonly when: "before" | "after";
  /** The nodes it paused at. */
  readonly nodes: readonly N[];
  readonly interrupts?: undefined;
}

/** A pause during nodes that called `interrupt()`: each call waits for a resume value. */
export interface InNodePause<N extends string = string> {
  readonly when: "during";
  /** The nodes it paused at. */
  readonly nodes: readonly N[];
  /** Each `interrupt()` call waiting for a resume value (its id, node and payload). */
  readonly interrupts: readonly (PendingInterrupt & { readonly node: N })[];
}

/**
 * What a threaded `invoke` resolves with: the usual result (`trace`, `routes` and `supersteps` count
 * the whole run, resumes included; `steps` only this call's), plus where the thread stands.
 */
export type ThreadRunResult<S, N extends string = string> = RunResult<S, N> & {
  readonly threadId: string;
  /** The checkpoint the run stopped at: resume or fork from it. */
  readonly checkpointId: string;
  /** The nodes that run when the thread resumes; empty once the run reached END. */
  readonly next: readonly N[];
} & ({ readonly status: "done" } | { readonly status: "interrupted"; readonly interrupt: Interrupt<N> });

/** Options of `getState` and `getStateHistory`. */
export interface ThreadReadOptions {
  /** Default: the one passed to `compile({ checkpointer })`. */
  readonly checkpointer?: Checkpointer;
}

/** Options of `getState`. */
export interface GetStateOptions extends ThreadReadOptions {
  /** Read this (older) checkpoint instead of the latest. */
  readonly checkpointId?: string;
  /** Show each subgraph task's own state (its child's latest checkpoint) in `tasks[i].state`, at every depth. */
  readonly subgraphs?: boolean;
}

/** Options of `getStateHistory`. */
export interface GetStateHistoryOptions extends ThreadReadOptions {
  /** At most this many checkpoints (a positive integer), the newest of those listed. */
  readonly limit?: number;
  /**
   * Only the checkpoints listed after this one (older, in the history's order): the next page of a
   * history read with `limit`, as LangGraph's `before`. An id the thread does not have is `CHECKPOINT_NOT_FOUND`.
   */
  readonly before?: string;
}

/** Options of `updateState`; `N` is the graph's node names. */
export interface UpdateStateOptions<N extends string = string> extends ThreadReadOptions {
  /**
   * Apply the update as if this node had returned it: what runs next is what follows this node, its
   * router reading the updated state. `END` cancels the pending work. Default: the node that ran last
   * (required when the last superstep ran several). On a subgraph's thread, a node of the child.
   */
  readonly asNode?: N | End;
  /** Update this (older) checkpoint instead of the latest, forking a new branch. */
  readonly checkpointId?: string;
}

/**
 * One update of a `bulkUpdateState` superstep: the values, applied through the reducers as if `asNode`
 * had returned them (LangGraph's `{ values, asNode }`). `S` is the graph's state, `N` its node names.
 *
 * @example
 * ```ts
 * const edit: BulkUpdate<Report, "draft" | "review"> = { values: { draft: "v2" }, asNode: "draft" };
 * ```
 */
export interface BulkUpdate<S, N extends string = string> {
  /** The changed fields; `null` only with `asNode: END` (which cancels the pending work). */
  readonly values: Partial<S> | null;
  /** The node the values count as; required in a superstep of several updates. See {@link UpdateStateOptions.asNode}. */
  readonly asNode?: N | End;
}

/**
 * One superstep of `bulkUpdateState`: its updates are merged together, as the writes of nodes that ran
 * in one superstep, and make one checkpoint (LangGraph's `{ updates }`).
 *
 * @example
 * ```ts
 * const superstep: UpdateSuperstep<Report, "draft" | "review"> = { updates: [{ values: { draft: "v2" }, asNode: "draft" }] };
 * ```
 */
export interface UpdateSuperstep<S, N extends string = string> {
  readonly updates: readonly BulkUpdate<S, N>[];
}

/** Options of `bulkUpdateState`. */
export interface BulkUpdateStateOptions extends ThreadReadOptions {
  /** Edit from this (older) checkpoint instead of the latest, forking a new branch. */
  readonly checkpointId?: string;
}

/**
 * How a subgraph task runs its child graph on a thread of its own (see `subgraph-thread.ts`): the
 * child's thread continues from its latest checkpoint when it has one, answering its pending
 * interrupts with `resumes`, and each checkpoint keeps the child nodes' updates folded (`subgraphUpdate`).
 * @internal
 */
export interface ChildThread {
  /** Answers for the child's pending interrupts, by the child's ids; those it is not waiting for are ignored. */
  readonly resumes: Readonly<Record<string, JsonValue>>;
  /** The child graph's reducers, which fold its nodes' updates. */
  readonly reducers: ReducerTable;
}

/** What a checkpoint of a paused superstep carries: its pending interrupts, the answers given so far, and the writes of its tasks that finished. */
export interface ThreadPause {
  readonly interrupts: readonly PendingInterrupt[];
  readonly resumes: Readonly<Record<string, JsonValue>>;
  readonly writes: readonly CheckpointWrite[];
}
