/** What the SQLite checkpointer adds to the contract: WAL, the schema version table, reopening, several connections, drivers. */
import { copyFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { END, START, StateGraph } from "../../src/index.js";
import {
  CheckpointConflictError,
  DEFAULT_DB_FILE,
  PERSISTENCE_ERROR_CODES,
  PersistenceError,
  SQLITE_SCHEMA_VERSION,
  SqliteCheckpointer,
  sqliteDriver,
  type SqliteDriver,
  type SqliteStatement,
} from "../../src/persistence/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { onDriver, openSqlite, rawConnection, SQLITE_DRIVER, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

const FIXTURES = join(import.meta.dirname, "fixtures");

/**
 * The built-in driver with each prepared statement's calls as `wrap` makes them, and `onExec` told of
 * each `exec`: a driver of the user's, as a test needs one.
 */
function wrappedDriver(
  name: string,
  wrap: <P extends readonly unknown[], R>(sql: string, statement: SqliteStatement<P, R>) => SqliteStatement<P, R>,
  onExec: (sql: string) => void = () => undefined,
): SqliteDriver {
  const builtIn = sqliteDriver(SQLITE_DRIVER);
  return {
    name,
    open(file, options) {
      const connection = builtIn.open(file, options);
      return {
        get inTransaction() {
          return connection.inTransaction;
        },
        exec: (sql) => (onExec(sql), connection.exec(sql)),
        prepare: <P extends readonly unknown[], R>(sql: string) => wrap(sql, connection.prepare<P, R>(sql)),
        pragma: (sql) => connection.pragma(sql),
        close: () => connection.close(),
      };
    },
  };
}

/** The built-in driver, logging the SQL of every statement run (prepared or exec'd) into `statements`. */
function loggingDriver(statements: string[]): SqliteDriver {
  const log = (sql: string) => void statements.push(sql);
  return wrappedDriver(
    "logging",
    <P extends readonly unknown[], R>(sql: string, statement: SqliteStatement<P, R>) => ({
      run: (...params: P) => (log(sql), statement.run(...params)),
      get: (...params: P) => (log(sql), statement.get(...params)),
      all: (...params: P) => (log(sql), statement.all(...params)),
    }),
    log,
  );
}

/** A counter run of 2 supersteps on thread t1 through a logging connection (`a`), a second plain connection (`b`) on the same file. */
async function loggedRun(file: string, durability: "sync" | "async") {
  const statements: string[] = [];
  const a = new SqliteCheckpointer(file, { driver: loggingDriver(statements) });
  const b = openSqlite(file);
  statements.length = 0;
  const graph = counterGraph(2);
  const first = await graph.invoke(counterInput(), { threadId: "t1", checkpointer: a, durability });
  return { statements, a, b, graph, first };
}

// Skipped (with a printed message) only when TSG_SQLITE_DRIVER names a driver that is not installed; .ci/run makes that a failure.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("SqliteCheckpointer"), () => {
  it("opens the file in WAL mode and records the schema version in its own table", () => {
    const file = join(dir, "a.sqlite");
    const checkpointer = openSqlite(file);
    expect([checkpointer.driver, checkpointer.readOnly]).toEqual([SQLITE_DRIVER, false]);
    checkpointer.close();
    const db = rawConnection(file, "readonly");
    expect(db.pragma("journal_mode")).toBe("wal");
    expect(db.prepare("SELECT version FROM tsg_schema_version").all()).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
    db.close();
  });

  it("keeps every checkpoint when the file is reopened", async () => {
    const file = join(dir, "a.sqlite");
    const first = openSqlite(file);
    const result = await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer: first });
    first.close();
    const second = openSqlite(file);
    expect((await second.latest("t1"))?.id).toBe(result.checkpointId);
    expect(await second.list("t1")).toHaveLength(4);
    second.close();
  });

  it("refuses a file written with a newer schema, and leaves it as it was", () => {
    const file = join(dir, "newer.sqlite");
    openSqlite(file).close();
    const db = rawConnection(file);
    db.prepare<[number]>("UPDATE tsg_schema_version SET version = ?").run(SQLITE_SCHEMA_VERSION + 1);
    db.close();
    const open = () => openSqlite(file);
    expect(open).toThrow(PersistenceError);
    expect(open).toThrow(`has schema version ${SQLITE_SCHEMA_VERSION + 1}, written by a newer typed-state-graph`);
  });

  it("saves a run's checkpoints as single checked inserts, and leaves a save the thread moved past to the transaction's check", async () => {
    const { statements, a, b, graph, first } = await loggedRun(join(dir, "alone.sqlite"), "sync");
    // A new thread's first checkpoint and every one after it: no BEGIN IMMEDIATE / COMMIT.
    expect(statements.filter((sql) => sql.startsWith("BEGIN IMMEDIATE"))).toEqual([]);
    expect(await a.list("t1")).toHaveLength(4);
    expect((await b.latest("t1"))?.trace).toEqual(first.trace);

    // Another connection moves the thread on: a's next save, continuing what a saw last, is a conflict.
    await graph.updateState("t1", { n: 5 }, { checkpointer: b });
    const seen = (await b.get("t1", first.checkpointId)) as NonNullable<Awaited<ReturnType<typeof b.get>>>;
    const moved = (await b.latest("t1"))?.id as string;
    const late = { ...seen, id: "late", parentId: first.checkpointId };
    const conflict = await a.save(late, first.checkpointId).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(CheckpointConflictError);
    expect(conflict).toMatchObject({ expectedLatestId: first.checkpointId, actualLatestId: moved });
    // And a new thread's first save on a thread that already exists.
    const again = await a.save({ ...seen, id: "again", parentId: null }, null).catch((error: unknown) => error);
    expect(again).toMatchObject({ expectedLatestId: null, actualLatestId: moved });
    expect(statements.filter((sql) => sql.startsWith("BEGIN IMMEDIATE"))).toHaveLength(2);
    expect((await b.list("t1")).map((c) => c.id)).not.toContain("late");
    a.close();
    b.close();
  });

  it("stores an async run's checkpoints in one transaction without reading the thread first, and refuses a batch the thread moved past", async () => {
    const { statements, a, b, graph, first } = await loggedRun(join(dir, "batch.sqlite"), "async");
    // The run's start reads the thread (new input merges onto it); then BEGIN, the inserts, COMMIT: no read in between.
    const kinds = statements.map((sql) => sql.split(" ").slice(0, 3).join(" "));
    expect(kinds).toEqual(["SELECT seq, thread_id,", "BEGIN IMMEDIATE", ...Array(4).fill("INSERT INTO tsg_checkpoints"), "COMMIT"]);
    expect((await b.list("t1")).map((c) => c.id)).toEqual((await a.list("t1")).map((c) => c.id));
    expect((await b.latest("t1"))?.trace).toEqual(first.trace);

    // Another connection moves the thread on: a's next batch, continuing what a saw last, is refused whole.
    await graph.updateState("t1", { n: 5 }, { checkpointer: b });
    const moved = (await b.latest("t1"))?.id as string;
    const seen = (await b.get("t1", first.checkpointId)) as NonNullable<Awaited<ReturnType<typeof b.get>>>;
    const late = [
      { ...seen, id: "late-1", parentId: first.checkpointId },
      { ...seen, id: "late-2", parentId: "late-1" },
    ];
    const conflict = await a.saveMany(late, first.checkpointId).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(CheckpointConflictError);
    expect(conflict).toMatchObject({ expectedLatestId: first.checkpointId, actualLatestId: moved });
    const ids = (await b.list("t1")).map((c) => c.id);
    expect(ids[0]).toBe(moved);
    expect(ids).not.toContain("late-1");
    // Continuing the moved head (read by a), the same batch is kept whole, after it.
    await a.latest("t1");
    await a.saveMany([{ ...late[0], parentId: moved } as typeof seen, late[1] as typeof seen], moved);
    expect((await b.list("t1", { limit: 3 })).map((c) => c.id)).toEqual(["late-2", "late-1", moved]);
    a.close();
    b.close();
  });

  it("applies the version check across connections (as across processes)", async () => {
    const file = join(dir, "shared.sqlite");
    const a = openSqlite(file);
    const b = openSqlite(file);
    const graph = counterGraph(1);
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer: a });
    const latest = await b.latest("t1");
    await graph.updateState("t1", { n: 5 }, { checkpointer: a });
    const stale = { ...(latest as NonNullable<typeof latest>), id: "late", parentId: latest?.id ?? null };
    await expect(b.save(stale, latest?.id ?? null)).rejects.toBeInstanceOf(CheckpointConflictError);
    a.close();
    b.close();
  });

  it("refuses the second of two first checkpoints of one new thread, each expecting it empty", async () => {
    const file = join(dir, "race.sqlite");
    const a = openSqlite(file);
    const b = openSqlite(file);
    await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer: a });
    const first = (await a.list("t1")).at(-1) as NonNullable<Awaited<ReturnType<typeof a.latest>>>;
    await expect(b.save({ ...first, id: "other" }, null)).rejects.toBeInstanceOf(CheckpointConflictError);
    // The writer that saved last still continues its own head; a stale one (b, after a's next save) does not.
    const head = (await a.latest("t1")) as typeof first;
    await a.save({ ...head, id: "next", parentId: head.id, step: head.step + 1 }, head.id);
    await expect(b.save({ ...head, id: "late", parentId: head.id, step: head.step + 1 }, head.id)).rejects.toMatchObject({
      expectedLatestId: head.id,
      actualLatestId: "next",
    });
    expect((await b.list("t1")).map((c) => c.id).slice(0, 2)).toEqual(["next", head.id]);
    a.close();
    b.close();
  });

  it("saves and checks versions with a driver whose run() reports nothing (no rowid, no count)", async () => {
    const silent = wrappedDriver("silent", <P extends readonly unknown[], R>(_sql: string, statement: SqliteStatement<P, R>) => ({
      run: (...params: P) => void statement.run(...params),
      get: statement.get,
      all: statement.all,
    }));
    const file = join(dir, "silent.sqlite");
    const checkpointer = new SqliteCheckpointer(file, { driver: silent });
    const other = new SqliteCheckpointer(file, { driver: silent });
    const result = await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
    const history = await checkpointer.list("t1");
    expect(history[0]?.trace).toEqual(result.trace);
    expect(history.map((c) => c.step)).toEqual([...history.keys()].map((i) => history.length - 1 - i));
    const head = history[0] as (typeof history)[number];
    await other.save({ ...head, id: "theirs", parentId: head.id, step: head.step + 1 }, head.id);
    await expect(checkpointer.save({ ...head, id: "mine", parentId: head.id, step: head.step + 1 }, head.id)).rejects.toMatchObject({
      actualLatestId: "theirs",
    });
    await expect(other.save({ ...head, id: "again" }, null)).rejects.toBeInstanceOf(CheckpointConflictError);
    checkpointer.close();
    other.close();
  });

  it('works in memory with ":memory:", and names tsg.sqlite as the CLI\'s default file', async () => {
    const checkpointer = openSqlite(":memory:");
    await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer });
    expect(await checkpointer.list("t1")).toHaveLength(3);
    checkpointer.close();
    expect(DEFAULT_DB_FILE).toBe("tsg.sqlite");
  });

  it("refuses use after close with CLOSED, and closing twice does nothing", async () => {
    const checkpointer = openSqlite(join(dir, "a.sqlite"));
    checkpointer.close();
    checkpointer.close();
    await expect(checkpointer.latest("t1")).rejects.toMatchObject({
      code: "CLOSED",
      message: expect.stringMatching(/^SqliteCheckpointer\.latest: /),
    });
  });

  it("takes a driver object of the user's, and uses it for every connection", async () => {
    const opened: string[] = [];
    const builtIn = sqliteDriver(SQLITE_DRIVER);
    const logging: SqliteDriver = { name: "logging", open: (file, options) => (opened.push(options.mode), builtIn.open(file, options)) };
    const checkpointer = new SqliteCheckpointer(join(dir, "a.sqlite"), { driver: logging });
    await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer });
    expect([checkpointer.driver, opened]).toEqual(["logging", ["readwrite"]]);
    checkpointer.close();
  });

  it("lets the write-ahead log reach 4000 pages before copying it into the file (SQLite's default: 1000)", async () => {
    const file = join(dir, "wal.sqlite");
    const checkpointer = openSqlite(file);
    // Rows of about 3 KB: each save writes about 4 pages to the log, so 400 saves write some 1,600.
    const graph = new StateGraph<{ n: number; note: string }>()
      .addNode("tick", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "tick")
      .addConditionalEdges("tick", (s) => (s.n < 400 ? "again" : "stop"), { again: "tick", stop: END })
      .compile();
    await graph.invoke({ n: 0, note: "x".repeat(3000) }, { threadId: "t", checkpointer, maxSteps: 401, recursionLimit: 401 });
    // A log checkpointed at 1000 pages starts again from its beginning, and its file stays at about 1000 frames.
    const frames = (statSync(`${file}-wal`).size - 32) / (4096 + 24);
    expect(frames).toBeGreaterThan(1200);
    checkpointer.close();
    const reopened = openSqlite(file);
    expect((await reopened.latest("t"))?.state).toEqual({ n: 400, note: "x".repeat(3000) });
    reopened.close();
  });

  it("keeps one index on tsg_checkpoints, (thread_id, seq, id), in a new file and in one migrated from every earlier schema", () => {
    const indexes = (file: string) => {
      const db = rawConnection(file, "readonly");
      try {
        return db
          .prepare<[], { name: string; sql: string }>(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE 'tsg_%' ORDER BY name",
          )
          .all()
          .map((row) => `${row.name}: ${row.sql.replace(/\s+/g, " ")}`);
      } finally {
        db.close();
      }
    };
    const fresh = join(dir, "fresh.sqlite");
    openSqlite(fresh).close();
    expect(indexes(fresh)).toEqual([
      "tsg_checkpoints_thread: CREATE INDEX tsg_checkpoints_thread ON tsg_checkpoints (thread_id, seq, id)",
      "tsg_writes_thread: CREATE INDEX tsg_writes_thread ON tsg_writes (thread_id)",
    ]);
    for (const version of [1, 2, 3, 4, 5, 6, 7]) {
      const file = join(dir, `v${version}.sqlite`);
      copyFileSync(join(FIXTURES, `schema-v${version}.sqlite`), file);
      openSqlite(file).close();
      expect(indexes(file), `schema ${version}`).toEqual(indexes(fresh));
    }
  });

  it("opens a file written by schema version 1 (before checksums), migrates it, and resumes its paused thread", async () => {
    const file = join(dir, "v1.sqlite");
    copyFileSync(join(FIXTURES, "schema-v1.sqlite"), file);
    const checkpointer = openSqlite(file);
    const finished = await checkpointer.list("finished");
    expect(finished.map((c) => c.step)).toEqual([3, 2, 1, 0]);
    expect(finished[0]).toMatchObject({ state: { n: 2, note: "finished" }, metadata: { user: { who: "fixture" } } });
    const graph = counterGraph(2);
    // The fixture's "paused" thread stopped before "done"; the counter graph has the same nodes.
    const resumed = await graph.invoke(null, { threadId: "paused", checkpointer });
    expect([resumed.status, resumed.state.note, resumed.trace]).toEqual(["done", "finished", ["inc", "inc", "done"]]);
    checkpointer.close();

    const db = rawConnection(file, "readonly");
    expect(db.prepare("SELECT version FROM tsg_schema_version").all()).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
    const unchecked = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM tsg_checkpoints WHERE checksum IS NULL").get();
    expect(unchecked?.n).toBe(0);
    db.close();
  });
});

