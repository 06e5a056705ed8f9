/**
 * Every value tsg echoes is cut to a readable length and says how much was cut (src/inspect/echo.ts,
 * the one helper): a 10,000-city --cities was 80 KB of stderr.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { cut, cutLines, ECHO_LIMIT, LINE_LIMIT, quote } from "../../src/inspect/echo.js";
import { assertBuilt, runTsg } from "./_child.js";

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const long = "x".repeat(10_000);

/** The control characters (C0, DEL, C1) in `text`: what a terminal would act on. */
const controlsIn = (text: string): string[] => [...text].filter((char) => char < "\u0020" || (char >= "\u007f" && char <= "\u009f"));

describe("the helper", () => {
  it("cuts to the limit and says how many characters were cut; short text is untouched", () => {
    expect(cut("short")).toBe("short");
    expect(cut("a".repeat(ECHO_LIMIT))).toBe("a".repeat(ECHO_LIMIT));
    expect(cut("a".repeat(ECHO_LIMIT + 1))).toBe(`${"a".repeat(ECHO_LIMIT)}… (1 more character)`);
    expect(cut(long)).toBe(`${"x".repeat(ECHO_LIMIT)}… (9,920 more characters)`);
    expect(quote("brief-1")).toBe('"brief-1"');
    expect(quote(long)).toBe(`"${"x".repeat(ECHO_LIMIT - 1)}… (9,922 more characters)`);
    expect(cutLines(`${long}\nshort`)).toBe(`${"x".repeat(LINE_LIMIT)}… (9,500 more characters)\nshort`);
  });

  it("escapes control characters as quote() does: a path or id never reaches the terminal raw", () => {
    const hostile = "a\u001b[2Jb\nc\td\r\u0000\u007f\u009b31m";
    expect(cut(hostile)).toBe("a\\u001b[2Jb\\nc\\td\\r\\u0000\\u007f\\u009b31m");
    expect(cut("\u001b".repeat(ECHO_LIMIT + 5))).toBe(`${"\\u001b".repeat(ECHO_LIMIT)}… (5 more characters)`);
    expect(quote("a\u001bb\n")).toBe(JSON.stringify("a\u001bb\n"));
    for (const text of [hostile, "\u001b".repeat(200), `path/${"\n".repeat(100)}`]) expect(controlsIn(cut(text))).toEqual([]);
    expect(cut("ünïcödé ✓ 😀")).toBe("ünïcödé ✓ 😀");
  });

  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(ECHO_LIMIT - 1)}😀${"b".repeat(10)}`;
    expect(cut(text)).toBe(`${"a".repeat(ECHO_LIMIT - 1)}… (12 more characters)`);
  });
});

describe("tsg report --cities with 10,000 items (a child process)", () => {
  it("echoes a readable line, saying how much was cut", async () => {
    assertBuilt();
    const cities = Array.from({ length: 10_000 }, () => "Tokyo").join(",");
    const { code, stdout, stderr } = await runTsg(["report", "--cities", cities]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr.length).toBeLessThan(600);
    expect(stderr).toMatch(
      /^tsg report: initialReportState: cities must list one or two of Tokyo and Paris; got an array \["Tokyo","Tokyo",.*… \([\d,]+ more characters\)\nRun `tsg report --help` for the options\.\n$/,
    );
    const blank = await runTsg(["report", "--cities", `${cities},`]);
    expect(blank.stderr.split("\n")[0]).toBe(
      `tsg report: --cities must list city names separated by commas, e.g. --cities Tokyo,Paris; got ${quote(`${cities},`)}.`,
    );
    expect(blank.stderr.split("\n")[0]).toContain("… (59,922 more characters).");
  });
});

describe("every other echo is cut too", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "tsg-echo-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ["an unknown command", ["nope-" + long], "tsg: unknown command"],
    ["a choice", ["diagram", "report", "--format", long], "tsg diagram: --format must be one of mermaid, dot, json; got"],
    ["an integer", ["report", "--max-steps", long], "tsg report: --max-steps must be an integer ≥ 1; got"],
    ["a graph name", ["check", `unknown${long}`], "tsg check: unknown graph"],
    ["a module path", ["check", `./${long}.mjs`], "tsg check: cannot find the module"],
    ["extra arguments", ["paths", "report", "agent", long], "tsg paths: name one GRAPH"],
    ["a blank topic", ["research", "--topic", ` ${" ".repeat(10_000)}`], "tsg research: --topic must be non-blank text; got"],
    ["an unknown option", ["report", `--${long}`], "tsg report: Unknown option"],
  ])("%s", async (_what, argv, start) => {
    const { code, err } = await tsg(...argv);
    const line = err.split("\n")[0] ?? "";
    expect(code).toBe(2);
    expect(line.startsWith(start)).toBe(true);
    expect(line.length).toBeLessThan(600);
    expect(line).toMatch(/… \([\d,]+ more characters\)/);
  });

  it("a thread id and a --db path", async () => {
    const db = join(dir, "runs.sqlite");
    expect((await tsg("report", "--thread", "t", "--db", db)).code).toBe(0);
    // The longest id every store accepts is 1,024 bytes (docs/persistence.md): an id just under it is echoed cut.
    const id = long.slice(0, 1_000);
    const history = await tsg("history", "--thread", id, "--db", db);
    expect(history.err.split("\n")[0]).toBe(`tsg history: thread ${quote(id)} has no checkpoint in ${db}.`);
    const checkpoint = id.slice(0, 250); // the longest checkpoint id every store accepts is 256 bytes
    const resume = await tsg("resume", "--thread", id, "--db", db, "--checkpoint", checkpoint);
    expect(resume.err.split("\n")[0]).toBe(
      `tsg resume: thread ${quote(id)} has no checkpoint ${quote(checkpoint)} in ${db}; tsg history --thread ${cut(id)} lists its checkpoints.`,
    );
    // A longer one is the caller's mistake (exit 2), not an internal error (exit 70).
    const tooLongCheckpoint = await tsg("resume", "--thread", "t", "--db", db, "--checkpoint", id);
    expect(tooLongCheckpoint.code).toBe(2);
    expect(tooLongCheckpoint.err.split("\n")[0]).toMatch(/^tsg resume: --checkpoint: the checkpoint id "x+…" takes 1000 bytes/);
    // A longer id is refused before the store is read, and the refusal quotes it cut too.
    const tooLong = await tsg("history", "--thread", long, "--db", db);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err.split("\n")[0]).toMatch(/^tsg history: --thread: the thread id "x+…" takes 10000 bytes of UTF-8/);
    expect((tooLong.err.split("\n")[0] ?? "").length).toBeLessThan(600);
    const missing = await tsg("history", "--thread", "t", "--db", join(dir, long.slice(0, 200)));
    expect(missing.err.split("\n")[0]).toMatch(/^tsg history: --db .*… \(\d+ more characters\): no such file\./);
  });
});

describe("a paused report on a long thread id (a child process)", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "tsg-echo-paused-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("the resume commands it prints cut the id and the --db path; a path's control characters are escaped", async () => {
    assertBuilt();
    const id = long.slice(0, 1_000); // under the 1,024-byte bound every store accepts
    const db = join(dir, "runs\u001b[2J.sqlite");
    const paused = await runTsg(["report", "--thread", id, "--db", db, "--interrupt-before", "publish"]);
    expect([paused.code, paused.stderr]).toEqual([3, ""]);
    expect(controlsIn(paused.stdout.replaceAll("\n", ""))).toEqual([]);
    for (const line of paused.stdout.split("\n")) expect(line.length).toBeLessThan(600);
    expect(paused.stdout).toContain(`\nthread: ${cut(id)} (${cut(db)})\n`);
    expect(paused.stdout).toContain(`\nApprove: tsg resume --thread ${cut(id)} --db ${cut(db)} --approve\n`);
    expect(cut(db)).toContain("runs\\u001b[2J.sqlite");
    const again = await runTsg(["report", "--thread", id, "--db", db]);
    expect(again.code).toBe(2);
    expect(again.stderr.split("\n")[0]).toBe(
      `tsg report: thread ${quote(id)} has a run waiting before publish; continue it with tsg resume --thread ${cut(id)}, or choose another --thread.`,
    );
  });
});
