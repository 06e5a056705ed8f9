/**
 * `PostgresCheckpointer`: checkpoints in PostgreSQL, for runs spread over processes and machines.
 * One statement per save: it moves the thread's head from the checkpoint the run expects to the new
 * one and inserts the new one, so the version check and the insert commit together or not at all,
 * and of two processes advancing one thread, exactly one commits its superstep.
 */
import type { Checkpoint, Checkpointer, CheckpointWrite, ListOptions, PruneOptions, PruneResult } from "../engine/index.js";
import { CheckpointConflictError, PersistenceError } from "../engine/index.js";
import { checkListOptions } from "../engine/store-rules.js";
import { checkPrune, checkSaveChain, checkWrites, keptByPrune, writesTargetMissing } from "../persistence/store-checks.js";
import { checkCheckpointId, checkSavedIds, checkThreadId } from "../persistence/ids.js";
import { checksumOf, decodeRow, decodeWrites } from "../persistence/sqlite/body.js";
import { reasonOf } from "../persistence/sqlite/faults.js";
import { whereTheRunStood } from "../persistence/save-failure.js";
import { describeTarget, faultOf, postgresError } from "./faults.js";
import { newPool } from "./load.js";
import { ThreadLeases } from "./leases.js";
import type { PostgresPool, PostgresQuery } from "./pool.js";
import { checkOptions, isConnectionString, type PostgresCheckpointerOptions } from "./options.js";
import { migrate } from "./schema.js";
import { listThreadsSql } from "./list-threads.js";
import { type Row, type Statements, statementsFor, writeArrays } from "./statements.js";

export type { PostgresCheckpointerOptions } from "./options.js";

/**
 * A {@link Checkpointer} in PostgreSQL (on the `pg` driver, 8.x). Many processes may share it: each
 * save commits only if the thread's latest checkpoint is still the one the run read, checked in the
 * statement that inserts, so two writers on one thread cannot both commit a superstep; the loser
 * gets `CheckpointConflictError`. The tables live in a schema of your choice, created and migrated on
 * connect (a `tsg_migrations` table records the version); no superuser needed. Every failure is a
 * coded `PersistenceError`: `OPEN_FAILED` when the server cannot be reached, `CONNECTION_LOST` when it
 * goes away mid-run (carrying the run's state and trace), `SCHEMA_VERSION` for a newer schema.
 *
 * @example
 * ```ts
 * const checkpointer = await PostgresCheckpointer.connect(process.env.DATABASE_URL ?? "postgres://localhost/app", { schema: "tsg" });
 * await graph.invoke(input, { threadId: "order-42", checkpointer });
 * await checkpointer.close();
 * ```
 */
export class PostgresCheckpointer implements Checkpointer {
  /** The schema the tables are in. */
  readonly schema: string;
  /** Where the checkpoints are, for messages: `user@host:port/database (schema tsg)`; no password. */
  readonly location: string;
  readonly #pool: PostgresPool;
  readonly #ownsPool: boolean;
  /** A thread's statements reuse one pooled connection while they follow each other without a pause (leases.ts). */
  readonly #leases: ThreadLeases;
  readonly #sql: Statements;
  readonly #names: string;
  #closed = false;

