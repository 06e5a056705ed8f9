/**
 * `SqliteCheckpointer`: the embedded default. One file, WAL mode, one transaction per checkpoint, a
 * checksum per checkpoint, and a schema version table so a later schema can migrate old files. The
 * SQLite binding is a driver (libsql by default, better-sqlite3 12 for those who have it), loaded
 * when the first SqliteCheckpointer opens, so importing this package loads neither.
 */
import type { Checkpoint, Checkpointer, CheckpointWrite, ListOptions, PruneOptions, PruneResult } from "../engine/index.js";
import { CheckpointConflictError, PersistenceError } from "../engine/index.js";
import {
  checkListOptions,
  checkPrune,
  checkSaveChain,
  checkWrites,
  isUnderThread,
  NAMESPACE_SEPARATOR,
  writesTargetMissing,
} from "../engine/index.js";
import { InvalidOptionError } from "../errors.js";
import { saveNow, type SavesNow } from "../engine/_kernel.js";
import { checkCheckpointId, checkSavedIds, checkThreadId } from "./ids.js";
import { deltaOf, type TraceAndRoutes } from "./trace-delta.js";
import { crc32Of, decodeWrites, type StoredWriteRow } from "./sqlite/body.js";
import { assemble, bodyOf, type ChainRow, chainRows, checkChain, HistoryLists, type Links, linksOf, listsOf } from "./sqlite/chain.js";
import { pruneThreads } from "./sqlite/prune.js";
import type { SqliteConnection, SqliteDriver, SqliteDriverName, SqliteStatement } from "./sqlite/driver.js";
import { faultAdvice, isNotNullFault, quoted, reasonOf, storageError } from "./sqlite/faults.js";
import { resolveDriver } from "./sqlite/load.js";
import { openFile } from "./sqlite/open.js";
import { DAMAGED_ADVICE, NEXT_ROWID_FREE, takenRowid } from "./sqlite/verify.js";
import { immediate, reading } from "./sqlite/transaction.js";

export { SQLITE_SCHEMA_VERSION } from "./sqlite/schema.js";

/** The database file `tsg` uses unless `--db` says otherwise, in the current directory. */
export const DEFAULT_DB_FILE = "tsg.sqlite";

/** Options of `new SqliteCheckpointer(file, options)`. */
export interface SqliteCheckpointerOptions {
  /**
   * `"normal"` (the default) survives the process being killed at any moment; `"full"` also survives
   * power loss, at the price of an fsync per checkpoint.
   */
  readonly synchronous?: "normal" | "full";
  /** How long a write waits for another process's transaction to finish, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * The SQLite binding: `"libsql"` (the default: prebuilt, nothing to compile), `"better-sqlite3"`
   * (12.x, if you have it), or a {@link SqliteDriver} of your own. Both built-in drivers read and write
   * the same file format.
   */
  readonly driver?: SqliteDriverName | SqliteDriver;
  /**
   * Open the file read-only: history and `getState` work, and saving is refused (`READ_ONLY`). Without
   * it, a file that cannot be written (a read-only file, directory or file system) opens read-only by
   * itself; {@link SqliteCheckpointer.readOnly} says which happened.
   */
  readonly readOnly?: boolean;
  /**
   * Run `PRAGMA quick_check` when the file opens, and refuse a damaged file with `DATABASE_CORRUPT`
   * rather than write into it (default `false`). It reads the whole file: about 3 ms a MB, 42 ms for
   * 10,000 checkpoints. `tsg` turns it on. Without it each save still checks that the place of the row it
   * writes is free, so a run fails rather than write where another thread's row would be read instead.
   */
  readonly quickCheck?: boolean;
}

