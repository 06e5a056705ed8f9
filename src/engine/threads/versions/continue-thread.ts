/**
 * Where a resume, a fork, a new input or an `updateState` on a thread of an older version starts: the
 * checkpoint migrated (`migrate-checkpoint.ts`), written once as a new checkpoint of the thread (its
 * parent the one it migrates, which stays readable as history), so the run continues on this version
 * and a second resume migrates nothing. Refused migrations write nothing.
 */
import type { ExecutableGraph } from "../../executable.js";
import type { Checkpoint, Checkpointer } from "../../checkpointer.js";
import { snapshotOf } from "../thread-start.js";
import { versionOf } from "./graph-version.js";
import { migrateCheckpoint } from "./migrate-checkpoint.js";

/** The checkpoint a run continues from, and the thread's latest checkpoint id once it is stored. */
export interface ContinuedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly latestId: string | null;
}

/** `stored` as this graph's version: itself, or its migration saved after `latestId` (the thread's latest, the version check). */
export async function continueOnGraph(
  api: string,
  graph: ExecutableGraph,
  checkpointer: Checkpointer,
  stored: Checkpoint,
  latestId: string | null,
): Promise<ContinuedCheckpoint> {
  const migrated = migrateCheckpoint(api, graph, stored);
  return migrated === stored ? { checkpoint: stored, latestId } : saveMigrated(checkpointer, stored, migrated, latestId);
}

/** Saves `migrated` (the migration of `stored`) as a new checkpoint of the thread, after `latestId`. */
export async function saveMigrated(
  checkpointer: Checkpointer,
  stored: Checkpoint,
  migrated: Checkpoint,
  latestId: string | null,
): Promise<ContinuedCheckpoint> {
  const checkpoint = migratedCheckpoint(stored, migrated);
  await checkpointer.save(checkpoint, latestId);
  return { checkpoint, latestId: checkpoint.id };
}

/** `migrated` (the migration of `stored`) as the new checkpoint of the thread that continues `stored`, not yet saved. */
export function migratedCheckpoint(stored: Checkpoint, migrated: Checkpoint): Checkpoint {
  return {
    ...migrated,
    id: globalThis.crypto.randomUUID(),
    parentId: stored.id,
    step: stored.step + 1,
    createdAt: new Date().toISOString(),
    metadata: {
      source: "update",
      writes: [],
      ...(stored.metadata.user === undefined ? {} : { user: stored.metadata.user }),
      migratedFrom: versionOf(stored),
    },
  };
}

/**
 * A run recorded outside a checkpointer (a DBOS workflow's stop, written as a checkpoint) as this graph
 * continues it: migrated from its version (the same refusals as a thread's, `UNMAPPED_RESUME_POINT`…),
 * then checked against this graph's nodes and joins, which a checkpoint of this very version skips
 * (`INCOMPATIBLE_CHECKPOINT`). Writes nothing; a `Send`'s stored Command input stays stored.
 */
export function continuedCheckpoint(api: string, graph: ExecutableGraph, recorded: Checkpoint): Checkpoint {
  const migrated = migrateCheckpoint(api, graph, recorded);
  snapshotOf(api, graph, migrated);
  return migrated;
}
