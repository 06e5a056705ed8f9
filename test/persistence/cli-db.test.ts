/**
 * `tsg` against odd `--db` files and thread ids, as a user runs it: a child process, its exit code, its
 * stderr, and the bytes it left on disk. What a command refuses it refuses before it writes anything.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildForChildProcesses } from "./_build.js";
import { SQLITE_DRIVER_INSTALLED } from "./_helpers.js";

let main = "";
beforeAll(() => {
  main = join(buildForChildProcesses(), "cli/main.js");
}, 120_000);

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tsg-cli-db-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `tsg ...argv` in the test's directory. */
function tsg(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [main, ...argv], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(!SQLITE_DRIVER_INSTALLED)("tsg and a thread id no store can key by", () => {
  it("refuses a 10 KB --thread with exit 2, naming the limit, and creates no database", () => {
    const { code, stderr } = tsg("report", "--thread", "x".repeat(10_240), "--db", "runs.sqlite");
    expect(code).toBe(2);
    expect(stderr).toMatch(/^tsg report: --thread: the thread id "x+…" takes 10240 bytes of UTF-8, more than the 1024 every store accepts/);
    expect(existsSync(join(dir, "runs.sqlite"))).toBe(false);
  });

  it("keeps a --thread of 1024 bytes, the longest allowed, and lists it", () => {
    const thread = "é".repeat(512);
    expect(tsg("report", "--thread", thread, "--db", "runs.sqlite").code).toBe(0);
    const listed = tsg("history", "--thread", thread, "--db", "runs.sqlite");
    expect([listed.code, listed.stderr]).toEqual([0, ""]);
    expect(listed.stdout).toContain("7 checkpoints, newest first");
  });
});