interface Statements {
  readonly latest: SqliteStatement<[string], ChainRow>;
  readonly latestId: SqliteStatement<[string], { seq: number; id: string }>;
  readonly get: SqliteStatement<[string, string], ChainRow>;
  readonly list: SqliteStatement<[string, number], ChainRow>;
  /** The thread's rows before a seq, oldest first, with the body only where it holds the lists: a chain's links. */
  readonly chain: SqliteStatement<[string, number], ChainRow>;
  /** The pending writes of one checkpoint, and of a thread; absent in a read-only file older than schema 3, which has none. */
  readonly pending?: {
    readonly ofCheckpoint: SqliteStatement<[number], StoredWriteRow>;
    readonly ofThread: SqliteStatement<[string], StoredWriteRow>;
  };
  /** Only on a writable file: a read-only one refuses writes before reaching SQLite. */
  readonly writes?: {
    readonly insert: SqliteStatement<CheckpointRow>;
    /** The insert with the version check inside: a new thread's first checkpoint, and one continuing the (seq, id) given. */
    readonly insertFirst: SqliteStatement<[string, ...CheckpointRow]>;
    readonly insertNext: SqliteStatement<[number, string, string, ...CheckpointRow]>;
    readonly insertWrite: SqliteStatement<[number, number, string, string, string]>;
    readonly seqOf: SqliteStatement<[string, string], { seq: number }>;
    readonly lastSeq: SqliteStatement<[], { seq: number }>;
    readonly deleteThread: SqliteStatement<[string, string, string]>;
    readonly deleteThreadWrites: SqliteStatement<[string, string, string]>;
  };
}

/**
 * A {@link Checkpointer} in an SQLite file. It survives the process being killed: a checkpoint is
 * one transaction, so after a crash the file holds every checkpoint that was saved, whole, and
 * nothing of the one being written. Several processes may share a file; a thread's writers are
 * kept from interleaving by the version check in {@link SqliteCheckpointer.save}. Every failure is a
 * coded `PersistenceError`: a corrupt checkpoint is `CHECKPOINT_CORRUPT`, a full disk `DISK_FULL`
 * (carrying the run's state and trace), and so on.
 *
 * @example
 * ```ts
 * const checkpointer = new SqliteCheckpointer("runs.sqlite"); // libsql; { driver: "better-sqlite3" } for that one
 * await graph.invoke(input, { threadId: "order-42", checkpointer });
 * checkpointer.close();
 * ```
 */
export class SqliteCheckpointer implements Checkpointer, SavesNow {
  /** The path the database was opened with. */
  readonly file: string;
  /** Whether the file is open read-only (asked for, or because it cannot be written): saving is refused. */
  readonly readOnly: boolean;
  /** The driver's name: `"libsql"`, `"better-sqlite3"`, or yours. */
  readonly driver: string;
  readonly #connection: SqliteConnection;
  readonly #statements: Statements;
  /**
   * The lists of the last checkpoint this object saved or read, per thread (store-owned copies): the
   * next save's parent, almost always, so a save neither walks the chain nor reads the file for them.
   * Keyed by row and id, so a row another process replaced is never mistaken for it.
   */
  readonly #recent = new Map<string, { readonly seq: number; readonly id: string; readonly lists: TraceAndRoutes }>();
  #closed = false;

