/**
 * `tsg` against odd `--db` files and thread ids, as a user runs it: a child process, its exit code, its
 * stderr, and the bytes it left on disk. What a command refuses it refuses before it writes anything.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildForChildProcesses } from "./_build.js";
import { cutMidPage, rawConnection, SQLITE_DRIVER_INSTALLED } from "./_helpers.js";

let build = "";
let main = "";
beforeAll(() => {
  build = buildForChildProcesses();
  main = join(build, "cli/main.js");
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

/** A database with a paused report thread "t", in rollback-journal mode (what SQLite makes by default), changed by `sql`. */
function rollbackFile(sql: string): string {
  const file = join(dir, "runs.sqlite");
  expect(tsg("report", "--thread", "t", "--db", file, "--interrupt-before", "publish").code).toBe(3);
  const db = rawConnection(file);
  db.pragma("journal_mode = DELETE");
  if (sql !== "") db.exec(sql);
  db.close();
  // Bytes 18 and 19 of the header: 1 1 for a rollback journal, 2 2 for WAL.
  expect([...readFileSync(file).subarray(18, 20)]).toEqual([1, 1]);
  return file;
}

/** The directory's files besides the database: the side files SQLite creates (-wal, -shm, -journal). */
const sideFiles = () => readdirSync(dir).filter((name) => name !== "runs.sqlite");

describe.skipIf(!SQLITE_DRIVER_INSTALLED)("tsg leaves a file it refuses byte-identical", () => {
  describe.each([
    ["a newer schema version", "UPDATE tsg_schema_version SET version = version + 1", /has schema version \d+, written by a newer/],
    ["a version that is not an integer", "UPDATE tsg_schema_version SET version = 'two'", /records the version "two"/],
    ["no version table", "DROP TABLE tsg_schema_version", /has a tsg_checkpoints table but no tsg_schema_version table/],
  ])("a rollback-journal file with %s", (_what, sql, message) => {
    it.each([
      ["history", ["history", "--thread", "t"]],
      ["report", ["report", "--thread", "t"]],
      ["resume", ["resume", "--thread", "t", "--approve"]],
    ])("tsg %s exits 2 with the schema problem and writes nothing (the header stays 1 1)", (_command, argv) => {
      const file = rollbackFile(sql);
      const before = readFileSync(file);
      const { code, stderr } = tsg(...argv, "--db", file);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(sideFiles()).toEqual([]);
    });
  });

  it("tsg history on a 0-byte file exits 2 and leaves it empty", () => {
    const file = join(dir, "runs.sqlite");
    writeFileSync(file, "");
    const { code, stderr } = tsg("history", "--thread", "t", "--db", file);
    expect(code).toBe(2);
    expect(stderr).toMatch(/has no checkpoint tables \(it is empty, or not a checkpoint database\), and it was opened read-only/);
    expect(readFileSync(file).length).toBe(0);
    expect(sideFiles()).toEqual([]);
  });

  it("tsg history reads a WAL file without changing it or leaving -wal and -shm files behind", () => {
    // Written by a child process: the test's own connection could keep the side files open until it is collected.
    const file = join(dir, "runs.sqlite");
    expect(tsg("report", "--thread", "t", "--db", file, "--interrupt-before", "publish").code).toBe(3);
    expect(sideFiles()).toEqual([]);
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([2, 2]);
    const before = readFileSync(file);
    const listed = tsg("history", "--thread", "t", "--db", file);
    expect([listed.code, listed.stderr]).toEqual([0, ""]);
    expect(listed.stdout).toMatch(/^thread t \(.*\): 6 checkpoints, newest first/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(sideFiles()).toEqual([]);
  });
});

describe.skipIf(!SQLITE_DRIVER_INSTALLED)("tsg and a damaged file", () => {
  it("refuses a file cut mid-page with exit 2, quoting PRAGMA quick_check, before writing to it", () => {
    // Before: exit 0, and tsg history --thread new-one then failed CHECKPOINT_CORRUPT naming thread t1.
    const file = cutMidPage(build, join(dir, "runs.sqlite"));
    const before = readFileSync(file);
    const { code, stderr } = tsg("report", "--thread", "new-one", "--db", file);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^tsg report: --db .*runs\.sqlite: SqliteCheckpointer: ".*" is damaged: PRAGMA quick_check reports ".*Rowid \d+ out of order/,
    );
    expect(stderr).toContain("Restore it from a backup");
    expect(readFileSync(file).equals(before)).toBe(true);
    const listed = tsg("history", "--thread", "t1", "--db", file);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/is damaged: PRAGMA quick_check reports/);
  });
});
