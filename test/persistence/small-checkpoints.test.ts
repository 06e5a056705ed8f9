/**
 * Small checkpoints in the SQLite file (schema 4): a row stores its trace and routes as a delta against
 * its parent, so the bytes per checkpoint stay flat as a thread grows; reads rebuild them; files of
 * earlier schemas migrate and read as their own version read them; damage is CHECKPOINT_CORRUPT.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SQLITE_SCHEMA_VERSION, type Checkpoint } from "../../src/persistence/index.js";
import { counterGraph, tickerGraph as ticker } from "../helpers/graphs.js";
import { onDriver, openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";
import { checkMigratedThreads, expectedThreads } from "./_schema-fixture.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

const FIXTURES = join(import.meta.dirname, "fixtures");

/** The bytes each stored row of the thread takes (body and delta), oldest first. */
function rowBytes(file: string, thread: string): number[] {
  const db = rawConnection(file, "readonly");
  try {
    return db
      .prepare<[string], { bytes: number }>(
        "SELECT length(body) + coalesce(length(delta), 0) AS bytes FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq",
      )
      .all(thread)
      .map((row) => row.bytes);
  } finally {
    db.close();
  }
}

/** Changes one stored column of the thread's row `index` (oldest first), behind the checkpointer's back. */
function damage(file: string, thread: string, index: number, column: "delta" | "body", change: (text: string) => string): void {
  const db = rawConnection(file);
  try {
    const rows = db
      .prepare<[string], { seq: number; text: string }>(
        `SELECT seq, ${column} AS text FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq`,
      )
      .all(thread);
    const row = rows[index] as { seq: number; text: string };
    db.prepare<[string, number]>(`UPDATE tsg_checkpoints SET ${column} = ? WHERE seq = ?`).run(change(row.text), row.seq);
  } finally {
    db.close();
  }
}