describe("SqliteCheckpointer options", () => {
  it("refuses an unknown driver with INVALID_OPTION, naming the choices", () => {
    const open = () => new SqliteCheckpointer(":memory:", { driver: "sqlite3" as "libsql" });
    expect(open).toThrow(InvalidOptionError);
    expect(open).toThrow('the driver option must be "libsql", "better-sqlite3" or an object with open(file, options); got "sqlite3"');
  });

  it.each([
    [{ synchronous: "fast" }, 'synchronous must be "normal" or "full"; got "fast"'],
    [{ busyTimeoutMs: -1 }, "busyTimeoutMs must be a whole number of milliseconds, 0 or more; got -1"],
    [{ busyTimeoutMs: Number.NaN }, "busyTimeoutMs must be a whole number of milliseconds, 0 or more; got NaN"],
    [{ readOnly: "yes" }, 'readOnly must be true or false; got "yes"'],
  ])("refuses the options %j with INVALID_OPTION", (options, message) => {
    const open = () => new SqliteCheckpointer(":memory:", options as object);
    expect(open).toThrow(InvalidOptionError);
    expect(open).toThrow(`SqliteCheckpointer: ${message}.`);
  });

  it.runIf(SQLITE_DRIVER === "libsql")("says how to install better-sqlite3 when it is chosen and missing (DRIVER_MISSING)", () => {
    let installed = true;
    try {
      sqliteDriver("better-sqlite3");
    } catch (error) {
      installed = false;
      expect(error).toMatchObject({ code: "DRIVER_MISSING", message: expect.stringContaining("npm install better-sqlite3@12") });
    }
    if (installed) console.info("[persistence tests] better-sqlite3 is installed: its DRIVER_MISSING message is not checked here.");
  });
});

describe("docs/persistence.md", () => {
  it("names every code a PersistenceError can carry", () => {
    const page = readFileSync(join(import.meta.dirname, "../../docs/persistence.md"), "utf8");
    const missing = [...PERSISTENCE_ERROR_CODES, "NOT_SERIALIZABLE", "CHECKPOINT_CONFLICT"].filter((code) => !page.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
