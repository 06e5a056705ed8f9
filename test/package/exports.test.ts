/**
 * The package's entry points, checked on the sources (no build): each `exports` subpath has its source
 * entry, the docs import only specifiers the package exports, and the root's internals are deprecated
 * but still importable (every root export of 0.1.0 stays in this release).
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

  it("exports the examples, coverage and the diagrams by name", () => {
    expect(Object.keys(pkg.exports)).toEqual(
      expect.arrayContaining([
        "./coverage",
        "./render",
        "./examples/report",
        "./examples/agent",
        "./examples/agent/live",
        "./examples/research",
      ]),
    );
  });

  it("ships the docs the README links, and builds in prepack rather than at install", () => {
    expect(pkg.files).toContain("docs/*.md");
    expect(pkg.scripts["prepack"]).toMatch(/npm run build/);
  });

  it.each(docPages())("%s imports only what the package exports", (page) => {
    const text = readFileSync(join(repo, page), "utf8");
    const specifiers = [...text.matchAll(/from "(typed-state-graph[^"]*|\.\/src\/[^"]*)"/g)].map((match) => match[1] as string);
    const unexported = specifiers.filter((specifier) => pkg.exports[specifier.replace(/^typed-state-graph/, ".")] === undefined);
    expect(unexported).toEqual([]);
  });
});

describe("the root entry", () => {
  const released = [
    "START",
    "END",
    "transitionPairs",
    "GraphValidationError",
    "GraphExecutionError",
    "GraphLimitError",
    "InvalidUpdateError",
    "InvalidOptionError",
    "StateGraph",
    "defineGraph",
    "route",
    "bindSpec",
    "checkSpecSchema",
    "CompiledGraph",
    "compileGraph",
    "DEFAULT_MAX_STEPS",
    "DEFAULT_RECURSION_LIMIT",
    "append",
    "replace",
    "sum",
    "union",
    "mergeById",
    "defineReducer",
    "reducerNameOf",
    "mergeUpdate",
    "Send",
    "subgraph",
    "cloneState",
    "isPlainObject",
    "jsonEqual",
    "validateTopology",
    "coveragePlan",
    "coverageReport",
    "replayPath",
    "scriptedGraph",
    "transitionsOf",
    "formatPath",
    "CoverageError",
    "toMermaid",
    "toDot",
  ];

  it("keeps every value export of 0.1.0", () => {
    expect(released.filter((name) => !(name in root))).toEqual([]);
  });

  it("marks the internals and the moved exports @deprecated", () => {
    const text = readFileSync(join(repo, "src/index.ts"), "utf8");
    const deprecated = [...text.matchAll(/\/\*\* @deprecated[^*]*\*\/\n\s+(\w+),/g)].map((match) => match[1]);
    expect(deprecated).toEqual(
      expect.arrayContaining([
        "cloneState",
        "isPlainObject",
        "jsonEqual",
        "mergeUpdate",
        "transitionPairs",
        "coveragePlan",
        "coverageReport",
        "toMermaid",
        "toDot",
      ]),
    );
  });
});
