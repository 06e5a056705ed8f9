/** tsg inspect: its help, its arguments, and the lines it prints when it starts (the URL, the database, a problem). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setInspectLifetime } from "../../src/cli/inspect.js";
import { runCli } from "../../src/cli/run-cli.js";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tsg-cli-inspect-"));
});
afterEach(() => {
  setInspectLifetime({});
  rmSync(dir, { recursive: true, force: true });
});

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

/** Starts tsg inspect and stops it as soon as it is up. */
async function startAndStop(...argv: string[]) {
  let stop!: () => void;
  const stopped = new Promise<void>((done) => (stop = done));
  let url = "";
  setInspectLifetime({
    started: (inspector) => {
      url = inspector.url;
      stop();
    },
    stopped,
  });
  return { ...(await tsg("inspect", ...argv, "--port", "0")), url };
}

describe("tsg inspect", () => {
  it("--help lists the graph argument (default report) and every option", async () => {
    const { code, out } = await tsg("inspect", "--help");
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: tsg inspect \[GRAPH\] \[options\]\n/);
    expect(out).toContain("(default: report)");
    for (const flag of ["--db FILE", "--port N", "--thread T", "--allow-writes", "-h, --help"]) expect(out).toContain(flag);
    expect(out).toContain("Exit codes: 0 stopped with Ctrl-C, 2 bad arguments or a port that is in use.");
  });

  it("is listed by tsg --help", async () => {
    expect((await tsg("--help")).out).toContain("inspect    open a local web inspector");
  });

  it("prints its URL and the database, then stops with 0", async () => {
    const { code, out, err, url } = await startAndStop("report");
    expect([code, err]).toEqual([0, ""]);
    expect(out).toBe(`tsg inspect: ${url}\ndatabase: memory (nothing is saved)\n`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("says a --db it did not create is read-only", async () => {
    const db = join(dir, "runs.sqlite");
    expect((await tsg("report", "--thread", "t", "--db", db)).code).toBe(0);
    const { out } = await startAndStop("report", "--db", db);
    expect(out).toContain(`database: ${db} (read-only: --allow-writes to resume, fork or edit)\n`);
    expect((await startAndStop("report", "--db", db, "--allow-writes")).out).toContain(`database: ${db}\n`);
  });

  it("prints a module's problem on the console and still serves the page that shows it", async () => {
    const { code, err } = await startAndStop("./test/cli/fixtures/graphs.mjs#nothing");
    expect(code).toBe(0);
    expect(err).toMatch(/^tsg inspect: the module \.\/test\/cli\/fixtures\/graphs\.mjs has no export "nothing"/);
  });

  it("refuses bad arguments with exit 2: a bad port, an empty --db", async () => {
    const port = await tsg("inspect", "--port", "http");
    expect([port.code, port.err.split("\n")[0]]).toEqual([2, 'tsg inspect: --port must be an integer ≥ 0; got "http".']);
    const db = await tsg("inspect", "--db", " ");
    expect([db.code, db.err.split("\n")[0]]).toEqual([2, "tsg inspect: --db must name a file, e.g. --db tsg.sqlite; got an empty path."]);
  });

  it("a directory as --db is the database's problem: it starts, and says so on the console", async () => {
    const { code, out, err } = await startAndStop("report", "--db", dir);
    expect(code).toBe(0);
    expect(out).toContain(`database: ${dir} (read-only`);
    expect(err).toBe(`tsg inspect: --db ${dir} is a directory; name a database file.\n`);
  });
});
