/**
 * Writing checkpoints: one at a time as an autocommit INSERT whose version check is inside the statement
 * (every save of a sync run), or as one IMMEDIATE transaction (a batch, pending writes) whose first INSERT
 * carries the same check; a fork, or a thread another writer moved, is read and checked first. Either way
 * the check and the inserts are one atomic step, across processes too.
 */
import type { Checkpoint, CheckpointWrite } from "../../engine/index.js";
import { CheckpointConflictError, PersistenceError } from "../../engine/index.js";
import { deltaOf, type TraceAndRoutes } from "../trace-delta.js";
import { crc32Of } from "./body.js";
import { type ChainRow, chainRows, linksOf, listsOf } from "./chain.js";
import type { SqliteConnection } from "./driver.js";
import { isNotNullFault } from "./faults.js";
import type { RecentLists } from "./recent.js";
import { insertedRowid, rowOf, type Statements, type WriteStatements } from "./statements.js";
import { immediate } from "./transaction.js";
import { takenRowid } from "./verify.js";

/** A checkpoint to save, its pending writes apart, and its body (all but those, the trace and the routes) as JSON. */
export interface SaveRow {
  readonly checkpoint: Checkpoint;
  readonly pendingWrites: readonly CheckpointWrite[] | undefined;
  readonly body: string;
}

/** What a save works with: the open file, its statements (writable), and the lists at hand. */
export interface SaveContext {
  readonly connection: SqliteConnection;
  readonly file: string;
  readonly statements: Statements;
  readonly writes: WriteStatements;
  readonly recent: RecentLists;
}

/**
 * Saves `rows` (one thread's chain, each continuing the one before) after `expectedLatestId`; returns
 * the last one's row. `damaged` makes the error for a row whose place is held already (verify.ts).
 */
export function saveRows(
  context: SaveContext,
  rows: readonly SaveRow[],
  expectedLatestId: string | null,
  damaged: (problem: string) => PersistenceError,
): { seq: number; id: string } {
  return (
    (rows.length === 1 ? insertAlone(context, rows[0] as SaveRow, expectedLatestId) : undefined) ??
    saveInTransaction(context, rows, expectedLatestId, damaged)
  );
}

/**
 * The save as one IMMEDIATE transaction: the first row through the insert whose version check is inside
 * it (as {@link insertAlone}), then the others; when that insert does not apply or refuses, the thread's
 * latest checkpoint is read and checked first. `damaged` when a row's place is held already, and nothing is kept.
 */
function saveInTransaction(
  context: SaveContext,
  rows: readonly SaveRow[],
  expectedLatestId: string | null,
  damaged: (problem: string) => PersistenceError,
): { seq: number; id: string } {
  const { connection, statements, writes } = context;
  const first = rows[0] as SaveRow;
  const threadId = first.checkpoint.threadId;
  // IMMEDIATE takes the write lock before the first statement, so the check and every insert are one step.
  return immediate(connection, () => {
    // A batch continuing the checkpoint the store saw last (every async run's): no read before the inserts.
    const checked = insertChecked(context, first, expectedLatestId);
    if (checked !== undefined) {
      insertWrites(writes, threadId, checked.seq, first.pendingWrites ?? []);
      return insertChain(context, rows.slice(1), checked, first.checkpoint, damaged);
    }
    // A fork, a thread another writer moved, or a damaged file: read, check, then plain inserts. A refused
    // insert left the transaction open and wrote nothing.
    const current = statements.latestId.get(threadId);
    const currentId = current?.id ?? null;
    if (currentId !== expectedLatestId) throw new CheckpointConflictError(threadId, expectedLatestId, currentId);
    return insertChain(context, rows, current === undefined ? undefined : { seq: current.seq, id: current.id }, undefined, damaged);
  });
}

/**
 * Inserts `rows` (each continuing the one before) after `head`, the row the first continues when it is
 * the thread's latest, whose lists are `headLists` when at hand; inside the save's transaction.
 */
