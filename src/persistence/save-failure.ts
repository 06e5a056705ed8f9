/** What a store's save failure tells the caller, the same in every store. */
import type { Checkpoint } from "../engine/index.js";
import { quoted } from "./sqlite/faults.js";

/**
 * Where a run stood when its checkpoint could not be saved, and how to continue: the end of every save
 * failure's message (SQLite's and PostgreSQL's).
 *
 * @example
 * ```ts
 * throw new PersistenceError("DISK_FULL", `MyCheckpointer.save: the disk is full: ${whereTheRunStood(checkpoint, expectedLatestId)}`);
 * ```
 */
export function whereTheRunStood(checkpoint: Checkpoint, expectedLatestId: string | null): string {
  const recent = checkpoint.trace.slice(-5).map((node) => quoted(node).slice(1, -1));
  const trace =
    checkpoint.trace.length === 0 ? "no node completed yet" : `after ${checkpoint.trace.length > 5 ? "… → " : ""}${recent.join(" → ")}`;
  const next = checkpoint.next.length === 0 ? "the run had reached END" : `next: ${checkpoint.next.slice(0, 5).join(", ")}`;
  const resume =
    expectedLatestId === null
      ? "The thread has no saved checkpoint: start it again once the store can be written."
      : `The thread's last saved checkpoint, ${quoted(expectedLatestId)}, is intact: fix the store, then resume with invoke(null, { threadId }); the nodes after it run again.`;
  return `checkpoint ${checkpoint.step} of thread ${quoted(checkpoint.threadId)} (${trace}; ${next}) was not saved; the error carries the run's state and trace. ${resume}`;
}
