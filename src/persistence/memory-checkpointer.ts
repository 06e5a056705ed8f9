/**
 * `MemoryCheckpointer`: checkpoints in this process's memory, for tests and short-lived runs. It
 * stores each checkpoint as JSON text, exactly as the SQLite checkpointer does, so a test that
 * passes here sees the same round trip (and the same dropped `undefined` properties).
 */
import type { Checkpoint, Checkpointer, ListOptions } from "../engine/index.js";
import { CheckpointConflictError } from "../engine/index.js";
import { checkListOptions } from "../engine/index.js";

interface StoredThread {
  /** JSON text of each checkpoint, oldest first. */
  readonly checkpoints: { readonly id: string; readonly json: string }[];
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
    const entry = { id: checkpoint.id, json: JSON.stringify(checkpoint) };
    if (thread === undefined) this.#threads.set(checkpoint.threadId, { checkpoints: [entry] });
    else thread.checkpoints.push(entry);
  }

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    const json = this.#threads.get(threadId)?.checkpoints.at(-1)?.json;
    return json === undefined ? undefined : (JSON.parse(json) as Checkpoint);
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    const json = this.#threads.get(threadId)?.checkpoints.find((entry) => entry.id === id)?.json;
    return json === undefined ? undefined : (JSON.parse(json) as Checkpoint);
  }

  async list(threadId: string, options?: ListOptions): Promise<Checkpoint[]> {
    const { limit } = checkListOptions("MemoryCheckpointer.list", options);
    const entries = this.#threads.get(threadId)?.checkpoints ?? [];
    const newestFirst = [...entries].reverse();
    const limited = limit === undefined ? newestFirst : newestFirst.slice(0, limit);
    return limited.map((entry) => JSON.parse(entry.json) as Checkpoint);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }
}