function insertChain(
  context: SaveContext,
  rows: readonly SaveRow[],
  head: { seq: number; id: string } | undefined,
  headLists: TraceAndRoutes | undefined,
  damaged: (problem: string) => PersistenceError,
): { seq: number; id: string } {
  const { connection, writes } = context;
  let lists = headLists;
  for (const { checkpoint, pendingWrites, body } of rows) {
    // Only what the superstep added to the parent's trace and routes is written (trace-delta.ts). The parent is almost always the latest.
    const { threadId, parentId } = checkpoint;
    const parent = parentId === null ? undefined : parentId === head?.id ? head.seq : writes.seqOf.get(threadId, parentId)?.seq;
    // Within a batch, each checkpoint's parent is the one just inserted, whose lists are at hand.
    const parentLists =
      parent === undefined
        ? undefined
        : lists !== undefined && parentId === head?.id
          ? lists
          : listsOfParent(context, threadId, parent, parentId as string);
    const delta = JSON.stringify(deltaOf(parent ?? null, parentLists, checkpoint));
    let inserted: unknown;
    try {
      inserted = writes.insert.run(...rowOf(checkpoint, body, delta));
    } catch (error) {
      throw isNotNullFault(error) ? damaged(takenRowid(connection)) : error;
    }
    const seq = insertedRowid(inserted) ?? writes.lastSeq.get()?.seq ?? -1;
    insertWrites(writes, threadId, seq, pendingWrites ?? []);
    head = { seq, id: checkpoint.id };
    lists = checkpoint;
  }
  return head as { seq: number; id: string };
}

/**
 * A save of one checkpoint without pending writes that starts a new thread, or continues the checkpoint
 * the store saved or read last (every save of a run after its first), as one autocommit INSERT whose
 * version check is inside the statement: SQLite takes the write lock when the statement starts, as
 * `BEGIN IMMEDIATE` does, so no BEGIN, read or COMMIT is called (a fifth less time a save, median, in
 * docs/benchmarks.md). `undefined` when it does not apply, or when the thread is not where the store
 * last saw it (or the row's place is held: a damaged file): then the transaction reads it and decides.
 */
function insertAlone(context: SaveContext, row: SaveRow, expectedLatestId: string | null): { seq: number; id: string } | undefined {
  if (row.pendingWrites !== undefined && row.pendingWrites.length > 0) return undefined;
  return insertChecked(context, row, expectedLatestId);
}

/**
 * Inserts `row` with the version check inside the INSERT, when the row starts a new thread or continues
 * the checkpoint the store saw last; its pending writes are the caller's. `undefined` when that does not
 * apply, or the INSERT refused (the thread moved, or the row's place is held): nothing was written.
 */
function insertChecked(
  { writes, recent: recentLists }: SaveContext,
  { checkpoint, body }: SaveRow,
  expectedLatestId: string | null,
): { seq: number; id: string } | undefined {
  const { threadId, parentId } = checkpoint;
  const recent = expectedLatestId === null ? undefined : recentLists.get(threadId);
  if (expectedLatestId === null ? parentId !== null : recent?.id !== expectedLatestId || parentId !== expectedLatestId) return undefined;
  const delta = JSON.stringify(deltaOf(recent?.seq ?? null, recent?.lists, checkpoint));
  const row = rowOf(checkpoint, body, delta);
  let result: unknown;
  try {
    result =
      recent === undefined ? writes.insertFirst.run(threadId, ...row) : writes.insertNext.run(recent.seq, recent.id, threadId, ...row);
  } catch (error) {
    if (isNotNullFault(error)) return undefined;
    throw error;
  }
  return { seq: insertedRowid(result) ?? writes.lastSeq.get()?.seq ?? -1, id: checkpoint.id };
}

/** Inserts writes for the checkpoint row `seq`; a task that has one keeps it (INSERT OR IGNORE). Inside a transaction. */
export function insertWrites(writes: WriteStatements, threadId: string, seq: number, pendingWrites: readonly CheckpointWrite[]): void {
  for (const { task, node, update } of pendingWrites) {
    const body = JSON.stringify({ task, node, update });
    writes.insertWrite.run(seq, task, threadId, body, crc32Of(body));
  }
}

/**
 * The lists of the parent row a new checkpoint continues (inside the save's transaction). A parent
 * whose chain cannot be read (damaged) is not shared: the new checkpoint then stores its whole lists,
 * so a damaged old row never stops a run from saving.
 */
function listsOfParent({ statements, file, recent: recentLists }: SaveContext, threadId: string, seq: number, id: string) {
  const recent = recentLists.get(threadId);
  if (recent !== undefined && recent.seq === seq && recent.id === id) return recent.lists;
  const api = "SqliteCheckpointer.save";
  try {
    const rows = chainRows(statements.chain, threadId, seq + 1);
    const bySeq = new Map<number, ChainRow>(rows.map((r) => [r.seq, r]));
    return listsOf(api, file, seq, bySeq, (r) => linksOf(api, file, r));
  } catch (error) {
    if (error instanceof PersistenceError && error.code === "CHECKPOINT_CORRUPT") return undefined;
    throw error;
  }
}
