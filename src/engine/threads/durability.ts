/**
 * When a threaded run's checkpoints reach the store (LangGraph's `durability`). `"sync"`, the default,
 * saves each superstep's checkpoint before the next superstep starts: a crash loses at most the
 * superstep in flight. `"async"` queues them and stores them in the background, in order, each queue
 * in one `saveMany` when the store has it; the run waits for them at its end, at an interrupt and
 * before it throws. A crash can then lose the last few committed supersteps (they run again on resume),
 * never a checkpoint in part or out of order. `"exit"` queues them all and stores them only when the run
 * ends, pauses or fails, in one `saveMany`: a crash leaves the thread where the run found it.
 */
import { InvalidOptionError } from "../../errors.js";
import type { Checkpoint, Checkpointer } from "../checkpointer.js";

/**
 * `"sync"` (the default): each checkpoint is stored before the next superstep starts. `"async"`: the
 * next superstep starts at once and the checkpoints are stored behind it, several in one transaction;
 * the call still returns only once every checkpoint is stored. `"exit"` (LangGraph 1.x's third mode):
 * the run's checkpoints are stored only when it ends, pauses at an interrupt or fails, all in one
 * transaction; a crash mid-run leaves the thread at the checkpoint the run started from (see
 * docs/persistence.md, "Durability").
 *
 * @example
 * ```ts
 * await graph.invoke(input, { threadId: "t1", checkpointer, durability: "async" });
 * ```
 */
export type Durability = "sync" | "async" | "exit";

/** Checks the `durability` option of a threaded run; `undefined` is `"sync"`. */
export function checkDurability(api: string, durability: unknown): Durability {
  if (durability === undefined || durability === "sync" || durability === "async" || durability === "exit") return durability ?? "sync";
  throw new InvalidOptionError(
    `${api}: durability must be "sync" (each checkpoint stored before the next superstep, the default), "async" ` +
      `(stored behind the run, which waits for them before it returns) or "exit" (stored only when the run ends, pauses or fails); ` +
      `got ${typeof durability === "string" ? JSON.stringify(durability) : typeof durability}.`,
  );
}

/**
 * The key of a store's synchronous `save` (SqliteCheckpointer's: its driver is synchronous): the same
 * save, version check and errors, thrown rather than rejected, so a sync-durability run need not await
 * a promise already settled. Internal to the library's own stores.
 * @internal
 */
export const saveNow: unique symbol = Symbol("saveNow");

/** A store that can save synchronously (see {@link saveNow}): `false` when it did not (its `save` must be called). @internal */
export interface SavesNow {
  [saveNow](checkpoint: Checkpoint, expectedLatestId: string | null): boolean;
}

/** One checkpoint waiting to be stored, with the latest id its save expects. */
interface Queued {
  readonly checkpoint: Checkpoint;
  readonly expectedLatestId: string | null;
}

/**
 * Stores one thread's checkpoints in the order they are written. In sync mode `save` is the store's
 * own; in async mode it only queues, and a drain started on the next turn of the event loop (so a run
 * of synchronous nodes fills the queue first) stores everything queued at once. In exit mode it only
 * queues, and `flush` (the run's end, pause or failure) stores everything queued at once.
 * @internal
 */
export class CheckpointSaves {
  readonly #checkpointer: Checkpointer;
  readonly durability: Durability;
  #queue: Queued[] = [];
  #draining: Promise<void> | undefined;
  /** The drain queued for the event loop's next turn and not started yet: `flush` starts it at once. */
  #soon: { readonly timer: ReturnType<typeof setImmediate>; readonly start: () => void } | undefined;
  /** The first failure of a background save: every later save and `flush` reports it. */
  #failure: { readonly error: unknown } | undefined;

  constructor(checkpointer: Checkpointer, durability: Durability) {
    this.#checkpointer = checkpointer;
    this.durability = durability;
  }

  /**
   * Stores (sync) or queues (async) `checkpoint`: the store's promise, or `undefined` once it is stored
   * (a store that saves synchronously, {@link saveNow}) or queued. In async mode, throws the failure of an
   * earlier background save.
   */
  save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void> | undefined {
    if (this.durability === "sync") {
      const store = this.#checkpointer as Checkpointer & Partial<SavesNow>;
      if (store[saveNow]?.(checkpoint, expectedLatestId) === true) return undefined;
      return this.#checkpointer.save(checkpoint, expectedLatestId);
    }
    if (this.#failure !== undefined) throw this.#failure.error;
    this.#queue.push({ checkpoint, expectedLatestId });
    if (this.durability === "async" && this.#draining === undefined) this.#drainSoon();
    return undefined;
  }

  /**
   * Starts the drain on the event loop's next turn, so a run of synchronous nodes fills the queue first;
   * or sooner, when `flush` asks (the run ended, pauses or fails: nothing more comes, and waiting for the
   * turn was a turn of the event loop at the end of every such run).
   */
  #drainSoon(): void {
    let start: () => void = () => undefined;
    this.#draining = new Promise<void>((resolve) => {
      start = resolve;
    }).then(() => this.#drain());
    this.#soon = { timer: setImmediate(start), start };
  }

  /** Whether every checkpoint queued so far is stored, and none failed: {@link flush} would resolve at once. */
  get idle(): boolean {
    return this.#draining === undefined && this.#failure === undefined && this.#queue.length === 0;
  }

  /** Resolves once every checkpoint queued so far is stored; rejects with the first background failure. */
  async flush(): Promise<void> {
    // Exit mode stores only here; async mode has a drain on its way already, and waits for it.
    if (this.#queue.length > 0 && this.#failure === undefined) this.#draining ??= this.#drain();
    const soon = this.#soon;
    if (soon !== undefined) {
      clearImmediate(soon.timer);
      soon.start();
    }
    while (this.#draining !== undefined) await this.#draining;
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  async #drain(): Promise<void> {
    this.#soon = undefined;
    try {
      while (this.#queue.length > 0 && this.#failure === undefined) {
        const batch = this.#queue;
        this.#queue = [];
        await this.#store(batch);
      }
    } catch (error) {
      // The chain is broken: the checkpoints behind the failed one cannot be stored after it.
      this.#failure = { error };
      this.#queue = [];
    } finally {
      this.#draining = undefined;
    }
  }

  async #store(batch: readonly Queued[]): Promise<void> {
    const first = batch[0] as Queued;
    if (batch.length > 1 && this.#checkpointer.saveMany !== undefined) {
      return this.#checkpointer.saveMany(
        batch.map((queued) => queued.checkpoint),
        first.expectedLatestId,
      );
    }
    for (const { checkpoint, expectedLatestId } of batch) await this.#checkpointer.save(checkpoint, expectedLatestId);
  }
}
