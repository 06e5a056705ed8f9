/**
 * docs/reference/errors.md, held to the code: every code the package throws has a row naming its class
 * (or classes), and every row names a code some class throws. The codes come from the source
 * (_error-registry.ts), so a code added there (a new fault, another issue's LOOP_BOUND) fails here until
 * the page has its row; the classes table says what each class extends. Also: every thrown error extends GraphError with a SCREAMING_CASE code, and a
 * code belongs to one class (LangGraphNodeError's borrowed engine codes are the one exception left).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GRAPH_PROBLEM_CODES, GraphError } from "../../src/errors.js";
import { LangGraphNodeError } from "../../src/langgraph/errors.js";
import { ALL_ERRORS, INTERNAL_ERRORS } from "./_error-registry.js";
import { root } from "./_blocks.js";

const PAGE = "docs/reference/errors.md";
const page = readFileSync(join(root, PAGE), "utf8");

/** The rows of the first table after `heading`, as cells with their backticks removed. */
function tableAfter(heading: string): string[][] {
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${PAGE} has no "${heading}" section`);
  const lines = page.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(" | ").map((cell) => cell.replace(/^\|\s*|\s*\|$/g, "").trim()));
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, "");

describe(`${PAGE}`, () => {
  const documented = tableAfter("## Codes").flatMap(([code = "", classes = ""]) =>
    classes.split(",").map((cls) => `${unquote(code)} ${unquote(cls.trim())}`),
  );
  const thrown = ALL_ERRORS.flatMap(([cls, codes]) => codes.map((code) => `${code} ${cls.name}`));

  it("finds its rows (a guard against a parser that matches nothing)", () => {
    expect(documented.length).toBeGreaterThan(50);
  });

  it("has a row for every code the package throws, with its class", () => {
    expect(thrown.filter((pair) => !documented.includes(pair))).toEqual([]);
  });

  it("names no code (or class) that nothing throws", () => {
    expect(documented.filter((pair) => !thrown.includes(pair))).toEqual([]);
  });

  it("says for every code what the fault is and what to do", () => {
    const blank = tableAfter("## Codes").filter((cells) => cells.length !== 4 || cells.some((cell) => cell === ""));
    expect(blank).toEqual([]);
  });

  it("lists every class the package throws with the class it extends, once", () => {
    const documented = tableAfter("## Classes").map(([cls = "", parent = ""]) => `${unquote(cls)} < ${unquote(parent)}`);
    const actual = ALL_ERRORS.map(([cls]) => `${cls.name} < ${Object.getPrototypeOf(cls).name}`);
    expect(documented.toSorted()).toEqual(actual.toSorted());
  });

  it("lists every problem code of GraphValidationError, once", () => {
    const problems = tableAfter("## Problem codes of `GraphValidationError`").map(([code = ""]) => unquote(code));
    expect(problems.toSorted()).toEqual([...GRAPH_PROBLEM_CODES].toSorted());
  });
});

describe("one error hierarchy", () => {
  it.each(ALL_ERRORS.map(([cls, codes]) => [cls.name, cls, codes] as const))(
    "%s extends GraphError, with SCREAMING_CASE codes",
    (_name, cls, codes) => {
      expect(cls.prototype).toBeInstanceOf(GraphError);
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(code))).toEqual([]);
    },
  );

  it("gives each code to one class (LangGraphNodeError still borrows the engine's codes)", () => {
    const owners = new Map<string, string[]>();
    for (const [cls, codes] of ALL_ERRORS) {
      if (cls === LangGraphNodeError) continue;
      for (const code of codes) owners.set(code, [...(owners.get(code) ?? []), cls.name]);
    }
    expect([...owners].filter(([, classes]) => classes.length > 1)).toEqual([]);
  });

  it("every Error subclass in src/ is in the registry, or is an internal signal that never reaches a caller", () => {
    const sourceFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
      );
    const parents = new Map<string, string>();
    for (const file of sourceFiles(join(root, "src"))) {
      for (const match of readFileSync(file, "utf8").matchAll(/class (\w+)(?:<[^{]*?>)? extends (\w+)/g)) {
        parents.set(match[1] as string, match[2] as string);
      }
    }
    const isError = (name: string): boolean => {
      const parent = parents.get(name);
      return parent !== undefined && (/^(?:Type|Range)?Error$/.test(parent) || isError(parent));
    };
    const errorClasses = [...parents.keys()].filter((name) => name !== "GraphError" && isError(name));
    expect(errorClasses.length).toBeGreaterThan(ALL_ERRORS.length);
    const known = new Set([...ALL_ERRORS.map(([cls]) => cls.name), ...Object.keys(INTERNAL_ERRORS)]);
    expect(errorClasses.filter((name) => !known.has(name))).toEqual([]);
  });
});
