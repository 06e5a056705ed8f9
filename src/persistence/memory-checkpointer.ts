/**
 * `MemoryCheckpointer`: checkpoints in this process's memory, for tests and short-lived runs. It
 * stores each checkpoint as JSON text, as the SQLite checkpointer does, so a test that passes here sees
 * the same round trip (and the same dropped `undefined` properties). And as SQLite's, it keeps of a
 * checkpoint's trace and routes only what its superstep added (`trace-delta.ts`), so the memory a
 * checkpoint takes does not grow with the thread's length; reads assemble the lists on demand.
 */
import type { Checkpoint, Checkpointer, CheckpointWrite, ListOptions, PruneOptions, PruneResult } from "../engine/index.js";
import { CheckpointConflictError } from "../engine/index.js";
import { checkListOptions, isUnderThread } from "../engine/store-rules.js";
import { checkCheckpointId, checkSavedIds, checkThreadId } from "./ids.js";
import { checkPrune, checkSaveChain, checkWrites, keptByPrune, mergeWrites, writesTargetMissing } from "./store-checks.js";
import { assemble } from "./sqlite/chain.js";
import { deltaOf, rebuild, type TraceAndRoutes, type TraceDelta } from "./trace-delta.js";
import { topLevelThreads } from "./thread-listing.js";

interface StoredCheckpoint {
  readonly id: string;
  readonly createdAt: string;
  /** The checkpoint's JSON text, without its trace, routes and pending writes. */
  readonly json: string;
  /** Its trace and routes: what it adds to the stored checkpoint it continues (held by reference), and how much of that one's it keeps. */
  delta: TraceDelta<StoredCheckpoint>;
  /** The length of its trace and of its routes. */
  readonly lengths: readonly [trace: number, routes: number];
  /** The pending writes' JSON text (a list in task order), once there are some. */
  writes?: string;
}

interface StoredThread {
  /** Oldest first. */
  readonly checkpoints: StoredCheckpoint[];
  /** The lists of the checkpoint last saved or read: a run's saves, and a history read in order, walk nothing. */
  recent?: { readonly entry: StoredCheckpoint; readonly lists: TraceAndRoutes } | undefined;
}

/** What {@link MemoryCheckpointer.stats} reports of a thread. */
export interface MemoryThreadStats {
  readonly checkpoints: number;
  /** The length of the text it stores (bodies, trace deltas, pending writes): about its bytes, for plain-ASCII data. */
  readonly bytes: number;
}

/**
 * A {@link Checkpointer} that lives as long as the object: nothing survives the process.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * await graph.invoke(input, { threadId: "t1", checkpointer });
 * const { state, next } = (await checkpointer.latest("t1"))!;
 * ```
 */
export class MemoryCheckpointer implements Checkpointer {
  readonly #threads = new Map<string, StoredThread>();

  async save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void> {
    this.#saveChain("MemoryCheckpointer.save", [checkpoint], expectedLatestId);
  }

  /**
   * Stores several checkpoints of one thread, in order, all or none (see `Checkpointer.saveMany`).
   *
   * @example
   * ```ts
   * await checkpointer.saveMany([first, second], null); // second.parentId === first.id
   * ```
   */
  async saveMany(checkpoints: readonly Checkpoint[], expectedLatestId: string | null): Promise<void> {
    this.#saveChain("MemoryCheckpointer.saveMany", checkSaveChain("MemoryCheckpointer.saveMany", checkpoints), expectedLatestId);
  }

