/**
 * What `npm test` runs, read from package.json and the vitest config: it has no separate `tsc` step because
 * the type tests type-check the whole project (`tsc -p tsconfig.json`) on both compilers and fail on a type
 * error in any file, not only in the type tests. Both halves of that are configuration, held here.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../types/vitest.config.js";

const root = resolve(import.meta.dirname, "../..");
const scripts: Record<string, string> = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).scripts;
const steps = (scripts.test ?? "").split("&&").map((step) => step.trim());

describe("npm test", () => {
  it("type-checks on TS 6 and TS 7 through the type tests, then runs the unit tests", () => {
    expect(steps).toEqual(["npm run lint", "npm run test:types", "npm run test:types:7", "npm run test:unit"]);
    expect(scripts["test:types"]).toBe("vitest run --config test/types/vitest.config.ts");
    expect(scripts["test:types:7"]).toBe(`${scripts["test:types"]} --typecheck.checker node_modules/typescript7/bin/tsc`);
    expect(config.test?.typecheck?.only).toBe(true);
  });

  it("checks the whole project in the type tests and fails on a type error outside them", () => {
    expect(config.test?.typecheck?.tsconfig).toBe("./tsconfig.json");
    expect(config.test?.typecheck?.ignoreSourceErrors).toBe(false);
    const tsconfig = readFileSync(resolve(root, "tsconfig.json"), "utf8");
    expect(tsconfig).toMatch(/"include":\s*\[[^\]]*"src"/);
    expect(tsconfig).toMatch(/"include":\s*\[[^\]]*"test"/);
  });
});
