/**
 * The package's entry points, checked on the sources (no build): each `exports` subpath has its source
 * entry, the docs import only specifiers the package exports, and the root exports every name the docs
 * import from it and nothing deprecated.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as root from "../../src/index.js";
import { docPages, root as repo } from "../docs/_blocks.js";

const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  scripts: Record<string, string>;
};
const subpaths = Object.entries(pkg.exports).filter(
  (entry): entry is [string, { types: string; default: string }] => typeof entry[1] === "object",
);
const sourceOf = (target: string) => target.replace(/^\.\/dist\//, "src/").replace(/\.(d\.ts|js)$/, ".ts");

describe("package.json exports", () => {
  it.each(subpaths)("%s has its source entry and its types next to its code", (_subpath, target) => {
    expect(existsSync(join(repo, sourceOf(target.default)))).toBe(true);
    expect(target.types).toBe(target.default.replace(/\.js$/, ".d.ts"));
  });

  it("exports coverage and the diagrams by name, and the examples as one entry (not API: one subpath, not five)", () => {
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(["./coverage", "./render", "./examples"]));
    expect(Object.keys(pkg.exports).filter((subpath) => subpath.startsWith("./examples"))).toEqual(["./examples"]);
  });

  it("ships the docs the README links, and builds in prepack rather than at install", () => {
    expect(pkg.files).toEqual(expect.arrayContaining(["docs/**/*.md", "docs/**/*.png"]));
    expect(pkg.scripts["prepack"]).toMatch(/npm run build/);
  });

  it.each(docPages())("%s imports only what the package exports", (page) => {
    const text = readFileSync(join(repo, page), "utf8");
    const specifiers = [...text.matchAll(/from "(typed-state-graph[^"]*|\.\/src\/[^"]*)"/g)].map((match) => match[1] as string);
    const unexported = specifiers.filter((specifier) => pkg.exports[specifier.replace(/^typed-state-graph/, ".")] === undefined);
    expect(unexported).toEqual([]);
  });
});

/** The names `src/index.ts` exports, values and types (`export { a, type B }` and `export type { C }`). */
function rootExports(): Set<string> {
  const text = readFileSync(join(repo, "src/index.ts"), "utf8");
  const lists = [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].map((match) => match[1] as string);
  return new Set(
    lists.flatMap((list) =>
      list
        .split(",")
        .map((name) => name.trim().replace(/^type\s+/, ""))
        .filter(Boolean),
    ),
  );
}

/** `page` → the names it imports from the root, `typed-state-graph` itself (types included). */
function rootImportsOf(page: string): string[] {
  const text = readFileSync(join(repo, page), "utf8");
  return [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"typed-state-graph"/g)].flatMap((match) =>
    (match[1] as string)
      .split(",")
      .map(
        (name) =>
          name
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)[0] as string,
      )
      .filter(Boolean),
  );
}

describe("the root entry", () => {
  it("has no deprecated export (0.x: moved names moved, CHANGELOG.md says where)", () => {
    expect(readFileSync(join(repo, "src/index.ts"), "utf8")).not.toMatch(/@deprecated/);
  });

  it("finds its exports (a guard against a pattern that matches nothing)", () => {
    const names = rootExports();
    expect(names).toContain("StateGraph");
    expect(names).toContain("NodeContext");
    expect([...names].filter((name) => name in root)).toEqual(expect.arrayContaining(["StateGraph", "append", "GraphError"]));
  });

  it.each(docPages())("exports every name %s imports from typed-state-graph", (page) => {
    const exported = rootExports();
    expect(rootImportsOf(page).filter((name) => !exported.has(name))).toEqual([]);
  });

  it("no longer exports what moved to a subpath or was an internal of the engine", () => {
    const moved = ["coveragePlan", "coverageReport", "CoverageError", "toMermaid", "toDot", "cloneState", "mergeUpdate", "jsonEqual"];
    expect(moved.filter((name) => name in root)).toEqual([]);
    expect(rootExports().has("Checkpointer")).toBe(false);
  });
});
