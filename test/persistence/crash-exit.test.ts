/**
 * `durability: "exit"` under SIGKILL: a child runs 8 supersteps whose nodes await I/O, storing nothing
 * until the run ends; the test kills it at arbitrary moments. After each kill the thread is at the
 * checkpoint the run started from or at the run's final one: never between, never doubled, the file intact.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteCheckpointer } from "../../src/persistence/index.js";
import { childProcessSuite } from "./_build.js";
import { onDriver, rawConnection, SQLITE_DRIVER, SQLITE_DRIVER_INSTALLED } from "./_helpers.js";

const FIXTURE = join(import.meta.dirname, "fixtures/crash-exit.mjs");
/** The input's checkpoint and one per node: what one run adds to the thread. */
const PER_RUN = 9;

const suite = childProcessSuite();

interface Finished {
  readonly status: string;
  readonly state: { n: number; log: string[] };
  readonly checkpointId: string;
}

/** Runs the fixture; kills it `killAfterMs` after its run starts (none: to its end). */
async function child(db: string, mode: "setup" | "exit", delayMs: number, killAfterMs?: number) {
  const proc = spawn(process.execPath, [FIXTURE, suite.buildDir, db, "t", String(delayMs), SQLITE_DRIVER, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let timer: NodeJS.Timeout | undefined;
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (killAfterMs !== undefined && timer === undefined && out.startsWith("start\n"))
      timer = setTimeout(() => proc.kill("SIGKILL"), killAfterMs);
  });
  proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const ended = await exit;
  clearTimeout(timer);
  if (ended.signal === null && ended.code !== 0) throw new Error(`the child exited with ${ended.code}: ${err}`);
  return {
    killed: ended.signal === "SIGKILL",
    finished: ended.code === 0 ? (JSON.parse(out.slice("start\n".length)) as Finished) : undefined,
  };
}

/** The thread's checkpoints, newest first, and the file's integrity. */
async function thread(db: string) {
  const store = new SqliteCheckpointer(db, { driver: SQLITE_DRIVER, readOnly: true });
  try {
    const history = await store.list("t");
    const raw = rawConnection(db, "readonly");
    const integrity = raw.pragma("integrity_check");
    raw.close();
    return { history, integrity };
  } finally {
    store.close();
  }
}

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver('durability "exit" under SIGKILL'), () => {
  it("leaves the thread at its pre-run checkpoint or its final one after every kill, never between, never doubled", async () => {
    const db = join(suite.dir, "exit.sqlite");
    await child(db, "setup", 0);
    const before = await thread(db);
    expect(before.history.length).toBe(PER_RUN);
    const preRun = before.history[0]?.id;
    // Each node awaits 15 ms: a run takes 120 ms and more; kills fall inside it, at its end and after it.
    const counts = { kills: 0, atPreRun: 0, atFinal: 0 };
    for (const killAfterMs of [3, 40, 17, 90, 60, 110, 125, 130, 140, 160, 200, 400, 1000]) {
      const { killed, finished } = await child(db, "exit", 15, killAfterMs);
      const { history, integrity } = await thread(db);
      expect(integrity).toBe("ok");
      if (killed) counts.kills += 1;
      if (history.length === PER_RUN) {
        expect(history[0]?.id).toBe(preRun);
        expect(finished).toBeUndefined();
        counts.atPreRun += 1;
        continue;
      }
      // The run's 9 checkpoints, all of them, once: its final one is the thread's latest.
      expect(history.length).toBe(2 * PER_RUN);
      const final = history[0];
      expect(final?.next).toEqual([]);
      expect(final?.state.log).toEqual(["setup", "a", "b", "c", "d", "e", "f", "g", "h", "exit", "a", "b", "c", "d", "e", "f", "g", "h"]);
      expect(history[PER_RUN]?.id).toBe(preRun);
      expect(history[PER_RUN - 1]?.parentId).toBe(preRun);
      if (finished !== undefined) expect(finished.checkpointId).toBe(final?.id);
      counts.atFinal += 1;
      break;
    }
    console.info(
      `durability "exit" under SIGKILL: ${counts.kills} kills, ${counts.atPreRun} at the pre-run checkpoint, ${counts.atFinal} at the final one`,
    );
    expect(counts.kills).toBeGreaterThan(0);
    // A last run to the end, unkilled: the thread has exactly one more run's checkpoints.
    if (counts.atFinal === 0) {
      await child(db, "exit", 15);
      expect((await thread(db)).history.length).toBe(2 * PER_RUN);
    }
  }, 120_000);
});
