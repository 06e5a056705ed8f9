/**
 * Checksums, and the pending writes as stored: each text is kept with its checksum, so a flipped byte
 * inside a stored body is found when it is read, and never resumes to a silently wrong state. A
 * checksum is a CRC-32 (8 hex digits: what SQLite schema 5 writes) or a SHA-256 (64: schemas 2 to 4,
 * and PostgreSQL); the length says which, so rows of either kind verify side by side.
 */
import { hash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { Checkpoint, CheckpointWrite } from "../../engine/index.js";
import { checkpointShapeProblem } from "../checkpoint-shape.js";
import { PersistenceError } from "../../engine/index.js";
import { quoted } from "./faults.js";

/** One stored row holding a whole checkpoint (a store that keeps no deltas: PostgresCheckpointer). `checksum` is null in rows the checksum migration could not fill. */
export interface StoredRow {
  readonly seq: number;
  readonly thread_id: string;
  readonly id: string;
  readonly parent_id: string | null;
  readonly body: unknown;
  readonly checksum: string | null;
}

/** The checksum of a body: hex SHA-256 of its UTF-8 text (the PostgreSQL store's, and SQLite's before schema 5). */
export function checksumOf(body: string): string {
  // The one-shot form: a third cheaper than createHash for a checkpoint's size.
  return hash("sha256", body, "hex");
}

/**
 * The checksum SQLite schema 5 writes: the CRC-32 of the UTF-8 text, 8 hex digits. It is there to find
 * accidental damage (a flipped bit, a torn or misplaced page), which a CRC-32 finds as surely as a
 * SHA-256 (every burst of up to 32 bits; anything else but one time in 4 billion), at a seventh of the
 * cost of a SHA-256 per checkpoint; neither would stop someone who rewrites the file on purpose.
 */
export function crc32Of(text: string): string {
  return crc32(text).toString(16).padStart(8, "0");
}

/** Whether `text` matches a stored checksum, of either kind (the length says which); anything else does not. */
export function checksumMatches(text: string, checksum: unknown): boolean {
  if (typeof checksum !== "string") return false;
  if (checksum.length === 8) return crc32Of(text) === checksum;
  return checksum.length === 64 && checksumOf(text) === checksum;
}

/** What a backup would restore, for a corrupt row's advice: an SQLite file, or a PostgreSQL database (which has no file). */
export type BackupOf = "file" | "database";

/**
 * The checkpoint a row holds, after checking its checksum, its JSON and its shape; else `CHECKPOINT_CORRUPT`.
 * `file` names where the row is (a path, or a server and schema), `backup` what a backup restores.
 */
export function decodeRow(api: string, file: string, row: StoredRow, backup: BackupOf = "file"): Checkpoint {
  const corrupt = (problem: string, cause?: unknown) =>
    new PersistenceError(
      "CHECKPOINT_CORRUPT",
      `${api}: checkpoint ${quoted(row.id)} of thread ${quoted(row.thread_id)} in ${quoted(file)} is corrupt: ${problem}. ` +
        `It cannot be resumed. Restore the ${backup} from a backup${
          row.parent_id === null
            ? ", or start the thread again"
            : `, or read the checkpoint before it with getState(threadId, { checkpointId: ${quoted(row.parent_id)} }) and continue from its state on a new thread`
        }.`,
      { threadId: row.thread_id, checkpointId: row.id, ...(cause === undefined ? {} : { cause }) },
    );
  const { body } = row;
  if (typeof body !== "string") throw corrupt(`its stored body is ${body === null ? "NULL" : `not text (${typeof body})`}`);
  if (row.checksum !== null && !checksumMatches(body, row.checksum))
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

/** One stored pending write, as the read statements select it. */
export interface StoredWriteRow {
  readonly checkpoint_seq: number;
  readonly body: unknown;
  readonly checksum: unknown;
}

/** The pending writes stored rows hold, in task order, after checking each one's checksum and shape; else `CHECKPOINT_CORRUPT`. */
export function decodeWrites(
  api: string,
  file: string,
  checkpoint: Checkpoint,
  rows: readonly StoredWriteRow[],
  backup: BackupOf = "file",
): CheckpointWrite[] {
  return rows.map((row) => {
    const corrupt = (problem: string) =>
      new PersistenceError(
        "CHECKPOINT_CORRUPT",
        `${api}: a pending write of checkpoint ${quoted(checkpoint.id)} of thread ${quoted(checkpoint.threadId)} in ${quoted(file)} is corrupt: ${problem}. ` +
          `Resuming would lose or repeat a node's update. Restore the ${backup} from a backup, or resume from the checkpoint's state on a new thread.`,
        { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
      );
    if (typeof row.body !== "string") throw corrupt("its stored body is not text");
    if (!checksumMatches(row.body, row.checksum))
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
