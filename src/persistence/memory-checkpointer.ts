/**
 * `MemoryCheckpointer`: checkpoints in this process's memory, for tests and short-lived runs. It
 * stores each checkpoint as JSON text, exactly as the SQLite checkpointer does, so a test that
 * passes here sees the same round trip (and the same dropped `undefined` properties).
 */
import type { Checkpoint, Checkpointer, CheckpointWrite, ListOptions, PruneOptions, PruneResult } from "../engine/index.js";
import { CheckpointConflictError } from "../engine/index.js";
import { checkListOptions, checkPrune, checkWrites, isUnderThread, keptByPrune, mergeWrites, writesTargetMissing } from "../engine/index.js";

interface StoredCheckpoint {
  readonly id: string;
  readonly createdAt: string;
  /** The checkpoint's JSON text, without its pending writes. */
  readonly json: string;
  /** The pending writes' JSON text (a list in task order), once there are some. */
  writes?: string;
}

interface StoredThread {
  /** Oldest first. */
  readonly checkpoints: StoredCheckpoint[];
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
    const thread = this.#threads.get(checkpoint.threadId);
    const latestId = thread?.checkpoints.at(-1)?.id ?? null;
    if (latestId !== expectedLatestId) throw new CheckpointConflictError(checkpoint.threadId, expectedLatestId, latestId);
    const { pendingWrites, ...rest } = checkpoint;
    const entry: StoredCheckpoint = { id: checkpoint.id, createdAt: checkpoint.createdAt, json: JSON.stringify(rest) };
    if (pendingWrites !== undefined && pendingWrites.length > 0)
      entry.writes = JSON.stringify(mergeWrites([], checkWrites("MemoryCheckpointer.save", pendingWrites)));
    if (thread === undefined) this.#threads.set(checkpoint.threadId, { checkpoints: [entry] });
    else thread.checkpoints.push(entry);
  }

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    const entry = this.#threads.get(threadId)?.checkpoints.at(-1);
    return entry === undefined ? undefined : read(entry);
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    const entry = this.#find(threadId, id);
    return entry === undefined ? undefined : read(entry);
  }

  async list(threadId: string, options?: ListOptions): Promise<Checkpoint[]> {
    const { limit } = checkListOptions("MemoryCheckpointer.list", options);
    const entries = this.#threads.get(threadId)?.checkpoints ?? [];
    const newestFirst = [...entries].reverse();
    const limited = limit === undefined ? newestFirst : newestFirst.slice(0, limit);
    return limited.map(read);
  }

  async deleteThread(threadId: string): Promise<void> {
    for (const id of [...this.#threads.keys()]) if (id === threadId || isUnderThread(id, threadId)) this.#threads.delete(id);
  }

  async putWrites(threadId: string, checkpointId: string, writes: readonly CheckpointWrite[]): Promise<void> {
    checkWrites("MemoryCheckpointer.putWrites", writes);
    const entry = this.#find(threadId, checkpointId);
    if (entry === undefined) throw writesTargetMissing("MemoryCheckpointer.putWrites", threadId, checkpointId);
    const stored = entry.writes === undefined ? [] : (JSON.parse(entry.writes) as CheckpointWrite[]);
    entry.writes = JSON.stringify(mergeWrites(stored, writes));
  }

  prune(threadId: string, options: PruneOptions): Promise<PruneResult>;
  prune(options: PruneOptions): Promise<PruneResult>;
  async prune(first: string | PruneOptions, second?: PruneOptions): Promise<PruneResult> {
    const request = checkPrune("MemoryCheckpointer.prune", first, second);
    const threads = request.threadId === undefined ? [...this.#threads.values()] : [this.#threads.get(request.threadId)];
    let removed = 0;
    for (const thread of threads) {
      if (thread === undefined) continue;
      // Each entry holds its whole checkpoint, so removing one never changes how another reads.
      const kept = keptByPrune(
        thread.checkpoints.map((entry) => entry.createdAt),
        request,
      );
      const remaining = thread.checkpoints.filter((_, index) => kept.has(index));
      removed += thread.checkpoints.length - remaining.length;
      thread.checkpoints.splice(0, thread.checkpoints.length, ...remaining);
    }
    return { removed };
  }

  /** The latest checkpoint of the thread with this id (an id reused after a fork of ids is the newest). */
  #find(threadId: string, id: string): StoredCheckpoint | undefined {
    return this.#threads.get(threadId)?.checkpoints.findLast((entry) => entry.id === id);
  }
}

/** A stored checkpoint as a new object, with its pending writes when it has some. */
function read(entry: StoredCheckpoint): Checkpoint {
  const checkpoint = JSON.parse(entry.json) as Checkpoint;
  return entry.writes === undefined ? checkpoint : { ...checkpoint, pendingWrites: JSON.parse(entry.writes) as CheckpointWrite[] };
}
