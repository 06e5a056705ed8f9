/** The `typed-state-graph/testing` entry: what it exports, and that it loads no test runner. */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as testing from "../../src/testing/index.js";

/**
 * The packages a source file loads when imported, following its relative static imports (comments
 * skipped); `import type` / `export type` load nothing (the state schema's `@standard-schema/spec` types).
 */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const [, specifier] of code.matchAll(
      /^\s*(?:import|export)\b(?!\s+type\s)[^;]*?\bfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm,
    )) {
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}

describe("typed-state-graph/testing", () => {
  it("exports the helpers for users' own suites", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "EXPLORATION_ERROR_CODES",
      "ExplorationError",
      "PROPERTY_VIOLATION_CODES",
      "PropertyViolation",
      "REPLAY_ENV",
      "RESUMABILITY_ERROR_CODES",
      "ResumabilityError",
      "arbitraryGraphSpec",
      "assertEveryNodeReachesEnd",
      "assertResumable",
      "assertRouteCoverage",
      "checkResumable",
      "emitVitest",
      "exploreGraph",
      "reducerLaws",
      "resumePoints",
      "runScenario",
    ]);
  });

  it("loads no test runner: only fast-check and node built-ins", () => {
    const packages = [...packagesLoadedBy(resolve(import.meta.dirname, "../../src/testing/index.ts"))];
    expect(packages.filter((name) => name !== "fast-check" && !name.startsWith("node:"))).toEqual([]);
    expect(packages).toContain("fast-check");
  });
});
