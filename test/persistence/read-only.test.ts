/**
 * A store that cannot be written: a read-only file, a read-only directory (SQLite cannot create the
 * WAL's side files there) and a read-only file system. Each opens read-only by itself: history and the
 * latest state read, and a save is refused with READ_ONLY carrying the run's state. Each case runs in a
 * child process, as an unprivileged user (root ignores file modes) or in a mount namespace where the
 * directory is mounted read-only.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { buildForChildProcesses } from "./_build.js";
import { onDriver, openSqlite, SQLITE_DRIVER, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

const FIXTURE = join(import.meta.dirname, "fixtures/read-only-store.mjs");
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** Whether a command runs here (setpriv to drop root, unshare for a private read-only mount). */
function works(command: string, args: readonly string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}
// The unprivileged child must also be able to read this checkout (a clone inside a mode-700 temp
// directory is not readable by "nobody"): otherwise the case cannot run here, and says so below.
const canDropRoot = !isRoot || works("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "test", "-r", FIXTURE]);
const canMountReadOnly = works("unshare", ["-rm", "true"]);
if (!canDropRoot || !canMountReadOnly) {
  console.warn(
    `[persistence tests] read-only stores: ${canDropRoot ? "" : "cannot run as an unprivileged user who can read this checkout (setpriv); "}` +
      `${canMountReadOnly ? "" : "cannot make a private read-only mount (unshare -rm); "}those cases are skipped.`,
  );
}

interface Outcome {
  readonly readOnly: boolean;
  readonly steps: number[];
  /** How many checkpoints thread t2 has. */
  readonly otherThread: number;
  readonly state: { n: number };
  readonly save: { name: string; code: string; message: string; state?: { n: number }; trace?: string[] } | null;
}

let buildDir = "";
let dir = "";
let remove: () => void = () => undefined;
let file = "";

beforeAll(() => {
  buildDir = buildForChildProcesses();
}, 120_000);
beforeEach(async () => {
  ({ dir, remove } = tempDir());
  chmodSync(dir, 0o755);
  file = join(dir, "runs.sqlite");
  const checkpointer = openSqlite(file);
  await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
  checkpointer.close();
});
afterEach(() => {
  chmodSync(dir, 0o755);
  remove();
});

/** Runs the fixture, unprivileged; `mountReadOnly` first mounts the directory read-only in a private namespace. */
function openFromChild(options: { mountReadOnly?: boolean } = {}): Outcome {
  return JSON.parse(runChild(options)) as Outcome;
}

function runChild(options: { mountReadOnly?: boolean }): string {
  const node = [process.execPath, FIXTURE, buildDir, file, SQLITE_DRIVER];
  const command = options.mountReadOnly
    ? ["unshare", "-rm", "sh", "-c", `mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"`, dir, ...node]
    : isRoot
      ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...node]
      : node;
  const [program, ...args] = command as [string, ...string[]];
  return execFileSync(program, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function expectReadOnlyStore(outcome: Outcome): void {
  expect(outcome).toMatchObject({ readOnly: true, steps: [3, 2, 1, 0], state: { n: 2 } });
  expect(outcome.save).toMatchObject({ name: "PersistenceError", code: "READ_ONLY", state: { n: 2 }, trace: ["inc", "inc", "done"] });
  expect(outcome.save?.message).toMatch(/^SqliteCheckpointer\.save: ".*runs\.sqlite" is open read-only/);
}

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("SqliteCheckpointer where nothing can be written"), () => {
  it.skipIf(!canDropRoot).each([
    [
      "a read-only file",
      () => {
        if (isRoot) chownSync(dir, NOBODY, NOBODY);
        chmodSync(file, 0o444);
      },
    ],
    [
      "a file in a read-only directory (no WAL side files can be created: read as a snapshot)",
      () => {
        if (isRoot) chownSync(file, NOBODY, NOBODY);
        chmodSync(dir, 0o555);
      },
    ],
  ])(
    "opens %s read-only: history reads, saves are refused with READ_ONLY",
    (_what, makeReadOnly) => {
      makeReadOnly();
      expectReadOnlyStore(openFromChild());
    },
    30_000,
  );

  it.each([
    ["a read-only directory", false],
    ["a read-only file system", true],
  ])(
    "reads the checkpoints still in the WAL (left by a crash) in %s, or refuses with READ_ONLY, never missing them",
    async (_where, mountReadOnly) => {
      if (mountReadOnly ? !canMountReadOnly : !canDropRoot) return;
      // Copies taken while a connection is open, as a crash leaves them: thread t2 is only in the -wal file.
      const live = openSqlite(file);
      await counterGraph(2).invoke(counterInput(), { threadId: "t2", checkpointer: live });
      copyFileSync(file, `${file}.copy`);
      copyFileSync(`${file}-wal`, `${file}.copy-wal`);
      live.close();
      copyFileSync(`${file}.copy`, file);
      copyFileSync(`${file}.copy-wal`, `${file}-wal`);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      if (isRoot) chownSync(file, NOBODY, NOBODY);
      if (!mountReadOnly) chmodSync(dir, 0o555);
      let outcome: Outcome | undefined;
      try {
        outcome = openFromChild({ mountReadOnly });
      } catch (error) {
        expect(String((error as { stderr?: unknown }).stderr)).toContain(
          "still holds checkpoints that only a writable connection can read",
        );
      }
      if (outcome !== undefined) expect([outcome.readOnly, outcome.otherThread]).toEqual([true, 4]);
    },
    30_000,
  );

  it.skipIf(!canMountReadOnly)(
    "opens a file on a read-only file system",
    () => {
      expectReadOnlyStore(openFromChild({ mountReadOnly: true }));
    },
    30_000,
  );
});
