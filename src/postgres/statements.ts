/**
 * The SQL of a `PostgresCheckpointer`, one text per statement and shape: a save is one statement that
 * moves the thread's head from the checkpoint the run expects and inserts the new one (and its pending
 * writes, when it has some), so the version check and the insert commit together or not at all.
 */
import type { CheckpointWrite } from "../engine/index.js";
import { checksumOf, type StoredRow } from "../persistence/sqlite/body.js";
import { quoteIdentifier } from "./schema.js";

/** The statements of one schema, as text (`pg` prepares a named statement once per connection). */
export interface Statements {
  /** By whether the thread has a checkpoint yet, then by whether the save carries pending writes. */
  readonly save: Readonly<Record<"first" | "next", Readonly<Record<"writes" | "bare", string>>>>;
  /** The same for `saveMany`: several checkpoints as arrays, in one statement. */
  readonly saveMany: Readonly<Record<"first" | "next", Readonly<Record<"writes" | "bare", string>>>>;
  readonly putWrites: string;
  readonly latestId: string;
  readonly latest: string;
  readonly get: string;
  readonly list: string;
  readonly deleteThread: string;
  readonly threads: string;
  readonly ages: string;
  readonly remove: string;
}

/** The statements for the tables in `schema`. */
export function statementsFor(schema: string): Statements {
  const s = quoteIdentifier(schema);
  // A checkpoint row, with its pending writes' bodies and checksums in task order (one round trip for both).
  const row = `seq::float8 AS seq, thread_id, id, parent_id, body, checksum,
    array(SELECT w.body FROM ${s}.tsg_writes w WHERE w.checkpoint_seq = c.seq ORDER BY w.task) AS write_bodies,
    array(SELECT w.checksum FROM ${s}.tsg_writes w WHERE w.checkpoint_seq = c.seq ORDER BY w.task) AS write_checksums`;
  // Writes come as three parallel arrays ($9 tasks, $10 bodies, $11 checksums; empty for none); a task that has a write keeps it.
  const writes = (target: string) => `INSERT INTO ${s}.tsg_writes (checkpoint_seq, task, thread_id, body, checksum)
    SELECT ${target}.seq, x.task, $1, x.body, x.checksum FROM ${target}, unnest($9::integer[], $10::text[], $11::text[]) AS x(task, body, checksum)
    ON CONFLICT (checkpoint_seq, task) DO NOTHING`;
  // Without pending writes (almost every save) the writes' insert is left out: even inserting no row,
  // it opens tsg_writes and its indexes, about a third of the statement's time.
  const insert = (head: string, withWrites: boolean) => `WITH head AS (${head}),
    saved AS (INSERT INTO ${s}.tsg_checkpoints (thread_id, id, parent_id, step, created_at, body, checksum)
      SELECT $1::text, $2::text, $3::text, $4::integer, $5::text, $6::text, $7::text FROM head RETURNING seq)${
        withWrites ? `,\n    kept AS (${writes("saved")})` : ""
      }
    SELECT seq FROM saved`;
  // A thread's first checkpoint: the head row must not exist yet (a racing first save waits on the key, then finds it).
  const first = `INSERT INTO ${s}.tsg_threads (thread_id, latest_id) SELECT $1, $2 WHERE $8::text IS NULL ON CONFLICT (thread_id) DO NOTHING RETURNING 1`;
  // Later ones: the head must still name the expected checkpoint. A racing save waits on the row
  // lock, then re-reads the row (READ COMMITTED), finds the winner's id and updates nothing.
  const next = `UPDATE ${s}.tsg_threads SET latest_id = $2 WHERE thread_id = $1 AND latest_id = $8 RETURNING 1`;
  // Several checkpoints: $2 the last one's id (the new head), $3–$7 and $9 arrays in chain order, the
  // identity assigned in that order (ORDER BY ordinality); writes as four arrays, $10 naming each one's checkpoint.
  const insertMany = (head: string, withWrites: boolean) => `WITH head AS (${head}),
    saved AS (INSERT INTO ${s}.tsg_checkpoints (thread_id, id, parent_id, step, created_at, body, checksum)
      SELECT $1::text, x.id, x.parent_id, x.step, x.created_at, x.body, x.checksum
      FROM head, unnest($3::text[], $4::text[], $5::integer[], $6::text[], $7::text[], $9::text[])
        WITH ORDINALITY AS x(id, parent_id, step, created_at, body, checksum, n)
      ORDER BY x.n RETURNING seq, id)${
        withWrites
          ? `,
    kept AS (INSERT INTO ${s}.tsg_writes (checkpoint_seq, task, thread_id, body, checksum)
      SELECT saved.seq, w.task, $1, w.body, w.checksum
      FROM saved JOIN unnest($10::text[], $11::integer[], $12::text[], $13::text[]) AS w(id, task, body, checksum) ON w.id = saved.id
      ON CONFLICT (checkpoint_seq, task) DO NOTHING)`
          : ""
      }
    SELECT count(*)::integer AS n FROM saved`;
  return {
    save: {
      first: { writes: insert(first, true), bare: insert(first, false) },
      next: { writes: insert(next, true), bare: insert(next, false) },
    },
    saveMany: {
      first: { writes: insertMany(first, true), bare: insertMany(first, false) },
      next: { writes: insertMany(next, true), bare: insertMany(next, false) },
    },
    putWrites: `WITH target AS (SELECT seq FROM ${s}.tsg_checkpoints WHERE thread_id = $1 AND id = $2 ORDER BY seq DESC LIMIT 1),
      kept AS (${writes("target").replaceAll("$9", "$3").replaceAll("$10", "$4").replaceAll("$11", "$5")})
      SELECT seq FROM target`,
    latestId: `SELECT latest_id FROM ${s}.tsg_threads WHERE thread_id = $1`,
    latest: `SELECT ${row} FROM ${s}.tsg_checkpoints c WHERE thread_id = $1 ORDER BY seq DESC LIMIT 1`,
    get: `SELECT ${row} FROM ${s}.tsg_checkpoints c WHERE thread_id = $1 AND id = $2 ORDER BY seq DESC LIMIT 1`,
    list: `SELECT ${row} FROM ${s}.tsg_checkpoints c WHERE thread_id = $1 ORDER BY seq DESC LIMIT $2`,
    // The thread, and its subgraphs' threads (`thread␟namespace`, U+001F being the separator).
    deleteThread: `WITH head AS (DELETE FROM ${s}.tsg_threads WHERE thread_id = $1 OR starts_with(thread_id, $1 || chr(31))),
      kept AS (DELETE FROM ${s}.tsg_writes WHERE thread_id = $1 OR starts_with(thread_id, $1 || chr(31)))
      DELETE FROM ${s}.tsg_checkpoints WHERE thread_id = $1 OR starts_with(thread_id, $1 || chr(31))`,
    threads: `SELECT DISTINCT thread_id FROM ${s}.tsg_checkpoints`,
    ages: `SELECT seq::float8 AS seq, created_at FROM ${s}.tsg_checkpoints WHERE thread_id = $1 ORDER BY seq`,
    // One statement, so a prune removes a checkpoint and its pending writes together or not at all. Rows
    // hold whole checkpoints, so removing one never changes how a kept one reads.
    remove: `WITH kept AS (DELETE FROM ${s}.tsg_writes WHERE thread_id = $1 AND checkpoint_seq = ANY($2::bigint[]))
      DELETE FROM ${s}.tsg_checkpoints WHERE thread_id = $1 AND seq = ANY($2::bigint[])`,
  };
}

/** A checkpoint row as the read statements select it. */
export interface Row extends StoredRow {
  readonly write_bodies: unknown[];
  readonly write_checksums: unknown[];
}

/** Writes as the statements take them: three parallel arrays. */
export function writeArrays(writes: readonly CheckpointWrite[]): [number[], string[], string[]] {
  const bodies = writes.map(({ task, node, update }) => JSON.stringify({ task, node, update }));
  return [writes.map((write) => write.task), bodies, bodies.map(checksumOf)];
}
