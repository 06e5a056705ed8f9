/**
 * Checksums, and the pending writes as stored: each text is kept with its SHA-256, so a flipped byte
 * inside a stored body is found when it is read, and never resumes to a silently wrong state.
 */
import { hash } from "node:crypto";
import type { Checkpoint, CheckpointWrite } from "../../engine/index.js";
import { PersistenceError } from "../../engine/index.js";
import { quoted } from "./faults.js";

/** The checksum of a body: hex SHA-256 of its UTF-8 text. */
export function checksumOf(body: string): string {
  // The one-shot form: a third cheaper than createHash for a checkpoint's size.
  return hash("sha256", body, "hex");
}

/** One stored pending write, as the read statements select it. */
export interface StoredWriteRow {
  readonly checkpoint_seq: number;
  readonly body: unknown;
  readonly checksum: unknown;
}

/** The pending writes stored rows hold, in task order, after checking each one's checksum and shape; else `CHECKPOINT_CORRUPT`. */
export function decodeWrites(api: string, file: string, checkpoint: Checkpoint, rows: readonly StoredWriteRow[]): CheckpointWrite[] {
  return rows.map((row) => {
    const corrupt = (problem: string) =>
      new PersistenceError(
        "CHECKPOINT_CORRUPT",
        `${api}: a pending write of checkpoint ${quoted(checkpoint.id)} of thread ${quoted(checkpoint.threadId)} in ${quoted(file)} is corrupt: ${problem}. ` +
          "Resuming would lose or repeat a node's update. Restore the file from a backup, or resume from the checkpoint's state on a new thread.",
        { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
      );
    if (typeof row.body !== "string") throw corrupt("its stored body is not text");
    if (checksumOf(row.body) !== row.checksum)
      throw corrupt("its stored body does not match its checksum (the bytes changed after it was written)");
    let write: unknown;
    try {
      write = JSON.parse(row.body);
    } catch {
      throw corrupt("its stored body is not JSON");
    }
    const { task, node, update } = (write ?? {}) as Partial<CheckpointWrite>;
    if (!Number.isSafeInteger(task) || typeof node !== "string" || typeof update !== "object" || update === null || Array.isArray(update)) {
      throw corrupt("its stored body is not a { task, node, update } write");
    }
    return write as CheckpointWrite;
  });
}
