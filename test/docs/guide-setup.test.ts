/**
 * What a newcomer needs to follow the guide in a project of their own, as the newcomer trials found it
 * missing (docs/reports/newcomer-trial-2026-12-07b.md): the tsconfig.json the guide's README shows is the
 * one its code is checked with, every package a chapter imports is installed by an `npm install` line
 * before it, and every chapter says which file its program is saved as.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blockCompilerOptions, blocksOf, guidePages, root } from "./_blocks.js";

const GUIDE_README = "docs/guide/README.md";
const read = (page: string): string => readFileSync(join(root, page), "utf8");

/** The package a bare import names (`@scope/name` or `name`), or undefined for this package, node: and relative imports. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("node:") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
  return name === "typed-state-graph" ? undefined : name;
}

/** The packages the `npm install …` commands of a page install (in shell blocks and inline code). */
function installedBy(page: string): string[] {
  return [...read(page).matchAll(/npm install((?: [^\s`#]+)+)/g)].flatMap((match) =>
    (match[1] as string)
      .trim()
      .split(/\s+/)
      .filter((word) => !word.startsWith("-")),
  );
}

describe(GUIDE_README, () => {
  it("shows the compiler options the guide's code is checked with", () => {
    const json = /```json\n([\s\S]*?)\n```/.exec(read(GUIDE_README))?.[1];
    expect(json, "the guide's README has no ```json block with the tsconfig.json").toBeDefined();
    // `paths` maps the package to src/ for the tests; `moduleResolution` follows from `module: nodenext`.
    const { paths: _paths, moduleResolution: _resolution, ...checked } = blockCompilerOptions();
    expect(JSON.parse(json ?? "{}").compilerOptions).toEqual(checked);
  });
});

describe.each(guidePages())("%s", (page) => {
  it("installs every package its code imports, in this chapter, an earlier one or the guide's README", () => {
    const pages = guidePages();
    const installed = new Set([GUIDE_README, ...pages.slice(0, pages.indexOf(page) + 1)].flatMap(installedBy));
    const imported = blocksOf(page).flatMap((block) =>
      [...block.code.matchAll(/^import [^"]*"([^"]+)";/gm)].flatMap((match) => packageOf(match[1] as string) ?? []),
    );
    expect([...new Set(imported)].filter((name) => !installed.has(name))).toEqual([]);
  });

  it("says which file its program is saved as, before the program's first block", () => {
    const text = read(page);
    const firstBlock = text.indexOf("```ts");
    expect(text.slice(0, firstBlock)).toMatch(/Save (this|it) as `[^`]+\.ts`/);
  });
});