  #saveChain(api: string, chain: readonly Checkpoint[], expectedLatestId: string | null): void {
    for (const checkpoint of chain) checkSavedIds(api, checkpoint);
    const threadId = (chain[0] as Checkpoint).threadId;
    const thread = this.#threads.get(threadId);
    const latestId = thread?.checkpoints.at(-1)?.id ?? null;
    if (latestId !== expectedLatestId) throw new CheckpointConflictError(threadId, expectedLatestId, latestId);
    // Every entry is made before any is stored: a checkpoint the store refuses leaves the thread as it was.
    const made: { readonly entry: StoredCheckpoint; readonly lists: TraceAndRoutes }[] = [];
    for (const checkpoint of chain) {
      const previous = made.at(-1);
      const parent = previous?.entry.id === checkpoint.parentId ? previous : this.#parentOf(thread, checkpoint);
      made.push(entryOf(api, checkpoint, parent));
    }
    const stored = thread ?? { checkpoints: [] };
    if (thread === undefined) this.#threads.set(threadId, stored);
    for (const { entry } of made) stored.checkpoints.push(entry);
    stored.recent = made.at(-1);
  }

  /** The stored checkpoint `checkpoint` continues, with its lists; `undefined` for a thread's first. */
  #parentOf(
    thread: StoredThread | undefined,
    checkpoint: Checkpoint,
  ): { readonly entry: StoredCheckpoint; readonly lists: TraceAndRoutes } | undefined {
    const entry = thread === undefined || checkpoint.parentId === null ? undefined : find(thread, checkpoint.parentId);
    return thread === undefined || entry === undefined ? undefined : { entry, lists: listsOf(thread, entry) };
  }

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    const thread = this.#threads.get(checkThreadId("MemoryCheckpointer.latest", threadId));
    const entry = thread?.checkpoints.at(-1);
    return thread === undefined || entry === undefined ? undefined : read(thread, entry);
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    const thread = this.#threads.get(checkThreadId("MemoryCheckpointer.get", threadId));
    checkCheckpointId("MemoryCheckpointer.get", id);
    const entry = thread === undefined ? undefined : find(thread, id);
    return thread === undefined || entry === undefined ? undefined : read(thread, entry);
  }

  async list(threadId: string, options?: ListOptions): Promise<Checkpoint[]> {
    const { limit } = checkListOptions("MemoryCheckpointer.list", options);
    const thread = this.#threads.get(checkThreadId("MemoryCheckpointer.list", threadId));
    if (thread === undefined) return [];
    const newestFirst = [...thread.checkpoints].reverse();
    const limited = limit === undefined ? newestFirst : newestFirst.slice(0, limit);
    // Each entry's lists are assembled when first read, so listing a long history builds no trace it does not read.
    return limited.map((entry) => read(thread, entry, true));
  }

  /**
   * The ids of the threads it holds (a subgraph's own threads left out), sorted by UTF-8 bytes.
   *
   * @example
   * ```ts
   * await checkpointer.listThreads(); // ["order-41", "order-42"]
   * ```
   */
  async listThreads(): Promise<string[]> {
    return topLevelThreads([...this.#threads].filter(([, thread]) => thread.checkpoints.length > 0).map(([id]) => id));
  }

  async deleteThread(threadId: string): Promise<void> {
    checkThreadId("MemoryCheckpointer.deleteThread", threadId);
    for (const id of [...this.#threads.keys()]) if (id === threadId || isUnderThread(id, threadId)) this.#threads.delete(id);
  }

  async putWrites(threadId: string, checkpointId: string, writes: readonly CheckpointWrite[]): Promise<void> {
    checkWrites("MemoryCheckpointer.putWrites", writes);
    const thread = this.#threads.get(checkThreadId("MemoryCheckpointer.putWrites", threadId));
    checkCheckpointId("MemoryCheckpointer.putWrites", checkpointId);
    const entry = thread === undefined ? undefined : find(thread, checkpointId);
    if (entry === undefined) throw writesTargetMissing("MemoryCheckpointer.putWrites", threadId, checkpointId);
    const stored = entry.writes === undefined ? [] : (JSON.parse(entry.writes) as CheckpointWrite[]);
    entry.writes = JSON.stringify(mergeWrites(stored, writes));
  }

  prune(threadId: string, options: PruneOptions): Promise<PruneResult>;
  prune(options: PruneOptions): Promise<PruneResult>;
  async prune(first: string | PruneOptions, second?: PruneOptions): Promise<PruneResult> {
    const request = checkPrune("MemoryCheckpointer.prune", first, second);
    if (request.threadId !== undefined) checkThreadId("MemoryCheckpointer.prune", request.threadId);
    const threads = request.threadId === undefined ? [...this.#threads.values()] : [this.#threads.get(request.threadId)];
    let removed = 0;
    for (const thread of threads) {
      if (thread === undefined) continue;
      const kept = keptByPrune(
        thread.checkpoints.map((entry) => entry.createdAt),
        request,
      );
      const remaining = thread.checkpoints.filter((_, index) => kept.has(index));
      const staying = new Set(remaining);
      // A kept checkpoint whose delta continues a removed one keeps its whole lists instead (read before anything changes).
      const rebased = remaining.flatMap((entry) =>
        entry.delta.parent !== null && !staying.has(entry.delta.parent) ? [{ entry, lists: listsOf(thread, entry) }] : [],
      );
      for (const { entry, lists } of rebased) entry.delta = { parent: null, trace: [0, lists.trace], routes: [0, lists.routes] };
      removed += thread.checkpoints.length - remaining.length;
      thread.checkpoints.splice(0, thread.checkpoints.length, ...remaining);
      if (thread.recent !== undefined && !staying.has(thread.recent.entry)) thread.recent = undefined;
    }
    return { removed };
  }

  /**
   * How many checkpoints a thread holds and how much text they take: flat per checkpoint however long
   * the thread (the state itself aside), since each keeps only what its superstep added to the trace.
   *
   * @example
   * ```ts
   * new MemoryCheckpointer().stats("t1"); // { checkpoints: 0, bytes: 0 }
   * ```
   */
  stats(threadId: string): MemoryThreadStats {
    const entries = this.#threads.get(threadId)?.checkpoints ?? [];
    const bytes = entries.reduce(
      (sum, entry) =>
        sum + entry.json.length + JSON.stringify([entry.delta.trace, entry.delta.routes]).length + (entry.writes?.length ?? 0),
      0,
    );
    return { checkpoints: entries.length, bytes };
  }
}

/** A checkpoint as the store keeps it: its body as JSON text, its trace and routes as a delta of its parent's. */
function entryOf(
  api: string,
  checkpoint: Checkpoint,
  parent: { readonly entry: StoredCheckpoint; readonly lists: TraceAndRoutes } | undefined,
): { readonly entry: StoredCheckpoint; readonly lists: TraceAndRoutes } {
  const { pendingWrites, trace, routes, ...rest } = checkpoint;
  const writes =
    pendingWrites !== undefined && pendingWrites.length > 0 ? JSON.stringify(mergeWrites([], checkWrites(api, pendingWrites))) : undefined;
  // Copies: the store never keeps a reference to what it was given (a route is { from, key, to } strings, as JSON keeps it).
  const lists: TraceAndRoutes = { trace: [...trace], routes: routes.map(({ from, key, to }) => ({ from, key, to })) };
  const entry: StoredCheckpoint = {
    id: checkpoint.id,
    createdAt: checkpoint.createdAt,
    json: JSON.stringify(rest),
    delta: deltaOf(parent?.entry as StoredCheckpoint, parent?.lists, lists),
    lengths: [lists.trace.length, lists.routes.length],
    ...(writes === undefined ? {} : { writes }),
  };
  return { entry, lists };
}

/** The latest checkpoint of the thread with this id (an id reused after a fork of ids is the newest). */
function find(thread: StoredThread, id: string): StoredCheckpoint | undefined {
  return thread.checkpoints.findLast((entry) => entry.id === id);
}

/**
 * The lists of `entry`, from the thread's recent lists when they are its parent's or its child's (a run's
 * saves, a history read in order), else by walking its deltas back to one that keeps nothing. The result
 * is shared: copy it before handing it out.
 */
function listsOf(thread: StoredThread, entry: StoredCheckpoint): TraceAndRoutes {
  const recent = thread.recent;
  // A chain in memory is never damaged: rebuild cannot refuse it.
  let lists: TraceAndRoutes;
  if (recent?.entry === entry) lists = recent.lists;
  else if (recent !== undefined && entry.delta.parent === recent.entry)
    lists = rebuild([{ ...entry.delta, parent: null }], recent.lists) as TraceAndRoutes;
  else if (recent !== undefined && isCutOf(recent.entry, entry)) {
    lists = { trace: recent.lists.trace.slice(0, entry.lengths[0]), routes: recent.lists.routes.slice(0, entry.lengths[1]) };
  } else {
    const chain: TraceDelta<StoredCheckpoint>[] = [];
    for (let at: StoredCheckpoint | null = entry; at !== null; at = at.delta.parent) chain.push(at.delta);
    lists = rebuild(chain.reverse()) as TraceAndRoutes;
  }
  thread.recent = { entry, lists };
  return lists;
}

/** Whether `child`'s lists begin with all of `entry`'s: then `entry`'s are a cut of them. */
function isCutOf(child: StoredCheckpoint, entry: StoredCheckpoint): boolean {
  return child.delta.parent === entry && child.delta.trace[0] === entry.lengths[0] && child.delta.routes[0] === entry.lengths[1];
}

/** A stored checkpoint as a new object, with its pending writes when it has some; `lazy`: its lists assembled when first read. */
function read(thread: StoredThread, entry: StoredCheckpoint, lazy = false): Checkpoint {
  const body = JSON.parse(entry.json) as Record<string, unknown>;
  if (entry.writes !== undefined) body.pendingWrites = JSON.parse(entry.writes) as CheckpointWrite[];
  const fresh = (): TraceAndRoutes => {
    const lists = listsOf(thread, entry);
    return { trace: [...lists.trace], routes: lists.routes.map((route) => ({ ...route })) };
  };
  return assemble(body, lazy ? fresh : fresh());
}
