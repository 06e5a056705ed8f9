/**
 * `SqliteCheckpointer`: the embedded default. One file, WAL mode, one transaction per checkpoint, a
 * checksum per checkpoint, and a schema version table so a later schema can migrate old files. The
 * SQLite binding is a driver (libsql by default, better-sqlite3 12 for those who have it), loaded
 * when the first SqliteCheckpointer opens, so importing this package loads neither.
 */
import type { Checkpoint, Checkpointer, CheckpointWrite, ListOptions, PruneOptions, PruneResult } from "../engine/index.js";
import { PersistenceError } from "../engine/index.js";
import { checkListOptions, NAMESPACE_SEPARATOR } from "../engine/store-rules.js";
import { checkPrune, checkSaveChain, checkWrites, writesTargetMissing } from "./store-checks.js";
import { saveNow, type SavesNow } from "../engine/store-rules.js";
import { checkCheckpointId, checkSavedIds, checkThreadId } from "./ids.js";
import { whereTheRunStood } from "./save-failure.js";
import { SQLITE_THREADS_SQL } from "./thread-listing.js";
import { checkpointBody } from "./checkpoint-body.js";
import { decodeWrites, type StoredWriteRow } from "./sqlite/body.js";
import { assemble, bodyOf, type ChainRow, chainRows, checkChain, HistoryLists, type Links, linksOf, listsOf } from "./sqlite/chain.js";
import type { SqliteConnection } from "./sqlite/driver.js";
import { faultAdvice, quoted, reasonOf, storageError } from "./sqlite/faults.js";
import { resolveDriver } from "./sqlite/load.js";
import { openFile } from "./sqlite/open.js";
import { checkOptions, type SqliteCheckpointerOptions } from "./sqlite/options.js";
import { pruneThreads } from "./sqlite/prune.js";
import { RecentLists } from "./sqlite/recent.js";
import { insertWrites, type SaveRow, saveRows } from "./sqlite/save.js";
import { prepareStatements, type Statements } from "./sqlite/statements.js";
import { reading, immediate } from "./sqlite/transaction.js";
import { DAMAGED_ADVICE } from "./sqlite/verify.js";

export { SQLITE_SCHEMA_VERSION } from "./sqlite/schema.js";
export type { SqliteCheckpointerOptions } from "./sqlite/options.js";

/** The database file `tsg` uses unless `--db` says otherwise, in the current directory. */
export const DEFAULT_DB_FILE = "tsg.sqlite";

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
  /** The lists of the last checkpoint this object saved or read, per thread: the next save's parent, almost always. */
  readonly #recent = new RecentLists();
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
    const connection = this.#connection;
    try {
      this.#statements = prepareStatements(connection, opened.version, opened.readOnly);
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
    const rows = checkpoints.map((checkpoint): SaveRow => {
      const { pendingWrites } = checkpoint;
      if (pendingWrites !== undefined) checkWrites(`SqliteCheckpointer.${method}`, pendingWrites);
      return { checkpoint, pendingWrites, body: checkpointBody(checkpoint, false) };
    });
    const { threadId } = last;
    try {
      const damaged = (problem: string) =>
        failed("DATABASE_CORRUPT", `${quoted(this.file)} is damaged: ${problem}, so nothing of this save was kept. ${DAMAGED_ADVICE}`);
      const context = { connection: this.#connection, file: this.file, statements: this.#statements, writes, recent: this.#recent };
      const saved = saveRows(context, rows, expectedLatestId, damaged);
      this.#recent.remember(threadId, saved.seq, saved.id, { trace: last.trace, routes: last.routes });
    } catch (error) {
      if (error instanceof PersistenceError) throw error;
      const { code, advice } = faultAdvice(error, this.file);
      throw failed(code, `${advice} (${reasonOf(error)})`, error);
    }
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

  /**
   * The ids of the threads in the file (a subgraph's own threads left out), sorted by UTF-8 bytes.
   *
   * @example
   * ```ts
   * for (const threadId of await checkpointer.listThreads()) console.log(threadId, (await checkpointer.latest(threadId))?.graph);
   * ```
   */
  async listThreads(): Promise<string[]> {
    return this.#run("listThreads", "listing the threads", () =>
      this.#connection
        .prepare<[], { thread_id: string }>(SQLITE_THREADS_SQL)
        .all()
        .map((row) => row.thread_id),
    );
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
    this.#recent.forget(request.threadId);
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
        insertWrites(writes, threadId, seq, pendingWrites);
      }),
    );
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
            const known = this.#recent.known(row.thread_id, link, row.parent_id);
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
    this.#recent.remember(row.thread_id, row.seq, row.id, lists);
    return this.#withWrites(api, assemble(bodyOf(api, this.file, row), lists), writeRows);
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
    this.#recent.forget(threadId, true);
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
