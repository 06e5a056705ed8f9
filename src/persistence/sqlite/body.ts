/**
 * A checkpoint as it is stored: its JSON text and the text's SHA-256, so a flipped byte inside a
 * stored body is found when it is read, and never resumes to a silently wrong state.
 */
import { hash } from "node:crypto";
import type { Checkpoint } from "../../engine/index.js";
import { PersistenceError } from "../../engine/index.js";
import { checkpointShapeProblem } from "../checkpoint-shape.js";
import { quoted } from "./faults.js";

/** One stored checkpoint row, as the read statements select it. `checksum` is null in rows the checksum migration could not fill. */
export interface StoredRow {
  readonly thread_id: string;
  readonly id: string;
  readonly parent_id: string | null;
  readonly body: unknown;
  readonly checksum: string | null;
}

/** The checksum of a body: hex SHA-256 of its UTF-8 text. */
export function checksumOf(body: string): string {
  // The one-shot form: a third cheaper than createHash for a checkpoint's size.
  return hash("sha256", body, "hex");
}

/** The checkpoint a row holds, after checking its checksum, its JSON and its shape; else `CHECKPOINT_CORRUPT`. */
export function decodeRow(api: string, file: string, row: StoredRow): Checkpoint {
  const corrupt = (problem: string, cause?: unknown) =>
    new PersistenceError(
      "CHECKPOINT_CORRUPT",
      `${api}: checkpoint ${quoted(row.id)} of thread ${quoted(row.thread_id)} in ${quoted(file)} is corrupt: ${problem}. ` +
        `It cannot be resumed. Restore the file from a backup${
          row.parent_id === null
            ? ", or start the thread again"
            : `, or read the checkpoint before it with getState(threadId, { checkpointId: ${quoted(row.parent_id)} }) and continue from its state on a new thread`
        }.`,
      { threadId: row.thread_id, checkpointId: row.id, ...(cause === undefined ? {} : { cause }) },
    );
  const { body } = row;
  if (typeof body !== "string") throw corrupt(`its stored body is ${body === null ? "NULL" : `not text (${typeof body})`}`);
  if (row.checksum !== null && checksumOf(body) !== row.checksum)
    throw corrupt("its stored body does not match its checksum (the bytes changed after it was written)");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw corrupt("its stored body is not JSON", error);
  }
  const problem = checkpointShapeProblem(parsed);
  if (problem !== undefined) throw corrupt(`its stored body is not a checkpoint: ${problem}`);
  const checkpoint = parsed as Checkpoint;
  if (checkpoint.id !== row.id || checkpoint.threadId !== row.thread_id) {
    throw corrupt(`its stored body names checkpoint ${quoted(checkpoint.id)} of thread ${quoted(checkpoint.threadId)}`);
  }
  return checkpoint;
}
