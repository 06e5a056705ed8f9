/**
 * The ```ts blocks of the README and docs/ are type-checked, so they cannot rot (markers: see _blocks.ts).
 * A block that shows a compile error guards it with `// @ts-expect-error`, so the error is checked too.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockCompilerOptions, blocksOf, docPages, fileOf, moduleText, root, type Block } from "./_blocks.js";

// Inside node_modules, so the blocks resolve the project's packages (xstate, fast-check, @types/node).
const workDir = join(root, "node_modules", ".cache", `docs-code-blocks-${process.pid}`);
const allBlocks = docPages().flatMap(blocksOf);
const errors = new Map<string, string[]>();

beforeAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ type: "module" }));
  const located = new Map<string, { block: Block; offset: number }>();
  for (const block of allBlocks) {
    const { text, offset } = moduleText(block);
    const file = join(workDir, fileOf(block));
    writeFileSync(file, text);
    located.set(file, { block, offset });
  }
  const { options, errors: optionErrors } = ts.convertCompilerOptionsFromJson(blockCompilerOptions(), workDir);
  if (optionErrors[0] !== undefined) throw new Error(ts.flattenDiagnosticMessageText(optionErrors[0].messageText, "\n"));
  const program = ts.createProgram([...located.keys()], options);
  // Per file, syntax and types both: one fragment's syntax error must not hide the other blocks' type errors.
  for (const [file, { block, offset }] of located) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${block.name}: not in the program`);
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 - offset;
      const where = line > 0 ? `${block.page}:${block.firstLine + line}` : `${block.name} (in a block it continues)`;
      const message = `${where}: TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
      errors.set(block.name, [...(errors.get(block.name) ?? []), message]);
    }
  }
}, 120_000);

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("code blocks in the README and docs compile", () => {
  it("finds blocks (a guard against a pattern that matches nothing)", () => {
    expect(allBlocks.length).toBeGreaterThan(5);
    expect(allBlocks.some((block) => block.page === "README.md")).toBe(true);
  });

  it.each(allBlocks.map((block) => [block.name, block] as const))("%s", (_name, block) => {
    expect(errors.get(block.name) ?? []).toEqual([]);
  });
});