  private constructor(pool: PostgresPool, ownsPool: boolean, schema: string, location: string) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#leases = new ThreadLeases(pool);
    this.schema = schema;
    this.location = location;
    this.#sql = statementsFor(schema);
    this.#names = `tsg:${schema}`;
  }

  /**
   * Connects to PostgreSQL (a connection string, or a `pg.Pool` of yours, which `close` leaves open)
   * and brings the schema to this version's tables. Throws `OPEN_FAILED` when the server cannot be
   * reached or refuses the login, `SCHEMA_VERSION` when a newer typed-state-graph migrated the schema.
   *
   * @example
   * ```ts
   * const checkpointer = await PostgresCheckpointer.connect("postgres://app:secret@db.internal:5432/app", { schema: "agents" });
   * ```
   */
  static async connect(target: string | PostgresPool, options: PostgresCheckpointerOptions = {}): Promise<PostgresCheckpointer> {
    const schema = checkOptions(target, options);
    const server = typeof target === "string" ? describeTarget(target) : "the pool's server";
    const location = `${server} (schema ${schema})`;
    const failed = (error: unknown, what: string) => {
      if (error instanceof PersistenceError) return error;
      const { code, advice } = faultOf(error, location, true);
      return new PersistenceError(code, `PostgresCheckpointer.connect: ${what} failed: ${advice} (${reasonOf(error)}).`, { cause: error });
    };
    if (typeof target === "string" && !isConnectionString(target)) {
      throw new PersistenceError(
        "OPEN_FAILED",
        "PostgresCheckpointer.connect: the connection string is not a PostgreSQL URL; write it as postgres://user:password@host:5432/database.",
      );
    }
    const pool =
      typeof target === "string"
        ? await newPool({
            connectionString: target,
            max: options.maxConnections ?? 10,
            connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
          })
        : target;
    const owned = typeof target === "string";
    // An idle pooled connection that dies (a server restart) emits "error" on the pool; unheard, Node
    // would crash the process. The next query on the pool reports it, coded, where the caller awaits.
    if (owned) pool.on("error", () => undefined);
    try {
      const client = await pool.connect().catch((error: unknown) => {
        throw failed(error, "connecting");
      });
      try {
        await migrate(client, schema, location);
        client.release();
      } catch (error) {
        client.release(true);
        throw failed(error, "creating or migrating the schema");
      }
    } catch (error) {
      if (owned) await pool.end().catch(() => undefined);
      throw error;
    }
    return new PostgresCheckpointer(pool, owned, schema, location);
  }

  async save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void> {
    this.#usable("save");
    checkSavedIds("PostgresCheckpointer.save", checkpoint);
    const { pendingWrites, ...stored } = checkpoint;
    const writes = writeArrays(pendingWrites === undefined ? [] : checkWrites("PostgresCheckpointer.save", pendingWrites));
    const body = JSON.stringify(stored);
    const kept = writes[0].length > 0;
    const values: unknown[] = [
      checkpoint.threadId,
      checkpoint.id,
      checkpoint.parentId,
      checkpoint.step,
      checkpoint.createdAt,
      body,
      checksumOf(body),
      expectedLatestId,
    ];
    if (kept) values.push(...writes);
    await this.#saveChain("save", [checkpoint], expectedLatestId, kept, values);
  }

  /**
   * Stores several checkpoints of one thread, each continuing the one before it, in one statement (one
   * round trip): all of them or none. What a run with `durability: "async"` uses; the version check is `save`'s.
   *
   * @example
   * ```ts
   * await checkpointer.saveMany([first, second], null); // second.parentId === first.id
   * ```
   */
  async saveMany(checkpoints: readonly Checkpoint[], expectedLatestId: string | null): Promise<void> {
    this.#usable("saveMany");
    const chain = checkSaveChain("PostgresCheckpointer.saveMany", checkpoints);
    for (const checkpoint of chain) checkSavedIds("PostgresCheckpointer.saveMany", checkpoint);
    const columns = {
      ids: [] as string[],
      parents: [] as (string | null)[],
      steps: [] as number[],
      times: [] as string[],
      bodies: [] as string[],
      sums: [] as string[],
    };
    const writes = { ids: [] as string[], tasks: [] as number[], bodies: [] as string[], sums: [] as string[] };
    for (const checkpoint of chain) {
      const { pendingWrites, ...stored } = checkpoint;
      const body = JSON.stringify(stored);
      columns.ids.push(checkpoint.id);
      columns.parents.push(checkpoint.parentId);
      columns.steps.push(checkpoint.step);
      columns.times.push(checkpoint.createdAt);
      columns.bodies.push(body);
      columns.sums.push(checksumOf(body));
      if (pendingWrites === undefined) continue;
      const [tasks, writeBodies, writeSums] = writeArrays(checkWrites("PostgresCheckpointer.saveMany", pendingWrites));
      for (const [index, task] of tasks.entries()) {
        writes.ids.push(checkpoint.id);
        writes.tasks.push(task);
        writes.bodies.push(writeBodies[index] as string);
        writes.sums.push(writeSums[index] as string);
      }
    }
    const last = chain.at(-1) as Checkpoint;
    const kept = writes.ids.length > 0;
    const values: unknown[] = [
      last.threadId,
      last.id,
      columns.ids,
      columns.parents,
      columns.steps,
      columns.times,
      columns.bodies,
      expectedLatestId,
      columns.sums,
    ];
    if (kept) values.push(writes.ids, writes.tasks, writes.bodies, writes.sums);
    await this.#saveChain("saveMany", chain, expectedLatestId, kept, values);
  }

  /** Runs a save statement (one checkpoint or several); a head that moved is `CheckpointConflictError`. */
  async #saveChain(
    method: "save" | "saveMany",
    checkpoints: readonly Checkpoint[],
    expectedLatestId: string | null,
    kept: boolean,
    values: readonly unknown[],
  ): Promise<void> {
    const last = checkpoints.at(-1) as Checkpoint;
    const { threadId } = last;
    const head = expectedLatestId === null ? "first" : "next";
    const shape = kept ? "writes" : "bare";
    let inserted: number;
    try {
      const result = await this.#leases.query<{ seq?: unknown; n?: number }>(threadId, {
        name: `${this.#names}:${method}:${head}:${shape}`,
        text: this.#sql[method][head][shape],
        values,
      });
      inserted = method === "save" ? result.rows.length : (result.rows[0]?.n ?? 0);
    } catch (error) {
      const { code, advice } = faultOf(error, this.location, false);
      const unsure =
        code === "CONNECTION_LOST"
          ? " If the connection broke while the commit was on its way, the checkpoint may have been saved after all; either way a resume reads the thread's latest checkpoint."
          : "";
      const others = checkpoints.length > 1 ? ` (nor the ${checkpoints.length - 1} checkpoints before it, saved with it)` : "";
      throw new PersistenceError(
        code,
        `PostgresCheckpointer.${method}: ${advice} (${reasonOf(error)}): ${whereTheRunStood(last, expectedLatestId)}${others}${unsure}`,
        {
          cause: error,
          threadId,
          ...(expectedLatestId === null ? {} : { checkpointId: expectedLatestId }),
          state: last.state,
          trace: last.trace,
        },
      );
    }
    if (inserted === checkpoints.length) return;
    const current = await this.#query<{ latest_id: string }>(method, "reading the thread's latest checkpoint", threadId, {
      name: `${this.#names}:latestId`,
      text: this.#sql.latestId,
      values: [threadId],
    });
    throw new CheckpointConflictError(threadId, expectedLatestId, current[0]?.latest_id ?? null);
  }

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    checkThreadId("PostgresCheckpointer.latest", threadId);
    const [row] = await this.#rows("latest", threadId, { name: `${this.#names}:latest`, text: this.#sql.latest, values: [threadId] });
    return row === undefined ? undefined : this.#decode("PostgresCheckpointer.latest", row);
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    checkThreadId("PostgresCheckpointer.get", threadId);
    checkCheckpointId("PostgresCheckpointer.get", id);
    const [row] = await this.#rows("get", threadId, { name: `${this.#names}:get`, text: this.#sql.get, values: [threadId, id] });
    return row === undefined ? undefined : this.#decode("PostgresCheckpointer.get", row);
  }

  async list(threadId: string, options?: ListOptions): Promise<Checkpoint[]> {
    checkThreadId("PostgresCheckpointer.list", threadId);
    const { limit } = checkListOptions("PostgresCheckpointer.list", options);
    const rows = await this.#rows("list", threadId, {
      name: `${this.#names}:list`,
      text: this.#sql.list,
      values: [threadId, limit ?? null],
    });
    return rows.map((row) => this.#decode("PostgresCheckpointer.list", row));
  }

  async putWrites(threadId: string, checkpointId: string, writes: readonly CheckpointWrite[]): Promise<void> {
    const api = "PostgresCheckpointer.putWrites";
    this.#usable("putWrites");
    checkThreadId(api, threadId);
    checkCheckpointId(api, checkpointId);
    checkWrites(api, writes);
    const target = await this.#query("putWrites", "keeping the pending writes", threadId, {
      name: `${this.#names}:putWrites`,
      text: this.#sql.putWrites,
      values: [threadId, checkpointId, ...writeArrays(writes)],
    });
    if (target.length === 0) throw writesTargetMissing(api, threadId, checkpointId);
  }

  async deleteThread(threadId: string): Promise<void> {
    checkThreadId("PostgresCheckpointer.deleteThread", threadId);
    await this.#query("deleteThread", "deleting the thread", threadId, {
      name: `${this.#names}:deleteThread`,
      text: this.#sql.deleteThread,
      values: [threadId],
    });
  }

  /**
   * Removes old checkpoints of one thread, or of every thread: those past the newest `keepLast`, or
   * created before `olderThan` (a checkpoint either option keeps stays). Each thread's latest checkpoint
   * is always kept, so a resume still finds where its run stood; a checkpoint's pending writes go with it.
   *
   * @example
   * ```ts
   * await checkpointer.prune("t1", { keepLast: 100 }); // { removed: 42 }
   * await checkpointer.prune({ olderThan: new Date(Date.now() - 7 * 86_400_000) });
   * ```
   */
  /**
   * The ids of the threads in the schema (a subgraph's own threads left out), sorted by UTF-8 bytes.
   *
   * @example
   * ```ts
   * for (const threadId of await checkpointer.listThreads()) console.log(threadId, (await checkpointer.latest(threadId))?.graph);
   * ```
   */
  async listThreads(): Promise<string[]> {
    const rows = await this.#query<{ thread_id: string }>("listThreads", "listing the threads", "*", { text: listThreadsSql(this.schema) });
    return rows.map((row) => row.thread_id);
  }

  prune(threadId: string, options: PruneOptions): Promise<PruneResult>;
  prune(options: PruneOptions): Promise<PruneResult>;
  async prune(first: string | PruneOptions, second?: PruneOptions): Promise<PruneResult> {
    const request = checkPrune("PostgresCheckpointer.prune", first, second);
    if (request.threadId !== undefined) checkThreadId("PostgresCheckpointer.prune", request.threadId);
    const threads =
      request.threadId === undefined
        ? (await this.#query<{ thread_id: string }>("prune", "listing the threads", "*", { text: this.#sql.threads })).map(
            (row) => row.thread_id,
          )
        : [request.threadId];
    let removed = 0;
    for (const threadId of threads) {
      const rows = await this.#query<{ seq: number; created_at: string }>("prune", "reading the thread's checkpoints", threadId, {
        name: `${this.#names}:pruneAges`,
        text: this.#sql.ages,
        values: [threadId],
      });
      const kept = keptByPrune(
        rows.map((row) => row.created_at),
        request,
      );
      const doomed = rows.filter((_, index) => !kept.has(index)).map((row) => row.seq);
      if (doomed.length === 0) continue;
      await this.#query("prune", "removing old checkpoints", threadId, {
        name: `${this.#names}:pruneRemove`,
        text: this.#sql.remove,
        values: [threadId, doomed],
      });
      removed += doomed.length;
    }
    return { removed };
  }

  /**
   * Closes the pool the checkpointer opened (a pool you passed to `connect` stays open: it is yours).
   * The checkpointer cannot be used afterwards; closing twice does nothing.
   *
   * @example
   * ```ts
   * await checkpointer.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#leases.releaseAll();
    if (this.#ownsPool) await this.#pool.end().catch(() => undefined);
  }

  #usable(method: string): void {
    if (this.#closed) {
      throw new PersistenceError(
        "CLOSED",
        `PostgresCheckpointer.${method}: the checkpointer of ${this.location} was closed. Connect a new PostgresCheckpointer to use it again.`,
      );
    }
  }

  #rows(method: string, threadId: string, query: PostgresQuery): Promise<Row[]> {
    return this.#query<Row>(method, "reading checkpoints", threadId, query);
  }

  /** A row's checkpoint, checksums and shape checked (else `CHECKPOINT_CORRUPT`), with its pending writes. */
  #decode(api: string, row: Row): Checkpoint {
    const checkpoint = decodeRow(api, this.location, row, "database");
    if (row.write_bodies.length === 0) return checkpoint;
    const writeRows = row.write_bodies.map((body, index) => ({ checkpoint_seq: row.seq, body, checksum: row.write_checksums[index] }));
    return { ...checkpoint, pendingWrites: decodeWrites(api, this.location, checkpoint, writeRows, "database") };
  }

  /** Runs one query, with the driver's errors as coded `PersistenceError`s naming the thread. */
  async #query<R>(method: string, what: string, threadId: string, query: PostgresQuery): Promise<R[]> {
    this.#usable(method);
    try {
      // "*": a statement of no one thread (prune's list of threads), on a connection of its own.
      return (await (threadId === "*" ? this.#pool.query<R>(query) : this.#leases.query<R>(threadId, query))).rows;
    } catch (error) {
      throw postgresError(`PostgresCheckpointer.${method}`, error, this.location, what, threadId);
    }
  }
}
