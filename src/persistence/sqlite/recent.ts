/**
 * The lists (trace and routes) of the last checkpoint a `SqliteCheckpointer` saved or read, per thread:
 * the next save's parent, almost always, so a save neither walks the chain nor reads the file for them.
 * Keyed by row and id, so a row another process replaced is never mistaken for it. Store-owned copies.
 */
import { isUnderThread } from "../../engine/store-rules.js";
import type { TraceAndRoutes } from "../trace-delta.js";
import type { Links } from "./chain.js";

/** A thread's most recent checkpoint: its row, its id, its lists. */
export interface RecentCheckpoint {
  readonly seq: number;
  readonly id: string;
  readonly lists: TraceAndRoutes;
}

/** How many threads' most recent lists a checkpointer keeps at hand. */
const RECENT_THREADS = 64;

/** The most recent lists of a few threads (the least recently used dropped first). */
export class RecentLists {
  readonly #threads = new Map<string, RecentCheckpoint>();

  get(threadId: string): RecentCheckpoint | undefined {
    return this.#threads.get(threadId);
  }

  /** Keeps a copy of a checkpoint's lists as the thread's most recent. */
  remember(threadId: string, seq: number, id: string, lists: TraceAndRoutes): void {
    this.#threads.delete(threadId);
    if (this.#threads.size >= RECENT_THREADS) this.#threads.delete(this.#threads.keys().next().value as string);
    this.#threads.set(threadId, { seq, id, lists: { trace: [...lists.trace], routes: lists.routes.map((route) => ({ ...route })) } });
  }

  /** The lists a delta continues, when they are the ones at hand (its parent's). */
  known(threadId: string, link: Links, parentId: string | null): RecentCheckpoint | undefined {
    const recent = this.#threads.get(threadId);
    if (link.kind !== "delta" || recent === undefined || recent.seq !== link.delta.parent || recent.id !== parentId) return undefined;
    return recent;
  }

  /** Forgets a thread (`undefined`: every thread); with `subgraphs`, its subgraphs' threads too. */
  forget(threadId: string | undefined, subgraphs = false): void {
    for (const id of [...this.#threads.keys()]) {
      if (threadId === undefined || id === threadId || (subgraphs && isUnderThread(id, threadId))) this.#threads.delete(id);
    }
  }
}
