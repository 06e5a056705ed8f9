/**
 * docs/typed-builder.md quotes what TS 6.0.3 and TS 7.0.2 say for each compile-time error. Here each
 * `compile-error` block is compiled by both, without its `@ts-expect-error` lines, and every quoted
 * line must be one the compiler printed for that block.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockCompilerOptions, blocksOf, COMPILERS, docPages, fileOf, messageMatches, moduleText, root, type Compiler } from "./_blocks.js";

const workDir = join(root, "node_modules", ".cache", `docs-compile-errors-${process.pid}`);
const TSC: Record<Compiler, string> = {
  "6.0.3": join(root, "node_modules/typescript/bin/tsc"),
  "7.0.2": join(root, "node_modules/typescript7/bin/tsc"),
};
const blocks = docPages()
  .flatMap(blocksOf)
  .filter((block) => block.compileError !== undefined);
/** compiler → file → the lines it printed for that file (locations dropped, trimmed). */
const printed = new Map<Compiler, Map<string, string[]>>();

function printedLines(output: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of output.split("\n")) {
    const head = /^(.+?)\(\d+,\d+\): (error TS\d+: .*)$/.exec(line);
    if (head !== null) {
      current = byFile.get(head[1] as string) ?? [];
      byFile.set(head[1] as string, current);
      current.push(head[2] as string);
    } else if (current !== undefined && /^\s+\S/.test(line)) current.push(line.trim());
  }
  return byFile;
}

beforeAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ type: "module" }));
  for (const block of blocks) {
    // Blank lines keep the line numbers; the errors the directives guarded now surface.
    const unguarded = block.code.replace(/^\s*\/\/ @ts-expect-error.*$/gm, "");
    writeFileSync(join(workDir, fileOf(block)), moduleText(block, unguarded).text);
  }
  writeFileSync(join(workDir, "tsconfig.json"), JSON.stringify({ compilerOptions: blockCompilerOptions(), files: blocks.map(fileOf) }));
  for (const compiler of COMPILERS) {
    const run = spawnSync(process.execPath, [TSC[compiler], "-p", ".", "--pretty", "false"], { cwd: workDir, encoding: "utf8" });
    printed.set(compiler, printedLines(run.stdout));
  }
}, 120_000);

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("the compile errors docs/typed-builder.md quotes are what the compilers print", () => {
  it("finds the documented errors", () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(new Set(blocks.map((block) => block.compileError)).size).toBe(blocks.length);
  });

  it.each(blocks.map((block) => [`${block.compileError} (${block.name})`, block] as const))("%s", (_name, block) => {
    for (const compiler of COMPILERS) {
      const said = printed.get(compiler)?.get(fileOf(block)) ?? [];
      const quoted = block.messages?.get(compiler) ?? [];
      expect(quoted, `${block.name}: quote what TS ${compiler} says`).not.toEqual([]);
      const unmatched = quoted.filter((line) => !said.some((printedLine) => messageMatches(line, printedLine)));
      expect(unmatched, `TS ${compiler} printed:\n${said.join("\n")}`).toEqual([]);
    }
  });
});
