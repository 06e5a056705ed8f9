/**
 * Retention in the SQLite file: `prune` removes old checkpoints, inside the caller's IMMEDIATE
 * transaction. A kept checkpoint whose delta continues a removed one is rewritten first with its whole
 * lists (a new root), so every kept checkpoint reads exactly as before.
 */
import { keptByPrune, type PruneRequest } from "../store-checks.js";
import { crc32Of } from "./body.js";
import { type ChainRow, type Links, linksOf, listsOf } from "./chain.js";
import type { SqliteConnection } from "./driver.js";

/** Prunes the request's thread (or every thread) as `keptByPrune` says; returns how many checkpoints it removed. */
export function pruneThreads(connection: SqliteConnection, api: string, file: string, request: PruneRequest): number {
  const threads =
    request.threadId === undefined
      ? connection
          .prepare<[], { thread_id: string }>("SELECT DISTINCT thread_id FROM tsg_checkpoints")
          .all()
          .map((row) => row.thread_id)
      : [request.threadId];
  const rowsOf = connection.prepare<[string], ChainRow & { created_at: string }>(
    `SELECT seq, thread_id, id, parent_id, CASE WHEN delta IS NULL THEN body END AS body, checksum, delta, delta_checksum, created_at
       FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq`,
  );
  const rebase = connection.prepare<[string, string, number]>("UPDATE tsg_checkpoints SET delta = ?, delta_checksum = ? WHERE seq = ?");
  const removeWrites = connection.prepare<[number]>("DELETE FROM tsg_writes WHERE checkpoint_seq = ?");
  const remove = connection.prepare<[number]>("DELETE FROM tsg_checkpoints WHERE seq = ?");
  let removed = 0;
  for (const threadId of threads) {
    const rows = rowsOf.all(threadId);
    const kept = keptByPrune(
      rows.map((row) => row.created_at),
      request,
    );
    if (kept.size === rows.length) continue;
    const bySeq = new Map<number, ChainRow>(rows.map((row) => [row.seq, row]));
    const links = new Map<number, Links>();
    const linkOf = (row: ChainRow) => {
      const known = links.get(row.seq);
      if (known !== undefined) return known;
      const link = linksOf(api, file, row);
      links.set(row.seq, link);
      return link;
    };
    const keptSeqs = new Set(rows.filter((_, index) => kept.has(index)).map((row) => row.seq));
    // Rebase first, while every parent is still there: a damaged chain fails here, and nothing is removed.
    for (const row of rows) {
      if (!keptSeqs.has(row.seq)) continue;
      const link = linkOf(row);
      if (link.kind === "whole" || link.delta.parent === null || keptSeqs.has(link.delta.parent)) continue;
      const { trace, routes } = listsOf(api, file, row.seq, bySeq, linkOf);
      const delta = JSON.stringify({ parent: null, trace: [0, trace], routes: [0, routes] });
      rebase.run(delta, crc32Of(delta), row.seq);
    }
    for (const row of rows) {
      if (keptSeqs.has(row.seq)) continue;
      removeWrites.run(row.seq);
      remove.run(row.seq);
      removed += 1;
    }
  }
  return removed;
}
