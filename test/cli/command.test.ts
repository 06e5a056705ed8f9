/** The command table (parsing and --help from one declaration) and tsg's promises about failures. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineCommand, usageText } from "../../src/cli/command.js";
import { commands } from "../../src/cli/commands.js";
import { UsageError, type Command } from "../../src/cli/io.js";
import { importPeer, isMissingPackage, XSTATE } from "../../src/cli/peers.js";
import { EXIT_INTERNAL, runCli, type CliEnvironment } from "../../src/cli/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tsg-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tsg(argv: readonly string[], environment: CliEnvironment = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(
    argv,
    { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } },
    environment,
  );
  return { code, out, err };
}

const greet = {
  name: "greet",
  summary: "greet someone",
  description: "Greets someone.",
  flags: {
    name: { type: "string", valueHint: "NAME", description: "who to greet", default: "world" },
    shout: { type: "boolean", description: "in capitals" },
    also: { type: "string", valueHint: "NAME", description: "someone else", multiple: true },
  },
  exitCodes: "0 greeted, 2 bad arguments.",
  run: async (
    { flags }: { flags: { name?: string | undefined; shout?: boolean | undefined; also?: string[] | undefined } },
    io: { stdout: { write(t: string): unknown } },
  ) => {
    const text = `hello ${[flags.name ?? "world", ...(flags.also ?? [])].join(" and ")}`;
    io.stdout.write(`${flags.shout === true ? text.toUpperCase() : text}\n`);
    return 0;
  },
} as const;

describe("a command declared once", () => {
  it("writes its --help from the table, options aligned in one column", () => {
    expect(usageText(greet)).toBe(
      [
        "Usage: tsg greet [options]",
        "",
        "Greets someone.",
        "",
        "Options:",
        "  --name NAME  who to greet (default: world)",
        "  --shout      in capitals",
        "  --also NAME  someone else (repeatable)",
        "  -h, --help   show this help",
        "",
        "Exit codes: 0 greeted, 2 bad arguments.",
      ].join("\n"),
    );
  });

  it.each(Object.entries(commands))("tsg %s --help aligns every option's description in one column", async (name) => {
    const { code, out } = await tsg([name, "--help"]);
    expect(code).toBe(0);
    const columns = [...out.matchAll(/^ {2}((?:-h, )?--\S+(?: \S+)?\s+)\S/gm)].map((match) => (match[1] as string).length);
    expect(columns.length).toBeGreaterThan(1);
    expect(new Set(columns).size).toBe(1);
  });

  it("a repeated flag takes its last value; a repeatable one collects them all", async () => {
    const table = { greet: defineCommand(greet) };
    expect((await tsg(["greet", "--name", "Ann", "--name", "Bo"], { commands: table })).out).toBe("hello Bo\n");
    expect((await tsg(["greet", "--also", "Ann", "--also", "Bo"], { commands: table })).out).toBe("hello world and Ann and Bo\n");
    expect((await tsg(["diagram", "agent", "--format", "dot", "--format", "json"])).out).toMatch(/^\{\n/);
  });
});

describe("every failure: one message, a documented exit code, no stack", () => {
  const report = join(dir, "report.sqlite");
  const notADatabase = join(dir, "notes.txt");
  writeFileSync(notADatabase, "these are notes, not a database\n".repeat(200));

  it.each([
    [["report", "--bogus"], "report"],
    [["report", "--max-steps", "0"], "report"],
    [["report", "--cities", "Rome"], "report"],
    [["report", "--thread", "t", "--db", ""], "report"],
    [["report", "--thread", "t", "--db", dir], "report"],
    [["report", "--thread", "t", "--db", join(dir, "no/such/dir/x.sqlite")], "report"],
    [["report", "--thread", "t", "--db", notADatabase], "report"],
    [["report", "--engine", "langchain"], "report"],
    [["report", "--db", report], "report"],
    [["agent", "--api", "chat"], "agent"],
    [["agent", "--max-tool-calls", "-1"], "agent"],
    [["research", "--topic", " "], "research"],
    [["paths"], "paths"],
    [["paths", "research", "--via", "xstate"], "paths"],
    [["diagram", "report", "extra"], "diagram"],
    [["check", "nothing-here"], "check"],
    [["history"], "history"],
    [["history", "--thread", "t", "--db", notADatabase], "history"],
    [["history", "--thread", "t", "--db", "/dev/null"], "history"],
    [["resume", "--thread", "t", "--db", join(dir, "typo.sqlite")], "resume"],
    [["resume", "--thread", "t", "--approve", "--edit-notice", "x"], "resume"],
  ])("%j exits 2, its message ending with the pointer to --help", async (argv, command) => {
    const { code, out, err } = await tsg(argv);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.startsWith(`tsg ${command}: `)).toBe(true);
    expect(err.endsWith(`\nRun \`tsg ${command} --help\` for the options.\n`)).toBe(true);
    expect(err.split("\n")).toHaveLength(3);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it("--db names the file and the problem", async () => {
    expect((await tsg(["report", "--thread", "t", "--db", dir])).err).toContain(
      `--db ${dir} is a directory; name a file, e.g. --db ${join(dir, "tsg.sqlite")}.`,
    );
    expect((await tsg(["report", "--thread", "t", "--db", ""])).err).toContain(
      "--db must name a file, e.g. --db tsg.sqlite; got an empty path.",
    );
    expect((await tsg(["history", "--thread", "t", "--db", notADatabase])).err).toMatch(new RegExp(`^tsg history: --db ${notADatabase}: `));
  });

  it.each([["a body that is not JSON", "UPDATE tsg_checkpoints SET body = '{not json'"]])(
    "a stored checkpoint with %s: tsg history and tsg resume exit 2 with one message naming --db",
    async (_what, corruption) => {
      const file = join(dir, `corrupt-${Math.random().toString(16).slice(2)}.sqlite`);
      expect((await tsg(["report", "--thread", "c", "--db", file, "--interrupt-before", "publish"])).code).toBe(3);
      const { default: Database } = await import("libsql");
      const db = new Database(file);
      db.exec(corruption);
      db.close();
      for (const argv of [["history"], ["resume", "--approve"]]) {
        const command = argv[0] as string;
        const { code, out, err } = await tsg([...argv, "--thread", "c", "--db", file]);
        expect({ code, out }).toEqual({ code: 2, out: "" });
        expect(err).toMatch(new RegExp(`^tsg ${command}: --db ${file}: `));
        expect(err.split("\n")).toHaveLength(3);
        expect(err).not.toMatch(/\n\s+at /);
      }
    },
  );

  it("an unknown --checkpoint points at tsg history, not at a new thread", async () => {
    expect((await tsg(["report", "--thread", "t1", "--db", report])).code).toBe(0);
    const { code, err } = await tsg(["resume", "--thread", "t1", "--db", report, "--checkpoint", "nope"]);
    expect(code).toBe(2);
    expect(err).toBe(
      `tsg resume: thread "t1" has no checkpoint "nope" in ${report}; tsg history --thread t1 lists its checkpoints.\nRun \`tsg resume --help\` for the options.\n`,
    );
  });

  const failing: Command = {
    summary: "fails",
    usage: "",
    run: () => Promise.reject(new RangeError("an invariant broke\nwith a second line")),
  };

  it("an internal error prints one line and a request to report it, exit 70", async () => {
    const { code, out, err } = await tsg(["fail"], { commands: { fail: failing }, env: {} });
    expect({ code, out }).toEqual({ code: EXIT_INTERNAL, out: "" });
    expect(err).toBe(
      "tsg fail: internal error: RangeError: an invariant broke\n" +
        "This is a bug in tsg: please report it with the command you ran. Set TSG_DEBUG=1 to print the stack.\n",
    );
  });

  it("TSG_DEBUG=1 adds the stack", async () => {
    const { code, err } = await tsg(["fail"], { commands: { fail: failing }, env: { TSG_DEBUG: "1" } });
    expect(code).toBe(EXIT_INTERNAL);
    expect(err).toMatch(/\n\s+at /);
  });

  it("survives a thrown value that cannot be printed", async () => {
    const unprintable: Command = { summary: "", usage: "", run: () => Promise.reject(Object.create(null)) };
    const { code, err } = await tsg(["odd"], { commands: { odd: unprintable }, env: {} });
    expect(code).toBe(EXIT_INTERNAL);
    expect(err).toMatch(/^tsg odd: internal error: a thrown object that cannot be printed\n/);
  });
});

describe("optional packages", () => {
  it("a missing peer is a usage error with the install command", async () => {
    const load = () => import("xstate-is-not-installed-here" as string);
    await expect(
      importPeer("--engine xstate", { name: "xstate-is-not-installed-here", install: "npm install xstate" }, load),
    ).rejects.toThrow(
      new UsageError("--engine xstate needs the xstate-is-not-installed-here package, which is not installed: npm install xstate"),
    );
  });

  it("recognizes Node's error for a missing package, and only for that package", async () => {
    const error = await import("xstate-is-not-installed-here" as string).catch((e: unknown) => e);
    expect(isMissingPackage(error, "xstate-is-not-installed-here")).toBe(true);
    expect(isMissingPackage(error, "xstate")).toBe(false);
    expect(isMissingPackage(new Error("boom"), "xstate")).toBe(false);
    expect(XSTATE.install).toBe("npm install xstate");
  });

  it("any other failure to load passes through", async () => {
    const boom = new Error("a syntax error in the module");
    await expect(importPeer("--engine xstate", XSTATE, () => Promise.reject(boom))).rejects.toBe(boom);
  });
});

describe("tsg --version", () => {
  it("prints package.json's version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    expect(await tsg(["--version"])).toEqual({ code: 0, out: `${version}\n`, err: "" });
  });
});