  constructor(file: string = DEFAULT_DB_FILE, options: SqliteCheckpointerOptions = {}) {
    checkOptions(options);
    const driver = resolveDriver(options.driver);
    const opened = openFile(file, {
      driver,
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
      synchronous: options.synchronous === "full" ? "FULL" : "NORMAL",
      readOnly: options.readOnly === true,
      quickCheck: options.quickCheck === true,
    });
    this.file = file;
    this.driver = driver.name;
    this.readOnly = opened.readOnly;
    this.#connection = opened.connection;
    // A read-only file of schema 1 cannot be migrated: its rows have no checksum to check.
    const checksum = opened.version >= 2 ? "checksum" : "NULL AS checksum";
    const delta = opened.version >= 4 ? "delta, delta_checksum" : "NULL AS delta, NULL AS delta_checksum";
    // The columns and their order chainRows reads (sqlite/chain.ts).
    const row = `seq, thread_id, id, parent_id, body, ${checksum}, ${delta}`;
    const links = `seq, thread_id, id, parent_id, ${opened.version >= 4 ? "CASE WHEN delta IS NULL THEN body END AS body" : "body"}, ${checksum}, ${delta}`;
    const write = "checkpoint_seq, body, checksum";
    const connection = this.#connection;
    try {
      this.#statements = {
        latest: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1`),
        latestId: connection.prepare("SELECT seq, id FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1"),
        get: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? AND id = ? ORDER BY seq DESC LIMIT 1`),
        list: connection.prepare(`SELECT ${row} FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT ?`),
        chain: connection.prepare(`SELECT ${links} FROM tsg_checkpoints WHERE thread_id = ? AND seq < ? ORDER BY seq`),
        ...(opened.version < 3
          ? {}
          : {
              pending: {
                ofCheckpoint: connection.prepare(`SELECT ${write} FROM tsg_writes WHERE checkpoint_seq = ? ORDER BY task`),
                ofThread: connection.prepare(`SELECT ${write} FROM tsg_writes WHERE thread_id = ? ORDER BY checkpoint_seq, task`),
              },
            }),
        ...(opened.readOnly
          ? {}
          : {
              writes: {
                // A thread_id of NULL (refused: NOT NULL) when the rowid the new row takes is held already (a damaged file: verify.ts).
                insert: connection.prepare(
                  `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
                ),
                // The same, and when the thread is not where the save expects it.
                insertFirst: connection.prepare(
                  `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN NOT EXISTS (SELECT 1 FROM tsg_checkpoints WHERE thread_id = ?) AND ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
                ),
                insertNext: connection.prepare(
                  `INSERT INTO tsg_checkpoints (${INSERTED}) VALUES (CASE WHEN (SELECT seq = ? AND id = ? FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1) AND ${NEXT_ROWID_FREE} THEN ? END, ${VALUES_AFTER_THREAD})`,
                ),
                insertWrite: connection.prepare(
                  "INSERT OR IGNORE INTO tsg_writes (checkpoint_seq, task, thread_id, body, checksum) VALUES (?, ?, ?, ?, ?)",
                ),
                // For a driver whose run() does not return the new rowid (the built-in ones do). libsql's .get() of an
                // INSERT … RETURNING measured about a fifth slower (CPU time) than a plain insert.
                lastSeq: connection.prepare("SELECT last_insert_rowid() AS seq"),
                seqOf: connection.prepare("SELECT seq FROM tsg_checkpoints WHERE thread_id = ? AND id = ? ORDER BY seq DESC LIMIT 1"),
                // The thread, and its subgraphs' threads (`thread␟namespace`: the range after the separator, U+001F, before U+0020).
                deleteThread: connection.prepare("DELETE FROM tsg_checkpoints WHERE thread_id = ? OR (thread_id >= ? AND thread_id < ?)"),
                deleteThreadWrites: connection.prepare("DELETE FROM tsg_writes WHERE thread_id = ? OR (thread_id >= ? AND thread_id < ?)"),
              },
            }),
      };
    } catch (error) {
      connection.close();
      throw storageError("SqliteCheckpointer", error, file, "preparing the statements");
    }
  }

  async save(checkpoint: Checkpoint, expectedLatestId: string | null): Promise<void> {
    this.#saveChain("save", [checkpoint], expectedLatestId);
  }

  /**
   * `save`, without its promise: a sync-durability run calls it, and awaits nothing between supersteps.
   * `false` (nothing done) for an object whose `save` is not this class's own, a wrapper or a subclass
   * that overrides it: the run calls that `save` instead.
   * @internal
   */
  [saveNow](checkpoint: Checkpoint, expectedLatestId: string | null): boolean {
    if (!(#statements in this) || this.save !== SqliteCheckpointer.prototype.save) return false;
    this.#saveChain("save", [checkpoint], expectedLatestId);
    return true;
  }

  /**
   * Stores several checkpoints of one thread, each continuing the one before it, in one transaction:
   * all of them or none (what a run with `durability: "async"` uses). The version check is `save`'s.
   *
   * @example
   * ```ts
   * await checkpointer.saveMany([first, second], null); // second.parentId === first.id
   * ```
   */
  async saveMany(checkpoints: readonly Checkpoint[], expectedLatestId: string | null): Promise<void> {
    this.#saveChain("saveMany", checkSaveChain("SqliteCheckpointer.saveMany", checkpoints), expectedLatestId);
  }

  #saveChain(method: "save" | "saveMany", checkpoints: readonly Checkpoint[], expectedLatestId: string | null): void {
    this.#usable(method);
    for (const checkpoint of checkpoints) checkSavedIds(`SqliteCheckpointer.${method}`, checkpoint);
    const last = checkpoints.at(-1) as Checkpoint;
    const others = checkpoints.length > 1 ? ` (nor the ${checkpoints.length - 1} checkpoints before it, saved with it)` : "";
    const failed = (code: PersistenceError["code"], problem: string, cause?: unknown) =>
      new PersistenceError(code, `SqliteCheckpointer.${method}: ${problem}: ${whereTheRunStood(last, expectedLatestId)}${others}`, {
        threadId: last.threadId,
        ...(expectedLatestId === null ? {} : { checkpointId: expectedLatestId }),
        state: last.state,
        trace: last.trace,
        ...(cause === undefined ? {} : { cause }),
      });
    const { writes } = this.#statements;
    if (writes === undefined)
      throw failed("READ_ONLY", `${quoted(this.file)} is open read-only (it cannot be written, or readOnly was set)`);
    const rows = checkpoints.map((checkpoint) => {
      const { pendingWrites, trace: _trace, routes: _routes, ...stored } = checkpoint;
      if (pendingWrites !== undefined) checkWrites(`SqliteCheckpointer.${method}`, pendingWrites);
      return { checkpoint, pendingWrites, body: JSON.stringify(stored) };
    });
    const { threadId } = last;
    try {
      // Either way the check and the insert are one atomic step, across processes too: IMMEDIATE takes the write lock before
      // reading the latest checkpoint, and the checked insert reads it inside its own statement.
      const damaged = (problem: string) =>
        failed("DATABASE_CORRUPT", `${quoted(this.file)} is damaged: ${problem}, so nothing of this save was kept. ${DAMAGED_ADVICE}`);
      const saved =
        (rows.length === 1 ? this.#insertAlone(writes, rows[0] as SaveRow, expectedLatestId) : undefined) ??
        this.#saveInTransaction(writes, rows, expectedLatestId, damaged);
      this.#remember(threadId, saved.seq, saved.id, { trace: last.trace, routes: last.routes });
    } catch (error) {
      if (error instanceof PersistenceError) throw error;
      const { code, advice } = faultAdvice(error, this.file);
      throw failed(code, `${advice} (${reasonOf(error)})`, error);
    }
  }

  /**
   * The save as one IMMEDIATE transaction: read the thread's latest checkpoint, check it, insert each row
   * and its pending writes; `damaged` when a row's place is held already (verify.ts), and nothing is kept.
   */
  #saveInTransaction(
    writes: NonNullable<Statements["writes"]>,
    rows: readonly SaveRow[],
    expectedLatestId: string | null,
    damaged: (problem: string) => PersistenceError,
  ): { seq: number; id: string } {
    const threadId = (rows.at(-1) as SaveRow).checkpoint.threadId;
    return immediate(this.#connection, () => {
      // Read, then a plain insert: what every save did before #insertAlone, and what a batch, pending
      // writes, a fork or a thread moved on by another writer still need.
      const current = this.#statements.latestId.get(threadId);
      const currentId = current?.id ?? null;
      if (currentId !== expectedLatestId) throw new CheckpointConflictError(threadId, expectedLatestId, currentId);
      let head = current === undefined ? undefined : { seq: current.seq, id: current.id };
      let lists: TraceAndRoutes | undefined;
      for (const { checkpoint, pendingWrites, body } of rows) {
        // Only what the superstep added to the parent's trace and routes is written (trace-delta.ts). The parent is almost always the latest.
        const { parentId } = checkpoint;
        const parent = parentId === null ? undefined : parentId === head?.id ? head.seq : writes.seqOf.get(threadId, parentId)?.seq;
        // Within a batch, each checkpoint's parent is the one just inserted, whose lists are at hand.
        const parentLists =
          parent === undefined
            ? undefined
            : lists !== undefined && parentId === head?.id
              ? lists
              : this.#parentLists(threadId, parent, parentId as string);
        const delta = JSON.stringify(deltaOf(parent ?? null, parentLists, checkpoint));
        let inserted: unknown;
        try {
          inserted = writes.insert.run(...rowOf(checkpoint, body, delta));
        } catch (error) {
          throw isNotNullFault(error) ? damaged(takenRowid(this.#connection)) : error;
        }
        const seq = insertedRowid(inserted) ?? writes.lastSeq.get()?.seq ?? -1;
        if (pendingWrites !== undefined && pendingWrites.length > 0) this.#insertWrites(writes, threadId, seq, pendingWrites);
        head = { seq, id: checkpoint.id };
        lists = checkpoint;
      }
      return head as { seq: number; id: string };
    });
  }

  /**
   * A save of one checkpoint without pending writes that starts a new thread, or continues the checkpoint
   * this object saved or read last (every save of a run after its first), as one autocommit INSERT whose
   * version check is inside the statement: SQLite takes the write lock when the statement starts, as
   * `BEGIN IMMEDIATE` does, so no BEGIN, read or COMMIT is called (a fifth less time a save, median, in
   * docs/benchmarks.md). `undefined` when it does not apply, or when the thread is not where this object
   * last saw it: then the transaction of {@link SqliteCheckpointer.save} reads it and decides.
   */
  #insertAlone(
    writes: NonNullable<Statements["writes"]>,
    { checkpoint, pendingWrites, body }: SaveRow,
    expectedLatestId: string | null,
  ): { seq: number; id: string } | undefined {
    if (pendingWrites !== undefined && pendingWrites.length > 0) return undefined;
    const { threadId, parentId } = checkpoint;
    const recent = expectedLatestId === null ? undefined : this.#recent.get(threadId);
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

  async latest(threadId: string): Promise<Checkpoint | undefined> {
    checkThreadId("SqliteCheckpointer.latest", threadId);
    return this.#one("latest", () => this.#statements.latest.get(threadId));
  }

  async get(threadId: string, id: string): Promise<Checkpoint | undefined> {
    checkThreadId("SqliteCheckpointer.get", threadId);
    checkCheckpointId("SqliteCheckpointer.get", id);
    return this.#one("get", () => this.#statements.get.get(threadId, id));
  }

  /**
   * The thread's checkpoints, newest first. Each one's trace and routes are assembled when first read
   * (an accessor that becomes a plain property), so listing a long history reads each row once and
   * never builds every entry's whole trace; every row and delta is checked before anything is returned.
   */
  async list(threadId: string, options?: ListOptions): Promise<Checkpoint[]> {
    const api = "SqliteCheckpointer.list";
    checkThreadId(api, threadId);
    const { limit } = checkListOptions(api, options);
    const statements = this.#statements;
    const { rows, ancestors, writeRows } = this.#run("list", "reading the database", () =>
      reading(this.#connection, () => {
        const rows = chainRows(statements.list, threadId, limit ?? -1);
        const oldest = rows.at(-1)?.seq;
        // With a limit, the rows before the oldest listed may hold the start of the listed ones' traces.
        const ancestors = limit === undefined || oldest === undefined ? [] : chainRows(statements.chain, threadId, oldest);
        return { rows, ancestors, writeRows: statements.pending?.ofThread.all(threadId) ?? [] };
      }),
    );
    const bySeq = new Map<number, ChainRow>();
    for (const row of [...ancestors, ...rows]) bySeq.set(row.seq, row);
    const links = new Map<number, Links>();
    for (const row of bySeq.values()) links.set(row.seq, linksOf(api, this.file, row));
    const history = new HistoryLists(api, this.file, bySeq, links, checkChain(api, this.file, bySeq, links));
    const writesBySeq = new Map<number, StoredWriteRow[]>();
    for (const write of writeRows) writesBySeq.set(write.checkpoint_seq, [...(writesBySeq.get(write.checkpoint_seq) ?? []), write]);
    return rows.map((row) => {
      const lists = () => history.of(row.seq);
      return this.#withWrites(api, assemble(bodyOf(api, this.file, row), lists), writesBySeq.get(row.seq) ?? []);
    });
  }

  prune(threadId: string, options: PruneOptions): Promise<PruneResult>;
  prune(options: PruneOptions): Promise<PruneResult>;
  async prune(first: string | PruneOptions, second?: PruneOptions): Promise<PruneResult> {
    const api = "SqliteCheckpointer.prune";
    this.#usable("prune");
    const request = checkPrune(api, first, second);
    if (request.threadId !== undefined) checkThreadId(api, request.threadId);
    if (this.#statements.writes === undefined) {
      throw new PersistenceError(
        "READ_ONLY",
        `${api}: ${quoted(this.file)} is open read-only, so no checkpoint can be removed. Make the file writable first.`,
        request.threadId === undefined ? {} : { threadId: request.threadId },
      );
    }
    const removed = this.#run("prune", "pruning checkpoints", () =>
      immediate(this.#connection, () => pruneThreads(this.#connection, api, this.file, request)),
    );
    if (request.threadId === undefined) this.#recent.clear();
    else this.#recent.delete(request.threadId);
    return { removed };
  }

  async putWrites(threadId: string, checkpointId: string, pendingWrites: readonly CheckpointWrite[]): Promise<void> {
    const api = "SqliteCheckpointer.putWrites";
    this.#usable("putWrites");
    checkThreadId(api, threadId);
    checkCheckpointId(api, checkpointId);
    checkWrites(api, pendingWrites);
    const { writes } = this.#statements;
    if (writes === undefined) {
      throw new PersistenceError(
        "READ_ONLY",
        `${api}: ${quoted(this.file)} is open read-only, so the writes of checkpoint ${quoted(checkpointId)} cannot be kept. Make the file writable first.`,
        { threadId, checkpointId },
      );
    }
    this.#run("putWrites", "keeping the pending writes", () =>
      immediate(this.#connection, () => {
        const seq = writes.seqOf.get(threadId, checkpointId)?.seq;
        if (seq === undefined) throw writesTargetMissing(api, threadId, checkpointId);
        this.#insertWrites(writes, threadId, seq, pendingWrites);
      }),
    );
  }

  /** Inserts writes for the checkpoint row `seq`; a task that has one keeps it (INSERT OR IGNORE). Inside a transaction. */
  #insertWrites(writes: NonNullable<Statements["writes"]>, threadId: string, seq: number, pendingWrites: readonly CheckpointWrite[]): void {
    for (const { task, node, update } of pendingWrites) {
      const body = JSON.stringify({ task, node, update });
      writes.insertWrite.run(seq, task, threadId, body, crc32Of(body));
    }
  }

  /** The checkpoint one statement selects, whole: its trace and routes rebuilt from its chain, its pending writes. */
  #one(method: "latest" | "get", select: () => ChainRow | undefined): Checkpoint | undefined {
    const api = `SqliteCheckpointer.${method}`;
    const statements = this.#statements;
    const found = this.#run(method, "reading the database", () =>
      // No such checkpoint (a new thread: every run's first read) is one statement; a row found is read
      // again with its parents and writes inside one snapshot.
      select() === undefined
        ? undefined
        : reading(this.#connection, () => {
            const row = select();
            if (row === undefined) return undefined;
            const link = linksOf(api, this.file, row);
            const known = this.#known(row.thread_id, link, row.parent_id);
            // The parents are read only when the delta continues one this object does not hold already.
            const needsChain = link.kind === "delta" && link.delta.parent !== null && known === undefined;
            const chain = needsChain ? chainRows(statements.chain, row.thread_id, row.seq) : [];
            return { row, link, known, chain, writeRows: statements.pending?.ofCheckpoint.all(row.seq) ?? [] };
          }),
    );
    if (found === undefined) return undefined;
    const { row, link, known, chain, writeRows } = found;
    const bySeq = new Map<number, ChainRow>(chain.map((r) => [r.seq, r]));
    bySeq.set(row.seq, row);
    const lists = listsOf(api, this.file, row.seq, bySeq, (r) => (r === row ? link : linksOf(api, this.file, r)), known);
    this.#remember(row.thread_id, row.seq, row.id, lists);
    return this.#withWrites(api, assemble(bodyOf(api, this.file, row), lists), writeRows);
  }

  /** The cached lists a delta continues, when they are its parent's. */
  #known(threadId: string, link: Links, parentId: string | null): { seq: number; lists: TraceAndRoutes } | undefined {
    const recent = this.#recent.get(threadId);
    if (link.kind !== "delta" || recent === undefined || recent.seq !== link.delta.parent || recent.id !== parentId) return undefined;
    return recent;
  }

  /**
   * The lists of the parent row a new checkpoint continues (inside the save's transaction). A parent
   * whose chain cannot be read (damaged) is not shared: the new checkpoint then stores its whole lists,
   * so a damaged old row never stops a run from saving.
   */
  #parentLists(threadId: string, seq: number, id: string): TraceAndRoutes | undefined {
    const recent = this.#recent.get(threadId);
    if (recent !== undefined && recent.seq === seq && recent.id === id) return recent.lists;
    const api = "SqliteCheckpointer.save";
    try {
      const rows = chainRows(this.#statements.chain, threadId, seq + 1);
      const bySeq = new Map<number, ChainRow>(rows.map((r) => [r.seq, r]));
      return listsOf(api, this.file, seq, bySeq, (r) => linksOf(api, this.file, r));
    } catch (error) {
      if (error instanceof PersistenceError && error.code === "CHECKPOINT_CORRUPT") return undefined;
      throw error;
    }
  }

  /** Keeps a copy of a checkpoint's lists as the thread's most recent (a few threads at most). */
  #remember(threadId: string, seq: number, id: string, lists: TraceAndRoutes): void {
    this.#recent.delete(threadId);
    if (this.#recent.size >= RECENT_THREADS) this.#recent.delete(this.#recent.keys().next().value as string);
    this.#recent.set(threadId, { seq, id, lists: { trace: [...lists.trace], routes: lists.routes.map((route) => ({ ...route })) } });
  }

  #withWrites(api: string, checkpoint: Checkpoint, rows: readonly StoredWriteRow[]): Checkpoint {
    return rows.length === 0 ? checkpoint : { ...checkpoint, pendingWrites: decodeWrites(api, this.file, checkpoint, rows) };
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#usable("deleteThread");
    checkThreadId("SqliteCheckpointer.deleteThread", threadId);
    const { writes } = this.#statements;
    if (writes === undefined) {
      throw new PersistenceError(
        "READ_ONLY",
        `SqliteCheckpointer.deleteThread: ${quoted(this.file)} is open read-only, so thread ${quoted(threadId)} cannot be deleted. Make the file writable first.`,
        { threadId },
      );
    }
    for (const id of [...this.#recent.keys()]) if (id === threadId || isUnderThread(id, threadId)) this.#recent.delete(id);
    const range = [threadId, `${threadId}${NAMESPACE_SEPARATOR}`, `${threadId}\u0020`] as const;
    this.#run("deleteThread", "deleting the thread", () =>
      immediate(this.#connection, () => {
        writes.deleteThreadWrites.run(...range);
        writes.deleteThread.run(...range);
      }),
    );
  }

  /** Closes the database file. The checkpointer cannot be used afterwards; closing twice does nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#connection.close();
  }

  #usable(method: string): void {
    if (this.#closed) {
      throw new PersistenceError(
        "CLOSED",
        `SqliteCheckpointer.${method}: the checkpointer of ${quoted(this.file)} was closed. Open a new SqliteCheckpointer to use the file again.`,
      );
    }
  }

  /** Runs one statement, with the driver's errors as coded `PersistenceError`s. */
  #run<T>(method: string, what: string, statement: () => T): T {
    this.#usable(method);
    try {
      return statement();
    } catch (error) {
      throw storageError(`SqliteCheckpointer.${method}`, error, this.file, what);
    }
  }
}

