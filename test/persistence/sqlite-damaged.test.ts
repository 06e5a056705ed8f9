/**
 * A save to a damaged file fails with DATABASE_CORRUPT instead of reporting success (sqlite/verify.ts).
 * The file: four report threads, cut mid-page (cutMidPage). Before, a run on a new thread there ended
 * as if saved, and its history then read as thread t1's checkpoints (CHECKPOINT_CORRUPT).
 */
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildReportGraph, initialReportState } from "../../src/examples/report/index.js";
import { PersistenceError } from "../../src/persistence/index.js";
import { buildForChildProcesses } from "./_build.js";
import { cutMidPage, onDriver, openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

let build = "";
beforeAll(() => {
  build = buildForChildProcesses();
}, 120_000);

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => {
  ({ dir, remove } = tempDir());
});
afterEach(() => remove());

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("SqliteCheckpointer on a file cut mid-page"), () => {
  it("is what PRAGMA quick_check calls damaged (the case below is the reported one)", () => {
    const db = rawConnection(cutMidPage(build, join(dir, "runs.sqlite")), "readonly");
    try {
      expect(String(db.pragma("quick_check"))).toMatch(/Rowid \d+ out of order/);
    } finally {
      db.close();
    }
  });

  it("fails a run on a new thread with DATABASE_CORRUPT carrying its state, and keeps none of it", async () => {
    const file = cutMidPage(build, join(dir, "runs.sqlite"));
    const checkpointer = openSqlite(file);
    try {
      const error = await buildReportGraph()
        .invoke(initialReportState(), { threadId: "new-one", checkpointer })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code: "DATABASE_CORRUPT", threadId: "new-one", state: expect.any(Object) });
      expect((error as Error).message).toMatch(
        /^SqliteCheckpointer\.save: ".*runs\.sqlite" is damaged: the place of the row this save would write \(seq \d+\) already holds checkpoint ".*" of thread "t\d", out of order, so nothing of this save was kept\. Restore it from a backup/,
      );
      expect(await checkpointer.latest("new-one")).toBeUndefined();
    } finally {
      checkpointer.close();
    }
  });

  it("with quickCheck, refuses to open it: DATABASE_CORRUPT quoting what quick_check found", () => {
    const file = cutMidPage(build, join(dir, "runs.sqlite"));
    expect(() => openSqlite(file, { quickCheck: true })).toThrow(
      expect.objectContaining({
        code: "DATABASE_CORRUPT",
        message: expect.stringMatching(/PRAGMA quick_check reports ".*Rowid \d+ out of order/),
      }),
    );
    expect(() => openSqlite(file, { quickCheck: true, readOnly: true })).toThrow(expect.objectContaining({ code: "DATABASE_CORRUPT" }));
  });

  it("with quickCheck, opens a sound file as before", async () => {
    const file = join(dir, "sound.sqlite");
    const checkpointer = openSqlite(file, { quickCheck: true });
    await buildReportGraph().invoke(initialReportState(), { threadId: "t", checkpointer });
    checkpointer.close();
    const again = openSqlite(file, { quickCheck: true, readOnly: true });
    expect(await again.list("t")).toHaveLength(7);
    again.close();
  });
});