// Skipped (with a printed message) only when TSG_SQLITE_DRIVER names a driver that is not installed; .ci/run makes that a failure.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("small checkpoints"), () => {
  it("stores a flat number of bytes per checkpoint however long the thread, and reads every one whole", async () => {
    const file = join(dir, "long.sqlite");
    const checkpointer = openSqlite(file);
    const result = await ticker(600).invoke({ n: 0 }, { threadId: "long", checkpointer, maxSteps: 1000, recursionLimit: 1000 });
    expect(result.trace).toHaveLength(600);
    const bytes = rowBytes(file, "long");
    expect(bytes).toHaveLength(601);
    // The 600th checkpoint's row is no bigger than the 10th's, give or take the digits of n.
    expect((bytes[600] as number) / (bytes[10] as number)).toBeLessThan(1.1);
    const history = await checkpointer.list("long");
    expect(history.map((c) => c.trace.length)).toEqual(Array.from({ length: 601 }, (_, i) => 600 - i));
    expect(history[0]?.trace).toEqual(result.trace);
    expect(history[0]?.routes).toEqual(result.routes);
    // A fresh connection (nothing at hand) rebuilds the same from the file.
    checkpointer.close();
    const fresh = openSqlite(file);
    expect(await fresh.latest("long")).toEqual(history[0]);
    expect(await fresh.get("long", (history[300] as Checkpoint).id)).toEqual(history[300]);
    fresh.close();
  });

  it("two connections on one file: each reads what the other saved, its own cache notwithstanding", async () => {
    const file = join(dir, "shared.sqlite");
    const a = openSqlite(file);
    const b = openSqlite(file);
    const graph = counterGraph(2);
    await graph.invoke({ n: 0, log: [], note: null, nested: { items: [] } }, { threadId: "t", checkpointer: a });
    await graph.invoke({ n: 0, log: [], note: null, nested: { items: [] } }, { threadId: "t", checkpointer: b });
    const viaA = await a.list("t");
    expect(await b.list("t")).toEqual(viaA);
    expect(await a.latest("t")).toEqual(viaA[0]);
    await b.deleteThread("t");
    await graph.invoke({ n: 1, log: [], note: null, nested: { items: [] } }, { threadId: "t", checkpointer: b });
    expect(await a.latest("t")).toEqual(await b.latest("t"));
    a.close();
    b.close();
  });

  describe.each([2, 3, 4, 5, 6, 7])("a file of schema %i", (version) => {
    it(`migrates to schema ${SQLITE_SCHEMA_VERSION} and reads every thread as schema ${version} did; resumes, forks and prunes`, async () => {
      const file = join(dir, `v${version}.sqlite`);
      copyFileSync(join(FIXTURES, `schema-v${version}.sqlite`), file);
      const checkpointer = openSqlite(file);
      const db = rawConnection(file, "readonly");
      expect(db.prepare("SELECT version FROM tsg_schema_version").all()).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
      db.close();
      // Schema 3 on kept "left"'s write of the failed parallel superstep; schema 2 kept none.
      await checkMigratedThreads(checkpointer, expectedThreads(join(FIXTURES, `schema-v${version}.expected.json`)), version !== 2);
      checkpointer.close();
    });
  });

  it("a file of schema 4 keeps its SHA-256 checksums, checked as before, beside the CRC-32s of the rows written after", async () => {
    const file = join(dir, "v4-checksums.sqlite");
    copyFileSync(join(FIXTURES, "schema-v4.sqlite"), file);
    const checksums = () => {
      const db = rawConnection(file, "readonly");
      try {
        return db
          .prepare<[], { body: number; delta: number }>(
            "SELECT length(checksum) AS body, length(delta_checksum) AS delta FROM tsg_checkpoints WHERE thread_id = 'paused' ORDER BY seq",
          )
          .all()
          .map((row) => `${row.body}/${row.delta}`);
      } finally {
        db.close();
      }
    };
    const before = checksums();
    expect(new Set(before)).toEqual(new Set(["64/64"]));
    const checkpointer = openSqlite(file);
    await counterGraph(2).invoke(null, { threadId: "paused", checkpointer });
    checkpointer.close();
    // The old rows as they were; the one the resume added has a CRC-32 for its body and its delta.
    expect(checksums()).toEqual([...before, "8/8"]);
    const reopened = openSqlite(file);
    expect((await reopened.latest("paused"))?.trace).toEqual(["inc", "inc", "done"]);
    reopened.close();
    // A changed byte in an old row is still found by its SHA-256; one in the new row, by its CRC-32.
    damage(file, "paused", 0, "body", (text) => text.replace('"n":0', '"n":7'));
    const damaged = openSqlite(file);
    await expect(damaged.list("paused")).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
    damaged.close();
    damage(file, "paused", 0, "body", (text) => text.replace('"n":7', '"n":0'));
    damage(file, "paused", before.length, "body", (text) => text.replace('"note":"finished"', '"note":"finishes"'));
    const again = openSqlite(file);
    const error = (await again.latest("paused").catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: "CHECKPOINT_CORRUPT" });
    expect(error.message).toContain("its stored body does not match its checksum");
    expect((await again.list("paused", { limit: 1 }).catch((e: unknown) => e)) as Error).toMatchObject({ code: "CHECKPOINT_CORRUPT" });
    again.close();
  });

  describe("damage", () => {
    async function threeSupersteps(file: string) {
      const checkpointer = openSqlite(file);
      await ticker(3).invoke({ n: 0 }, { threadId: "t", checkpointer });
      checkpointer.close();
    }

    it("a changed byte in a checkpoint's delta is CHECKPOINT_CORRUPT naming it, in latest, get and list", async () => {
      const file = join(dir, "flip.sqlite");
      await threeSupersteps(file);
      damage(file, "t", 3, "delta", (text) => text.replace('"tick"', '"tack"'));
      const checkpointer = openSqlite(file);
      const error = await checkpointer.latest("t").catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CHECKPOINT_CORRUPT", threadId: "t" });
      expect((error as Error).message).toContain("its stored trace delta does not match its checksum");
      await expect(checkpointer.list("t")).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      // Its parent still reads, and a prune that would need the damaged row removes nothing.
      const history = await checkpointer.list("t", { limit: 3 }).catch((e: unknown) => e);
      expect(history).toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      checkpointer.close();
    });

    it("a damaged ancestor is CHECKPOINT_CORRUPT for the checkpoints that need it; a prune that needs it removes nothing", async () => {
      const file = join(dir, "ancestor.sqlite");
      await threeSupersteps(file);
      const raw = rawConnection(file);
      const id = raw.prepare<[], { id: string }>("SELECT id FROM tsg_checkpoints ORDER BY seq LIMIT 1 OFFSET 1").get()?.id;
      raw.close();
      damage(file, "t", 1, "delta", (text) => text.replace("[0,[", '[0,["x",'));
      const checkpointer = openSqlite(file);
      await expect(checkpointer.latest("t")).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT", checkpointId: id });
      await expect(checkpointer.prune("t", { keepLast: 1 })).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      expect(rowBytes(file, "t")).toHaveLength(4);
      checkpointer.close();
    });

    it("a delta that keeps more than its parent holds is CHECKPOINT_CORRUPT, even with a valid checksum", async () => {
      const file = join(dir, "keep.sqlite");
      await threeSupersteps(file);
      const db = rawConnection(file);
      const row = db.prepare<[], { seq: number; delta: string }>("SELECT seq, delta FROM tsg_checkpoints ORDER BY seq DESC LIMIT 1").get();
      const delta = (row?.delta ?? "").replace(/"trace":\[\d+,/, '"trace":[99,');
      const { checksumOf } = await import("../../src/persistence/sqlite/body.js");
      db.prepare<[string, string, number]>("UPDATE tsg_checkpoints SET delta = ?, delta_checksum = ? WHERE seq = ?").run(
        delta,
        checksumOf(delta),
        row?.seq ?? 0,
      );
      db.close();
      const checkpointer = openSqlite(file);
      const error = (await checkpointer.latest("t").catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      expect(error.message).toContain("keeps more entries than its parent has");
      checkpointer.close();
    });

    it("a run saves past a damaged parent: the new checkpoint stores its whole lists, nothing committed is lost", async () => {
      const file = join(dir, "past.sqlite");
      const checkpointer = openSqlite(file);
      const graph = ticker(3);
      const paused = await graph.invoke({ n: 0 }, { threadId: "t", checkpointer, maxSteps: 2 }).catch((e: unknown) => e);
      expect(paused).toMatchObject({ code: "STEP_LIMIT" });
      const latest = (await checkpointer.latest("t")) as Checkpoint;
      checkpointer.close();
      // Damage the row before the latest: the latest's own delta continues it.
      damage(file, "t", 1, "delta", (text) => text.replace("tick", "tock"));
      const reopened = openSqlite(file);
      // The latest cannot be read whole any more; a checkpoint saved after it still is (it keeps its whole lists).
      await expect(reopened.latest("t")).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      await reopened.save({ ...latest, id: "whole", parentId: latest.id, step: latest.step + 1 }, latest.id);
      expect(await reopened.get("t", "whole")).toEqual({ ...latest, id: "whole", parentId: latest.id, step: latest.step + 1 });
      reopened.close();
    });
  });
});