/** The values of a new tsg_checkpoints row, in the insert statements' order. */
type CheckpointRow = [string, string, string | null, number, string, string, string, string, string];

/** A checkpoint to save, its pending writes apart, and its body (all but those, the trace and the routes) as JSON. */
interface SaveRow {
  readonly checkpoint: Checkpoint;
  readonly pendingWrites: readonly CheckpointWrite[] | undefined;
  readonly body: string;
}

/** The row of `checkpoint`: its columns, its body and its trace delta as stored, each with its checksum. */
function rowOf(checkpoint: Checkpoint, body: string, delta: string): CheckpointRow {
  const { threadId, id, parentId, step, createdAt } = checkpoint;
  return [threadId, id, parentId, step, createdAt, body, crc32Of(body), delta, crc32Of(delta)];
}

/** The rowid an INSERT's `run()` reports (`{ lastInsertRowid }`, both built-in drivers), when the driver reports one. */
function insertedRowid(result: unknown): number | undefined {
  const rowid = typeof result === "object" && result !== null ? (result as { lastInsertRowid?: unknown }).lastInsertRowid : undefined;
  if (typeof rowid === "number") return rowid;
  return typeof rowid === "bigint" ? Number(rowid) : undefined;
}

/** The columns a save inserts, in {@link CheckpointRow}'s order. */
const INSERTED = "thread_id, id, parent_id, step, created_at, body, checksum, delta, delta_checksum";

