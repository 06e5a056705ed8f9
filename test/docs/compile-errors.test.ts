/**
 * docs/typed-builder.md quotes what TS 6.0.3 and TS 7.0.2 say for each compile-time error. Here each
 * `compile-error` block is compiled by both, without its `@ts-expect-error` lines, and every quoted
 * line must be one the compiler printed for that block.
 *
 * `UPDATE_QUOTES=1 npx vitest run test/docs/compile-errors.test.ts` rewrites the quotes of every entry
 * whose quotes no longer match: the first line of each error, and its innermost line (the one that
 * names the problem). Review the diff: a quote that changed is a message users read.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blockCompilerOptions,
  blocksOf,
  COMPILERS,
  docPages,
  fileOf,
  messageMatches,
  moduleText,
  root,
  type Block,
  type Compiler,
} from "./_blocks.js";

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

/** Blocks whose quotes to rewrite (with UPDATE_QUOTES=1), with what each compiler printed. */
const stale = new Map<Block, Map<Compiler, string[]>>();

/** An error's quote: its first line and its innermost line (errors start at unindented `error TS` lines). */
function quoteOf(said: readonly string[]): string[] {
  const errors: string[][] = [];
  for (const line of said) {
    if (line.startsWith("error TS")) errors.push([line]);
    else errors.at(-1)?.push(line);
  }
  return errors.flatMap((lines) => (lines.length > 1 ? [lines[0] as string, lines.at(-1) as string] : lines));
}

function rewriteQuotes(): void {
  for (const page of new Set([...stale.keys()].map((block) => block.page))) {
    const lines = readFileSync(join(root, page), "utf8").split("\n");
    // Bottom-up, so earlier line numbers stay valid.
    const blocks = [...stale.keys()].filter((block) => block.page === page).sort((a, b) => b.firstLine - a.firstLine);
    for (const block of blocks) {
      let open = block.firstLine;
      while (!/^\s*```\s*$/.test(lines[open] ?? "")) open++;
      while (!/^\s*```text\s*$/.test(lines[open] ?? "")) open++;
      let close = open + 1;
      while (!/^\s*```\s*$/.test(lines[close] ?? "")) close++;
      const quotes = COMPILERS.flatMap((compiler) =>
        quoteOf(stale.get(block)?.get(compiler) ?? []).map((line, i) => (i === 0 ? `TS ${compiler}  ${line}` : `            ${line}`)),
      );
      lines.splice(open + 1, close - open - 1, ...quotes);
    }
    writeFileSync(join(root, page), lines.join("\n"));
  }
}

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  if (process.env.UPDATE_QUOTES === "1") rewriteQuotes();
});

describe("the compile errors docs/typed-builder.md quotes are what the compilers print", () => {
  it("finds the documented errors", () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(new Set(blocks.map((block) => block.compileError)).size).toBe(blocks.length);
  });

  it.each(blocks.map((block) => [`${block.compileError} (${block.name})`, block] as const))("%s", (_name, block) => {
    const outdated = COMPILERS.some((compiler) => {
      const said = printed.get(compiler)?.get(fileOf(block)) ?? [];
      const quoted = block.messages?.get(compiler) ?? [];
      return quoted.length === 0 || quoted.some((line) => !said.some((printedLine) => messageMatches(line, printedLine)));
    });
    if (outdated && process.env.UPDATE_QUOTES === "1") {
      stale.set(block, new Map(COMPILERS.map((compiler) => [compiler, printed.get(compiler)?.get(fileOf(block)) ?? []])));
      return;
    }
    for (const compiler of COMPILERS) {
      const said = printed.get(compiler)?.get(fileOf(block)) ?? [];
      const quoted = block.messages?.get(compiler) ?? [];
      expect(quoted, `${block.name}: quote what TS ${compiler} says`).not.toEqual([]);
      const unmatched = quoted.filter((line) => !said.some((printedLine) => messageMatches(line, printedLine)));
      expect(unmatched, `TS ${compiler} printed:\n${said.join("\n")}`).toEqual([]);
    }
  });
});
