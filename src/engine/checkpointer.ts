/**
 * The checkpointer interface: the one seam between a run and a store. Small on purpose, so another
 * store (PostgreSQL, a key-value service) is a page of code. See docs/persistence.md.
 */

import type { PendingWrite } from "../errors.js";
import type { RouteTaken, Task } from "./step.js";
import type { RunSnapshot } from "./kernel/superstep.js";
import type { GraphStamp } from "./graph-stamp.js";
import type { TaskError } from "./run-types.js";
import type { JsonValue, PendingInterrupt } from "./checkpoint-values.js";

export type { GraphStamp, JsonValue, PendingInterrupt };

/**
 * A node a run starts when it continues. A task scheduled by a `Send` carries the Send's input (the run
 * kernel's task). Read through `getState`, a task whose last attempt failed carries its `error`.
 */
export interface CheckpointTask extends Task {
  /** Why the task failed in the superstep that starts here (`getState` only: a store keeps it as a pending write); it runs again on resume. */
  readonly error?: TaskError;
}

/** A conditional choice a run made (what coverage reports read). */
export type CheckpointRoute = RouteTaken;

/**
 * The update of one task of a superstep that has not committed (LangGraph's pending write): its task
 * succeeded while a sibling failed (or the process died before the superstep's checkpoint was saved).
 * A resume runs only the tasks without one, then commits every update together, in declaration order.
 */
export interface CheckpointWrite extends PendingWrite {
  /** The task's position in its checkpoint's `tasks` (so two Sends to one node are told apart). */
  readonly task: number;
}

/** Why a checkpoint was written, and by what. */
export interface CheckpointMetadata {
  /**
   * `input`: a run started; `loop`: a superstep committed; `update`: `updateState` (or a `Command`'s
   * update or goto) changed the state; `interrupt`: a node called `interrupt()` and the run paused
   * before its superstep committed (the state and tasks are the parent's; `interrupts` says why), or
   * a resumed superstep failed and its answers are kept (`resumes`), so a retry does not ask again.
   */
  readonly source: "input" | "loop" | "update" | "interrupt";
  /** The nodes whose writes it records: the superstep's nodes, the `asNode` of an update, `[]` for an input. */
  readonly writes: readonly string[];
  /** What the caller attached with `invoke(…, { metadata })`; a resumed run keeps it. */
  readonly user?: Readonly<Record<string, JsonValue>>;
  /** On the checkpoint a newer graph wrote when it continued an older version's thread: that older version. */
  readonly migratedFrom?: number;
}

/**
 * One committed point of a thread: the run kernel's snapshot (state, tasks, trace, routes, supersteps,
 * joins) plus where it sits in the thread and why it was written.
 *
 * @example
 * ```ts
 * const checkpoint = await checkpointer.latest("order-42");
 * checkpoint?.next; // ["publish"]: what runs when the thread resumes
 * ```
 */
export interface Checkpoint<S extends object = Record<string, unknown>, N extends string = string> extends RunSnapshot<S> {
  /** Unique within its thread. */
  readonly id: string;
  /** The checkpoint this one continues from; `null` for a thread's first. Forks share a parent. */
  readonly parentId: string | null;
  readonly threadId: string;
  /** The position in its branch: the parent's step + 1, 0 for a thread's first checkpoint. */
  readonly step: number;
  /** The nodes that run next, in order (the tasks' nodes); empty once the run reached END. Typed by the graph's node names `N` where a compiled graph reads it. */
  readonly next: readonly N[];
  /** The tasks that run next, in order (see {@link CheckpointTask}). */
  readonly tasks: readonly CheckpointTask[];
  /** When it was written: an ISO 8601 timestamp. */
  readonly createdAt: string;
  readonly metadata: CheckpointMetadata;
  /**
   * The writes kept for the superstep that starts here (see {@link CheckpointWrite}), in task order;
   * absent when there are none. They stay with the checkpoint: resuming or forking from it again
   * reuses them, as LangGraph's replay does.
   */
  readonly pendingWrites?: readonly CheckpointWrite[];
  /**
   * The `interrupt()` calls the run paused at, waiting for a resume: on a paused superstep's checkpoint
   * (`source: "interrupt"`), and on an `update` of it that left the paused tasks as they were.
   */
  readonly interrupts?: readonly PendingInterrupt[];
  /**
   * Resume values given so far for this superstep's interrupts, by id: a partial resume keeps them for
   * the rest, and a resumed superstep that failed keeps them for its retry (never one a schema refused).
   */
  readonly resumes?: Readonly<Record<string, JsonValue>>;
  /**
   * On a subgraph's own thread only: the updates its nodes wrote so far, each field folded with its
   * reducer. What the subgraph node hands its parent when the child reaches END, even when the child
   * was paused (or its process killed) in between.
   */
  readonly subgraphUpdate?: Readonly<Record<string, JsonValue>>;
  /**
   * The graph that wrote it: its `compile({ version })` and spec hash. Absent on a checkpoint written
   * before graphs had versions, which counts as version 1.
   */
  readonly graph?: GraphStamp;
}

