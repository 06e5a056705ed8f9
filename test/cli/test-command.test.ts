/**
 * `tsg test GRAPH --emit vitest`: exploration against the coverage plan, then a vitest file with one
 * replayed test per planned path taken and a todo per path not reached. The report example's file is
 * run by vitest (it imports the package as a user would, through dist/).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, root, runTsg } from "./_child.js";

// Under the repository, so the written file resolves `typed-state-graph` (the package itself, dist/).
const work = join(root, "scratch", `tsg-test-${process.pid}`);
const FIXTURES = join(root, "test/cli/fixtures");

beforeAll(() => {
  assertBuilt();
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "vitest.config.mjs"), 'export default { test: { include: ["*.test.ts"] } };\n');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** vitest run in the directory of the written file, as a user runs it. */
function vitestIn(dir: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.config.mjs"], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: result.status, output: stripVTControlCharacters(`${result.stdout}${result.stderr}`) };
}

describe("tsg test report --emit vitest", () => {
  const out = join(work, "report.paths.test.ts");

  it("writes a test per planned path taken and a todo for the one no run takes; exit 1 for the todo", async () => {
    const run = await runTsg(["test", "report", "--runs", "60", "--seed", "1", "--out", out], { deadlineMs: 60_000 });
    expect(run).toEqual({
      code: 1,
      stdout: `${relative(root, out)}: 2 tests (planned paths taken), 1 todo (not reached in 60 runs)\n`,
      stderr: "",
      killed: false,
    });
    const text = readFileSync(out, "utf8");
    expect(text).toContain('const graph = buildReportGraph({ draftStyle: "missing-notice", maxRevisions: 1 });');
    expect(text).toContain(
      'it.todo("accept: not reached in 60 runs: START → collect → write_draft → check_draft [accept] → publish → END");',
    );
  });

  it("the written file passes under vitest, and fails when a recorded path is changed", () => {
    expect(vitestIn(work)).toMatchObject({ status: 0, output: expect.stringContaining("2 passed | 1 todo") });
    const text = readFileSync(out, "utf8");
    writeFileSync(out, text.replace('"check_draft [hold]"]', '"check_draft [accept]"]'));
    expect(vitestIn(work)).toMatchObject({ status: 1, output: expect.stringContaining("1 failed | 1 passed | 1 todo") });
    writeFileSync(out, text);
  });

  it("never overwrites the file (it may hold edits) without --force", async () => {
    const before = readFileSync(out, "utf8");
    const run = await runTsg(["test", "report", "--runs", "5", "--out", out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("exists (it may hold your edits); choose another --out, or pass --force to overwrite it.");
    expect(readFileSync(out, "utf8")).toBe(before);
  });
});

describe("tsg test FILE#EXPORT: the module's `exploration` export", () => {
  it("writes the file with an import of the export from where the file is written", async () => {
    const out = join(work, "triage.paths.test.ts");
    const run = await runTsg(["test", `${FIXTURES}/explore.mjs#triage`, "--runs", "30", "--seed", "3", "--out", out], {
      deadlineMs: 60_000,
    });
    expect([run.code, run.stdout]).toEqual([0, `${relative(root, out)}: 2 tests (planned paths taken), 0 todo (not reached in 30 runs)\n`]);
    const text = readFileSync(out, "utf8");
    expect(text).toContain('import { triage as graph } from "../../test/cli/fixtures/explore.mjs";');
    expect(text).toMatch(/outcomes: \{ classify: \[\{ urgent: (true|false) \}\] \}/);
  });

  it("a run that breaks an invariant: exit 3, the shrunk run and its replay line, nothing written", async () => {
    const out = join(work, "bug.paths.test.ts");
    const run = await runTsg(["test", `${FIXTURES}/explore-bug.mjs#triage`, "--runs", "50", "--seed", "3", "--out", out], {
      deadlineMs: 60_000,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'the invariant "a handled ticket names it" does not hold after superstep 2 (escalate): handled = escalated',
    );
    expect(run.stderr).toContain("path: START → classify [urgent] → escalate");
    expect(run.stderr).toMatch(/TSG_REPLAY=\d+:[\d:]*/);
    expect(existsSync(out)).toBe(false);
  });

  it("a module without an `exploration` export is a usage error naming it", async () => {
    const run = await runTsg(["test", `${FIXTURES}/graph.ts#triage`, "--out", join(work, "none.test.ts")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("has no `exploration` export with an input arbitrary");
  });

  it("loads the module once: its top level runs once, the graph and `exploration` come from the same load", async () => {
    const run = await runTsg(["test", `${FIXTURES}/loads-once.ts#triage`, "--out", join(work, "once.test.ts")]);
    expect(run.code).toBe(2);
    expect(run.stderr.match(/loads-once\.ts: top level ran/g)).toEqual(["loads-once.ts: top level ran"]);
  });
});
