/**
 * docs/concepts.md's error tables, checked against the code: every error class with every code it can
 * carry, and every problem code of validation. A code added to the code but not to the docs (or the
 * other way round) fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GRAPH_PROBLEM_CODES, GraphError } from "../../src/errors.js";
import { LangGraphNodeError } from "../../src/langgraph/errors.js";
import * as core from "../../src/index.js";
import * as coverage from "../../src/coverage/index.js";
import * as dbos from "../../src/dbos/index.js";
import * as examples from "../../src/examples/index.js";
import * as langgraph from "../../src/langgraph/index.js";
import * as persistence from "../../src/persistence/index.js";
import * as testing from "../../src/testing/index.js";
import * as xstate from "../../src/xstate/index.js";
import { ALL_ERRORS, LIBRARY_ERRORS, type ErrorClass } from "./_error-registry.js";
import { root } from "./_blocks.js";

/** Each public error class of the library and the codes it can carry, from the code itself. */
const registry = LIBRARY_ERRORS;

const page = readFileSync(join(root, "docs/concepts.md"), "utf8");

/** The rows of the first table after `heading`, as cells with their backticks removed. */
function tableAfter(heading: string): string[][] {
  const start = page.indexOf(heading);
  expect(start, `docs/concepts.md has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const lines = page.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`|`$/g, "")),
    );
  }
  return rows;
}

describe("docs/concepts.md's error tables", () => {
  it("list every error class with each of its codes, and what it extends", () => {
    const documented = tableAfter("## Errors").map(([name, parent, code]) => `${name} < ${parent}: ${code}`);
    const actual = registry.flatMap(([cls, codes]) => codes.map((code) => `${cls.name} < ${Object.getPrototypeOf(cls).name}: ${code}`));
    expect(documented.sort()).toEqual(actual.sort());
  });

  it("list every problem code of validation", () => {
    const documented = tableAfter("## What `compile()` checks").map(([code]) => code);
    expect(documented.sort()).toEqual([...GRAPH_PROBLEM_CODES].sort());
  });
});

describe("the error hierarchy", () => {
  const entries = { core, coverage, xstate, testing, langgraph, persistence, dbos, examples };
  const exportedErrors = Object.entries(entries).flatMap(([entry, module]) =>
    Object.entries(module)
      .filter(([, value]) => typeof value === "function" && value !== GraphError && value.prototype instanceof Error)
      .map(([name, value]) => [`${entry}.${name}`, value as ErrorClass] as const),
  );

  it("finds the exported error classes (a guard against a filter that matches nothing)", () => {
    expect(exportedErrors.length).toBeGreaterThanOrEqual(registry.length + 1);
  });

  it.each(exportedErrors)("%s extends GraphError and is in the table", (_name, cls) => {
    expect(cls.prototype).toBeInstanceOf(GraphError);
    // LangGraphNodeError carries the code the mini engine would report: its codes are GraphExecutionError's.
    if (cls !== LangGraphNodeError) expect(ALL_ERRORS.map(([known]) => known)).toContain(cls);
  });
});
