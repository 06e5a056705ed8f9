/**
 * The error classes each entry point exports, held to the registry (_error-registry.ts): each extends
 * GraphError and is listed there, so errors-reference.test.ts holds docs/reference/errors.md to it. (The
 * codes and the classes' parents are checked there, on the reference page, the one table of them.)
 */
import { describe, expect, it } from "vitest";
import { GraphError } from "../../src/errors.js";
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

describe("the error hierarchy", () => {
  const entries = { core, coverage, xstate, testing, langgraph, persistence, dbos, examples };
  const exportedErrors = Object.entries(entries).flatMap(([entry, module]) =>
    Object.entries(module)
      .filter(([, value]) => typeof value === "function" && value !== GraphError && value.prototype instanceof Error)
      .map(([name, value]) => [`${entry}.${name}`, value as ErrorClass] as const),
  );

  it("finds the exported error classes (a guard against a filter that matches nothing)", () => {
    expect(exportedErrors.length).toBeGreaterThanOrEqual(LIBRARY_ERRORS.length + 1);
  });

  it.each(exportedErrors)("%s extends GraphError and is in the table", (_name, cls) => {
    expect(cls.prototype).toBeInstanceOf(GraphError);
    // LangGraphNodeError carries the code the mini engine would report: its codes are GraphExecutionError's.
    if (cls !== LangGraphNodeError) expect(ALL_ERRORS.map(([known]) => known)).toContain(cls);
  });
});
