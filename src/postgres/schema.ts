/**
 * The tables in the user's schema, the migrations between their versions, and the version check.
 * The schema records each migration it went through in `tsg_migrations`; `connect` applies the
 * missing ones in one transaction under an advisory lock (so two processes starting at once do not
 * both migrate), and refuses a schema a newer version of the library migrated further.
 * Nothing here needs a superuser: CREATE on the database (or on an existing schema) is enough.
 */
import { PersistenceError } from "../engine/index.js";
import type { PostgresPoolClient } from "./pool.js";

/**
 * The schema version this code reads and writes. Older schemas are migrated on connect; newer ones are refused.
 *
 * A change to what a stored checkpoint or pending write may hold is a change of schema, even when no
 * table changes: an older typed-state-graph would silently drop or misread it, so the number goes up and
 * that release refuses the schema (`SCHEMA_VERSION`). The stored shapes each version introduced:
 * - 2: the body's `graph` stamp, `{ version, specHash }`.
 * - 3: the body's `deferred`, the tasks of deferred nodes waiting (`Checkpoint.deferred`); and a failed
 *   task's reserved pending write, `{ task, node, update: { __tsg_error__: { name, code?, message } } }`
 *   (pending-writes.ts `failureWrite`), which schema 2 would have merged as the task's update.
 *   A kept pending write may also hold, in its update: a list of Commands' parts, `{ __updates__: [update, …] }`
 *   (command-list.ts, when two of the Commands wrote one field), and an error handler's mark `__handled__`
 *   (command-goto.ts `HANDLED`: the task's failure was handled, only the handler's goto follows); a pending
 *   Send's input may be a Command, stored as `{ __tsg_command__: { update?, goto? } }` (send-command.ts).
 *   A release before this one would have merged each of them as a field, or handed the node a plain object.
 *   Add here any other shape written from schema 3 on.
 * SQLite keeps the same list beside `SQLITE_SCHEMA_VERSION` (src/persistence/sqlite/schema.ts: its 7 and 8).
 */
export const POSTGRES_SCHEMA_VERSION = 3;

/** `"tsg"`: the schema the checkpointer uses unless told otherwise. */
export const DEFAULT_POSTGRES_SCHEMA = "tsg";

/** Each migration takes the schema from version `index` to `index + 1`; `s` is the quoted schema name. */
const MIGRATIONS: readonly ((s: string) => string)[] = [
  // One row per checkpoint, the whole checkpoint as JSON text with its SHA-256 (the format SQLite
  // stores too). One row per thread names its latest checkpoint: a save updates it only if it still
  // names the checkpoint the run expects, in the statement that inserts the new one, so of two
  // writers racing on one thread exactly one commits. Text, not jsonb: it is stored and read whole,
  // never queried inside, and the checksum covers the exact bytes.
  (s) => `
    CREATE TABLE ${s}.tsg_checkpoints (
      seq        bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- write order within a thread
      thread_id  text    NOT NULL,
      id         text    NOT NULL,
      parent_id  text,
      step       integer NOT NULL,
      created_at text    NOT NULL,
      body       text    NOT NULL,
      checksum   text    NOT NULL
    );
    CREATE INDEX tsg_checkpoints_thread ON ${s}.tsg_checkpoints (thread_id, seq);
    CREATE INDEX tsg_checkpoints_id ON ${s}.tsg_checkpoints (thread_id, id);
    CREATE TABLE ${s}.tsg_threads (
      thread_id  text PRIMARY KEY,
      latest_id  text NOT NULL
    );
    -- Pending writes: one row per task of a superstep that has not committed, keyed by the checkpoint
    -- row it starts from (its seq: an id may come back after deleteThread); the first write of a task wins.
    CREATE TABLE ${s}.tsg_writes (
      checkpoint_seq bigint  NOT NULL,
      task           integer NOT NULL,  -- the task's position in that checkpoint's tasks
      thread_id      text    NOT NULL,
      body           text    NOT NULL,  -- the write { task, node, update } as JSON
      checksum       text    NOT NULL,
      PRIMARY KEY (checkpoint_seq, task)
    );
    CREATE INDEX tsg_writes_thread ON ${s}.tsg_writes (thread_id);`,
  // Version 2: checkpoints record the version and spec hash of the graph that wrote them (the body's
  // `graph` member; a row written before counts as version 1). No table changes; the version is what
  // keeps an older typed-state-graph, which knows no graph versions, from resuming a newer graph's
  // checkpoint with an older graph: it refuses the schema as newer instead.
  () => "SELECT 1",
  // Version 3: new stored shapes (listed at POSTGRES_SCHEMA_VERSION), no table changes: rows written
  // before hold none of them and read as they did. The number keeps schema 2's release, which would drop
  // a checkpoint's waiting deferred tasks and merge a failure's write, from reading the schema.
  () => "SELECT 1",
];