/**
 * A task of `getState(threadId, { subgraphs: true })`: a subgraph task paused (or stopped) inside its
 * child carries the child's own checkpoint, its subgraph tasks resolved the same way (LangGraph's
 * `tasks[i].state`).
 *
 * @example
 * ```ts
 * const parent = await graph.getState("t1", { subgraphs: true });
 * parent?.tasks[0]?.state?.next; // ["approve"]: where the child stands
 * ```
 */
export interface SubgraphTask extends CheckpointTask {
  /** The child's latest checkpoint, while the child has one (it is removed once the parent's superstep commits). */
  readonly state?: CheckpointWithSubgraphs;
}

/** A checkpoint as `getState(threadId, { subgraphs: true })` returns it: its subgraph tasks carry their child's state. */
export interface CheckpointWithSubgraphs<S extends object = Record<string, unknown>, N extends string = string> extends Checkpoint<S, N> {
  readonly tasks: readonly SubgraphTask[];
}

/** Options of {@link Checkpointer.list}. */
export interface ListOptions {
  /** The most checkpoints to return (the newest ones). */
  readonly limit?: number;
}

/**
 * What {@link Checkpointer.prune} keeps, besides each thread's latest checkpoint (always kept: a resume
 * starts there). A checkpoint is kept when any option keeps it; at least one option is required.
 */
export interface PruneOptions {
  /** Keep the thread's newest `keepLast` checkpoints (a positive integer), every branch counted. */
  readonly keepLast?: number;
  /** Keep the checkpoints created at or after this time (a `Date`, or an ISO 8601 string). */
  readonly olderThan?: Date | string;
}

/** What {@link Checkpointer.prune} did. */
export interface PruneResult {
  /** How many checkpoints it removed (with their pending writes). */
  readonly removed: number;
}

/**
 * A store of checkpoints, keyed by thread. Implementations return detached copies (mutating a
 * returned checkpoint changes nothing stored) and never keep a reference to what `save` received.
 *
 * @example
 * ```ts
 * const checkpointer: Checkpointer = new MemoryCheckpointer();
 * await graph.invoke(input, { threadId: "t1", checkpointer });
 * (await checkpointer.list("t1")).map((c) => c.step); // [6, 5, 4, 3, 2, 1, 0]
 * ```
 */
export interface Checkpointer {
  /**
   * Stores `checkpoint` atomically, if its thread's latest checkpoint is still `expectedLatestId`
   * (`null`: the thread has none). Otherwise it stores nothing and throws `CheckpointConflictError`:
   * this version check is what keeps two runs on one thread from interleaving.
   */
  save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void>;
  /**
   * Optional: stores several checkpoints of one thread, in order, as one atomic step (all or none), if
   * the thread's latest checkpoint is still `expectedLatestId`; each one after the first continues the
   * one before it (its `parentId` is that one's `id`), and the last becomes the thread's latest.
   * Otherwise it stores nothing and throws `CheckpointConflictError`, as `save` does. A run with
   * `durability: "async"` stores what it queued this way when the store has it (one transaction, one
   * round trip), and with one `save` after another when it does not.
   */
  saveMany?(checkpoints: readonly Checkpoint[], expectedLatestId: string | null): Promise<void>;
  /** The thread's most recently saved checkpoint, or `undefined` for an unknown thread. */
  latest(threadId: string): Promise<Checkpoint | undefined>;
  /** One checkpoint of the thread by id, or `undefined`. */
  get(threadId: string, id: string): Promise<Checkpoint | undefined>;
  /** The thread's checkpoints, newest first, every branch included. */
  list(threadId: string, options?: ListOptions): Promise<Checkpoint[]>;
  /** Deletes every checkpoint of the thread. */
  deleteThread(threadId: string): Promise<void>;
  /**
   * Optional: the ids of the threads the store holds, sorted (by UTF-8 bytes, as the stores index
   * them). A subgraph's own threads (`thread␟namespace`) are left out: they belong to their parent's.
   * The engine never calls it; `tsg history --versions` and `tsg migrate` need it (a store without it is
   * named in their message).
   */
  listThreads?(): Promise<string[]>;
  /**
   * Keeps `writes` for the superstep that starts at checkpoint `checkpointId` of the thread, as that
   * checkpoint's `pendingWrites` (LangGraph's `putWrites`). Called as each task of a parallel superstep
   * succeeds, before the superstep commits, so a crash or a sibling's failure does not run it again. A
   * task that already has a write keeps the first one (a second runner of the same superstep changes
   * nothing). The store copies what it is given. Throws `CHECKPOINT_NOT_FOUND` for an unknown checkpoint.
   */
  putWrites(threadId: string, checkpointId: string, writes: readonly CheckpointWrite[]): Promise<void>;
  /**
   * Removes old checkpoints of one thread, or (without `threadId`) of every thread, keeping each
   * thread's latest and what `options` keep. A kept checkpoint reads exactly as before (state, trace,
   * routes, pending writes), even when its parent is removed: its `parentId` then names a checkpoint
   * that `get` no longer finds. Atomic: on any failure nothing is removed. Optional: the engine never
   * calls it (MemoryCheckpointer and SqliteCheckpointer have it).
   */
  prune?(threadId: string, options: PruneOptions): Promise<PruneResult>;
  prune?(options: PruneOptions): Promise<PruneResult>;
}
