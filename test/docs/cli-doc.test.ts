/** docs/cli.md documents every `tsg` command and every option its --help lists. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands.js";

const doc = readFileSync(resolve(import.meta.dirname, "../../docs/cli.md"), "utf8");

async function helpOf(name: string): Promise<string> {
  let out = "";
  const command = commands[name];
  if (command === undefined) throw new Error(`no command ${name}`);
  await command.run(["--help"], { stdout: { write: (text: string) => (out += text) }, stderr: { write: () => true } });
  return out;
}

/** The section of cli.md for one command: from its heading to the next `## `. */
function sectionOf(name: string): string {
  const start = doc.indexOf(`\n## tsg ${name}\n`);
  if (start < 0) return "";
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe("docs/cli.md", () => {
  it.each(Object.keys(commands))("has a section for tsg %s, listed in the command table", (name) => {
    expect(sectionOf(name)).not.toBe("");
    expect(doc).toContain(`| [\`${name}\`](#tsg-${name}) | ${commands[name]?.summary.replace(/--live/, "`--live`")} |`);
  });

  it.each(Object.keys(commands))("documents every option of tsg %s", async (name) => {
    // The options list: lines that start with a flag.
    const flags = [...(await helpOf(name)).matchAll(/^ {2}(?:-[a-z], )?(--[a-z][a-z-]+)/gm)]
      .map((match) => match[1] as string)
      .filter((flag) => flag !== "--help");
    expect(flags.length).toBeGreaterThan(0);
    const section = sectionOf(name);
    expect(flags.filter((flag) => !section.includes(`\`${flag}`))).toEqual([]);
  });

  it.each(Object.keys(commands))("states the exit codes of tsg %s as its --help does", async (name) => {
    const help = await helpOf(name);
    const codes = /Exit codes: (.*)/.exec(help)?.[1] ?? "";
    expect(codes).not.toBe("");
    expect(sectionOf(name)).toMatch(/Exit codes: 0 /);
  });
});