/** A schema name as SQL: double-quoted, so the name is taken as written. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Locks out other migrators of the same schema until the transaction ends. */
const LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('typed-state-graph:' || $1, 0))";

/**
 * Brings `schema` to {@link POSTGRES_SCHEMA_VERSION} (creating it when it does not exist), or throws
 * `SCHEMA_VERSION` for a schema this code cannot use. `where` names the server for messages.
 */
export async function migrate(client: PostgresPoolClient, schema: string, where: string): Promise<number> {
  const s = quoteIdentifier(schema);
  await client.query({ text: "BEGIN" });
  try {
    await client.query({ text: LOCK, values: [schema] });
    const exists = await client.query<{ n: number }>({ text: "SELECT 1 AS n FROM pg_namespace WHERE nspname = $1", values: [schema] });
    // Only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema exists.
    if (exists.rows.length === 0) await client.query({ text: `CREATE SCHEMA ${s}` });
    const tables = await client.query<{ migrations: boolean; checkpoints: boolean }>({
      text: "SELECT to_regclass($1) IS NOT NULL AS migrations, to_regclass($2) IS NOT NULL AS checkpoints",
      values: [`${s}.tsg_migrations`, `${s}.tsg_checkpoints`],
    });
    const found = tables.rows[0];
    if (found?.migrations !== true) {
      if (found?.checkpoints === true) {
        throw new PersistenceError(
          "SCHEMA_VERSION",
          `PostgresCheckpointer.connect: schema ${quoteIdentifier(schema)} on ${where} has a tsg_checkpoints table but no tsg_migrations ` +
            `table, so its version is unknown: it was not made by typed-state-graph, or it is damaged. Use another schema.`,
        );
      }
      // Created only when missing, as the schema: a role that may only use an existing schema never needs CREATE.
      await client.query({
        text: `CREATE TABLE ${s}.tsg_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      });
    }
    const applied = await client.query<{ version: number | null }>({ text: `SELECT max(version) AS version FROM ${s}.tsg_migrations` });
    const version = applied.rows[0]?.version ?? 0;
    if (version > POSTGRES_SCHEMA_VERSION) {
      throw new PersistenceError(
        "SCHEMA_VERSION",
        `PostgresCheckpointer.connect: schema ${quoteIdentifier(schema)} on ${where} has schema version ${version}, migrated by a newer ` +
          `typed-state-graph; this one reads versions up to ${POSTGRES_SCHEMA_VERSION}. Upgrade typed-state-graph, or use another schema.`,
      );
    }
    for (let next = version; next < POSTGRES_SCHEMA_VERSION; next++) {
      await client.query({ text: MIGRATIONS[next]?.(s) ?? "" });
      await client.query({ text: `INSERT INTO ${s}.tsg_migrations (version) VALUES ($1)`, values: [next + 1] });
    }
    await client.query({ text: "COMMIT" });
    return POSTGRES_SCHEMA_VERSION;
  } catch (error) {
    await client.query({ text: "ROLLBACK" }).catch(() => undefined);
    throw error;
  }
}
