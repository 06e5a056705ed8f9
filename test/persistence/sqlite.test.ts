/** What the SQLite checkpointer adds to the contract: WAL, the schema version table, reopening, several connections. */
import { createRequire } from "node:module";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CheckpointConflictError,
  DEFAULT_DB_FILE,
  PersistenceError,
  SQLITE_SCHEMA_VERSION,
  SqliteCheckpointer,
} from "../../src/persistence/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { tempDir } from "./_helpers.js";

const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

describe("SqliteCheckpointer", () => {
  it("opens the file in WAL mode and records the schema version in its own table", () => {
    const file = join(dir, "a.sqlite");
    new SqliteCheckpointer(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT version FROM tsg_schema_version").all()).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
    db.close();
  });

  it("keeps every checkpoint when the file is reopened", async () => {
    const file = join(dir, "a.sqlite");
    const first = new SqliteCheckpointer(file);
    const result = await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer: first });
    first.close();
    const second = new SqliteCheckpointer(file);
    expect((await second.latest("t1"))?.id).toBe(result.checkpointId);
    expect(await second.list("t1")).toHaveLength(4);
    second.close();
  });

  it("refuses a file written with a newer schema, and leaves it as it was", () => {
    const file = join(dir, "newer.sqlite");
    new SqliteCheckpointer(file).close();
    const db = new Database(file);
    db.prepare("UPDATE tsg_schema_version SET version = ?").run(SQLITE_SCHEMA_VERSION + 1);
    db.close();
    const open = () => new SqliteCheckpointer(file);
    expect(open).toThrow(PersistenceError);
    expect(open).toThrow(`has schema version ${SQLITE_SCHEMA_VERSION + 1}, written by a newer typed-state-graph`);
  });

  it("applies the version check across connections (as across processes)", async () => {
    const file = join(dir, "shared.sqlite");
    const a = new SqliteCheckpointer(file);
    const b = new SqliteCheckpointer(file);
    const graph = counterGraph(1);
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer: a });
    const latest = await b.latest("t1");
    await graph.updateState("t1", { n: 5 }, { checkpointer: a });
    const stale = { ...(latest as NonNullable<typeof latest>), id: "late", parentId: latest?.id ?? null };
    await expect(b.save(stale, latest?.id ?? null)).rejects.toBeInstanceOf(CheckpointConflictError);
    a.close();
    b.close();
  });

  it('works in memory with ":memory:", and names tsg.sqlite as the CLI\'s default file', async () => {
    const checkpointer = new SqliteCheckpointer(":memory:");
    await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer });
    expect(await checkpointer.list("t1")).toHaveLength(3);
    checkpointer.close();
    expect(DEFAULT_DB_FILE).toBe("tsg.sqlite");
  });
});
