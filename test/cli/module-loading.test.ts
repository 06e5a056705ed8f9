/**
 * Loading a user's module never hangs and never ends tsg silently: a top-level await that never settles
 * is cut off by --load-timeout, a path that is not a regular file (a FIFO) is refused before importing,
 * and a module that calls process.exit while it loads makes tsg exit with 2 and say so (after tsg finished,
 * tsg keeps the command's own code). `tsg` runs as a user runs it: dist/cli/main.js in a child process,
 * killed by the test if it hangs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call } from "../inspect/_client.js";
import { assertBuilt, runTsg, startTsgInspect } from "./_child.js";

const FIXTURES = "./test/cli/fixtures/loading";
beforeAll(() => assertBuilt());

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tsg-module-loading-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const timedOut = (file: string, seconds: number) =>
  `tsg check: the module ${file} did not finish loading within ${seconds} s: its top level waits for something (an await that never settles?). ` +
  "A graph module should only build its graph; to wait longer, pass --load-timeout SECONDS.\nRun `tsg check --help` for the options.\n";

describe("a top-level await that never settles", () => {
  it.each(["never-settles.mjs", "never-settles-timer.mjs"])("%s: exit 2 after --load-timeout, with the reason", async (name) => {
    const file = `${FIXTURES}/${name}`;
    const finished = await runTsg(["check", `${file}#graph`, "--load-timeout", "1"], { deadlineMs: 15_000 });
    expect(finished).toEqual({ code: 2, stdout: "", stderr: timedOut(file, 1), killed: false });
  });

  it("the limit is 30 s unless --load-timeout says otherwise, a whole number of seconds ≥ 1", async () => {
    const help = await runTsg(["check", "--help"]);
    expect(help.stdout).toMatch(
      /\n {2}--load-timeout SECONDS +how long a module may take to load \(its top level, awaits included\) \(default: 30\)\n/,
    );
    const zero = await runTsg(["check", "report", "--load-timeout", "0"]);
    expect([zero.code, zero.stderr.split("\n")[0]]).toEqual([2, 'tsg check: --load-timeout must be an integer ≥ 1; got "0".']);
  });

  it("tsg inspect starts and shows it in the page", async () => {
    const file = `${FIXTURES}/never-settles-timer.mjs`;
    const inspect = await startTsgInspect([`${file}#graph`, "--load-timeout", "1"]);
    try {
      const { graph } = (await call(inspect.port, "GET", "/api/info")).json as { graph: { problem: string } };
      expect(graph.problem).toMatch(/^the module .*never-settles-timer\.mjs did not finish loading within 1 s/);
    } finally {
      expect(await inspect.stop()).toBe(0);
    }
  });
});

describe("--load-timeout is at most 2147483 s, the longest timer Node keeps", () => {
  it("the maximum loads; one more second is a usage error (Node would set the timer to 1 ms and time out at once)", async () => {
    const file = `${FIXTURES}/loads.mjs`;
    const longest = await runTsg(["check", `${file}#graph`, "--load-timeout", "2147483"]);
    expect(longest).toEqual({ code: 0, stdout: `${file}#graph: valid (1 nodes, at most 1 superstep a run)\n`, stderr: "", killed: false });
    const over = await runTsg(["check", `${file}#graph`, "--load-timeout", "2147484"]);
    expect(over).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'tsg check: --load-timeout must be at most 2147483 (seconds, about 24.8 days: the longest timer Node keeps); got "2147484".\n' +
        "Run `tsg check --help` for the options.\n",
      killed: false,
    });
  });
});

describe("a path that is not a regular file is refused before importing", () => {
  it("a FIFO (importing it would wait for a writer forever)", async () => {
    const fifo = join(dir, "graph.mjs");
    execFileSync("mkfifo", [fifo]);
    const finished = await runTsg(["diagram", `${fifo}#graph`], { deadlineMs: 15_000 });
    expect(finished).toEqual({
      code: 2,
      stdout: "",
      stderr: `tsg diagram: the module ${fifo} is not a regular file (it is a FIFO); name a .js or .ts file.\nRun \`tsg diagram --help\` for the options.\n`,
      killed: false,
    });
  });

  it("a directory", async () => {
    const finished = await runTsg(["paths", `${dir}#graph`]);
    expect([finished.code, finished.stderr.split("\n")[0]]).toEqual([
      2,
      `tsg paths: the module ${dir} is not a regular file (it is a directory); name a .js or .ts file.`,
    ]);
  });
});

describe("a module that calls process.exit while it loads", () => {
  it.each(["exits.mjs", "exits-later.mjs"])("%s: exit 2 with the reason, never a silent 0", async (name) => {
    const file = `${FIXTURES}/${name}`;
    const finished = await runTsg(["check", `${file}#graph`], { deadlineMs: 15_000 });
    expect(finished).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `tsg check: the module ${file} ended the process while tsg was loading it (exit code 0: process.exit(), or an error thrown ` +
        "outside tsg's reach); tsg did not finish. A graph module must not end the process.\n",
      killed: false,
    });
  });
});

describe("a module that calls process.exit after tsg finished its command", () => {
  it("exits-after-finish.mjs: tsg keeps its own code (1, the graph is invalid) and says what happened", async () => {
    const file = `${FIXTURES}/exits-after-finish.mjs`;
    const finished = await runTsg(["check", `${file}#graph`], { deadlineMs: 15_000 });
    expect(finished).toEqual({
      code: 1,
      stdout: `${file}#graph: 1 problem\n  - [INVALID_SPEC] spec.edges[0] must be an object with from, to; got ["a","nowhere"].\n`,
      stderr:
        "tsg check: code that tsg loaded (a module, or a node of its graph) ended the process with exit code 0 after tsg finished; " +
        "tsg exits with its own code, 1. A graph module must not end the process.\n",
      killed: false,
    });
  });
});
