/** tsg report --thread, tsg resume and tsg history: pause before publish (exit 3), approve, edit, list. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { SqliteCheckpointer } from "../../src/persistence/index.js";

let dir = "";
let db = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tsg-cli-"));
  db = join(dir, "runs.sqlite");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const BRIEF = ["Tokyo: 18.0°C / 64.4°F, cloudy.", "Paris: 12.0°C / 53.6°F, light rain.", "Fixed teaching data, not live weather."];

describe("tsg report --thread --interrupt-before publish", () => {
  it("pauses before publish: prints the checked draft and the thread, and exits 3", async () => {
    const { code, out, err } = await tsg("report", "--thread", "brief-1", "--db", db, "--interrupt-before", "publish");
    expect([code, err]).toEqual([3, ""]);
    expect(out.split("\n")).toEqual([
      "paused before: publish",
      `thread: brief-1 (${db})`,
      "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> revised draft -> checked draft: accepted",
      "draft:",
      ...BRIEF,
      "",
      `Approve: tsg resume --thread brief-1 --db ${db} --approve`,
      `Edit:    tsg resume --thread brief-1 --db ${db} --edit-notice "TEXT"  (the edited draft is checked again)`,
      "",
    ]);
  });

  it("without an interrupt, saves as it goes and prints what tsg report prints, plus the thread", async () => {
    const { code, out } = await tsg("report", "--thread", "brief-1", "--db", db);
    expect(code).toBe(0);
    expect(out.split("\n").slice(0, 2)).toEqual([
      "status: completed revisions: 1",
      "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> revised draft -> checked draft: accepted -> published brief",
    ]);
    expect(out).toContain(`thread: brief-1 (${db})`);
    const checkpointer = new SqliteCheckpointer(db);
    expect(await checkpointer.list("brief-1")).toHaveLength(7);
    checkpointer.close();
  });

  it("uses tsg.sqlite in the current directory by default", async () => {
    const original = process.cwd();
    process.chdir(dir);
    try {
      const paused = await tsg("report", "--thread", "t", "--interrupt-before", "publish");
      expect(paused.code).toBe(3);
      expect(paused.out).toContain("thread: t (tsg.sqlite)\n");
      expect(paused.out).toContain("Approve: tsg resume --thread t --approve\n");
      expect(existsSync(join(dir, "tsg.sqlite"))).toBe(true);
      expect((await tsg("resume", "--thread", "t", "--approve")).code).toBe(0);
    } finally {
      process.chdir(original);
    }
  });

  it.each([
    [["--interrupt-before", "publish"], "--db and --interrupt-before need --thread T"],
    [
      ["--thread", "t", "--interrupt-before", "pubish"],
      "--interrupt-before must be one of collect, write_draft, check_draft, revise_draft, publish, hold",
    ],
  ])("rejects %j with exit 2", async (argv, message) => {
    const { code, err } = await tsg("report", ...argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it("refuses to start a new run on a thread whose run is waiting", async () => {
    await tsg("report", "--thread", "t", "--db", db, "--interrupt-before", "publish");
    const { code, err } = await tsg("report", "--thread", "t", "--db", db);
    expect(code).toBe(2);
    expect(err).toContain(`thread "t" has a run waiting before publish; continue it with tsg resume --thread t`);
  });
});

describe("tsg resume", () => {
  beforeEach(async () => {
    expect((await tsg("report", "--thread", "t", "--db", db, "--interrupt-before", "publish")).code).toBe(3);
  });

  it("--approve publishes the paused draft: exit 0", async () => {
    const { code, out, err } = await tsg("resume", "--thread", "t", "--db", db, "--approve");
    expect([code, err]).toEqual([0, ""]);
    expect(out.split("\n")).toEqual([
      "status: completed revisions: 1",
      "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> revised draft -> checked draft: accepted -> published brief",
      ...BRIEF,
      `thread: t (${db})`,
      "",
    ]);
  });

  it("--edit-notice sends the edited draft back through check_draft; the required notice passes and pauses again", async () => {
    const { code, out } = await tsg("resume", "--thread", "t", "--db", db, "--edit-notice", "Fixed teaching data, not live weather.");
    expect(code).toBe(3);
    expect(out).toContain("revised draft -> checked draft: accepted -> edited notice by hand -> checked draft: accepted\n");
    expect((await tsg("resume", "--thread", "t", "--db", db, "--approve")).code).toBe(0);
  });

  it("--edit-notice with a wrong notice: the check rejects it and, with no revision left, the draft is held (exit 1)", async () => {
    const { code, out } = await tsg("resume", "--thread", "t", "--db", db, "--edit-notice", "Live weather!");
    expect(code).toBe(1);
    expect(out).toContain("edited notice by hand -> checked draft: missing_fixed_data_notice -> held draft: revision limit reached");
    expect(out).toContain("status: needs_attention revisions: 1");
  });

  it("without --approve or --edit-notice, a paused thread stays paused: exit 2", async () => {
    const { code, err } = await tsg("resume", "--thread", "t", "--db", db);
    expect(code).toBe(2);
    expect(err).toContain(`thread "t" is paused before publish: pass --approve to continue, or --edit-notice TEXT to change the draft.`);
  });

  it.each([
    [["--db", "DB"], "--thread T is required"],
    [["--thread", "nobody", "--db", "DB"], `thread "nobody" has no checkpoint in`],
    [["--thread", "t", "--db", "DB", "--approve", "--edit-notice", "x"], "pass --approve or --edit-notice TEXT, not both"],
    [["--thread", "t", "--db", "DB", "--checkpoint", "nope"], `thread "t" has no checkpoint "nope"`],
  ])("rejects %j with exit 2", async (argv, message) => {
    const { code, err } = await tsg("resume", ...argv.map((a) => (a === "DB" ? db : a)));
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it("--checkpoint resumes from an older checkpoint, forking a branch", async () => {
    const checkpointer = new SqliteCheckpointer(db);
    const history = await checkpointer.list("t");
    checkpointer.close();
    const afterCollect = history.find((c) => c.metadata.writes.includes("collect"));
    const { code } = await tsg("resume", "--thread", "t", "--db", db, "--checkpoint", afterCollect?.id ?? "", "--approve");
    expect(code).toBe(3);
    const reopened = new SqliteCheckpointer(db);
    expect((await reopened.latest("t"))?.trace).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft"]);
    expect(await reopened.list("t")).toHaveLength(history.length + 4);
    reopened.close();
  });
});

describe("tsg history", () => {
  it("lists the checkpoints newest first, with what each recorded and what runs next", async () => {
    await tsg("report", "--thread", "t", "--db", db, "--interrupt-before", "publish");
    const { code, out } = await tsg("history", "--thread", "t", "--db", db);
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe(`thread t (${db}): 6 checkpoints, newest first`);
    expect(lines[1]).toMatch(/^step\s+source\s+wrote\s+next\s+id\s+created$/);
    expect(lines.slice(2).map((line) => line.split(/\s{2,}/).slice(0, 4))).toEqual([
      ["5", "loop", "check_draft", "publish"],
      ["4", "loop", "revise_draft", "check_draft"],
      ["3", "loop", "check_draft", "revise_draft"],
      ["2", "loop", "write_draft", "check_draft"],
      ["1", "loop", "collect", "write_draft"],
      ["0", "input", "-", "collect"],
    ]);
  });

  it("exits 2 for an unknown thread", async () => {
    await tsg("report", "--thread", "somebody", "--db", db);
    const { code, err } = await tsg("history", "--thread", "nobody", "--db", db);
    expect(code).toBe(2);
    expect(err).toContain(`thread "nobody" has no checkpoint in ${db}`);
    expect(err.endsWith("Run `tsg history --help` for the options.\n")).toBe(true);
  });

  it("never creates the database it was asked to read: --db typo.sqlite exits 2 and leaves no file", async () => {
    const typo = join(dir, "typo.sqlite");
    const { code, err } = await tsg("history", "--thread", "t", "--db", typo);
    expect(code).toBe(2);
    expect(err).toBe(
      `tsg history: --db ${typo}: no such file. tsg report --thread T creates it; check the path (the default is tsg.sqlite).\nRun \`tsg history --help\` for the options.\n`,
    );
    expect(existsSync(typo)).toBe(false);
    expect((await tsg("resume", "--thread", "t", "--db", typo)).code).toBe(2);
    expect(existsSync(typo)).toBe(false);
  });
});