/**
 * The values after thread_id in the checked inserts. Their parameters are plain `?`s, bound in order (the
 * thread twice: in the check, then as the value): better-sqlite3 binds `?NNN` only by name.
 */
const VALUES_AFTER_THREAD = "?, ?, ?, ?, ?, ?, ?, ?";

/** How many threads' most recent lists a checkpointer keeps at hand. */
const RECENT_THREADS = 64;

/** Refuses an option the checkpointer would otherwise read as its default, or hand to SQLite as nonsense. */
function checkOptions(options: SqliteCheckpointerOptions): void {
  const invalid = (name: string, expected: string, got: unknown) =>
    new InvalidOptionError(
      `SqliteCheckpointer: ${name} must be ${expected}; got ${typeof got === "string" ? quoted(got) : typeof got === "number" ? String(got) : typeof got}.`,
    );
  if (typeof options !== "object" || options === null) throw invalid("the options", "an object", options);
  const { synchronous, busyTimeoutMs, readOnly, quickCheck } = options;
  if (synchronous !== undefined && synchronous !== "normal" && synchronous !== "full")
    throw invalid("synchronous", '"normal" or "full"', synchronous);
  if (busyTimeoutMs !== undefined && !(Number.isSafeInteger(busyTimeoutMs) && busyTimeoutMs >= 0)) {
    throw invalid("busyTimeoutMs", "a whole number of milliseconds, 0 or more", busyTimeoutMs);
  }
  if (readOnly !== undefined && typeof readOnly !== "boolean") throw invalid("readOnly", "true or false", readOnly);
  if (quickCheck !== undefined && typeof quickCheck !== "boolean") throw invalid("quickCheck", "true or false", quickCheck);
}

/** Where a run stood when its checkpoint could not be saved, and how to continue (the Postgres checkpointer says it too). */
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
