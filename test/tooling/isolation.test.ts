/**
 * Which test files run in a fresh module registry. Most files share their worker's modules with the files run
 * before them (vitest.config.ts, project "shared", `isolate: false`); a file that mocks a module, changes the
 * process's directory or registers DBOS workflows would leak that into the next file, so it must be listed in
 * ISOLATED_FILES. This test reads every test file and fails when one that does such a thing is not listed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import config, { ISOLATED_FILES } from "../../vitest.config.js";

const root = resolve(import.meta.dirname, "../..");

/** What a file may not do while sharing modules with other files, each with a reason a reader can check. */
const NEEDS_ISOLATION: readonly (readonly [RegExp, string])[] = [
  [/\bvi\.(mock|doMock|unmock|doUnmock|resetModules)\(/, "mocks a module"],
  [/\bprocess\.chdir\(/, "changes the process's directory"],
  [/\b(registerOnDBOS|launchDBOSForFile|DBOS\.launch)\(/, "registers DBOS workflows or launches DBOS"],
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

/** `test/dbos/**\/*.test.ts` and exact paths: the only two forms the list uses. */
function isListed(file: string): boolean {
  return ISOLATED_FILES.some((pattern) =>
    pattern.endsWith("/**/*.test.ts") ? file.startsWith(pattern.slice(0, -"**/*.test.ts".length)) : file === pattern,
  );
}

describe("test isolation", () => {
  const files = testFiles(join(root, "test")).filter((file) => !file.startsWith("test/bench/"));

  it.each(files.map((file) => [file]))("%s runs isolated if it needs to", (file) => {
    const source = readFileSync(join(root, file), "utf8");
    const reasons = NEEDS_ISOLATION.filter(([pattern]) => pattern.test(source)).map(([, reason]) => reason);
    if (reasons.length > 0) expect(isListed(file), `${file} ${reasons.join(", ")}: add it to ISOLATED_FILES`).toBe(true);
  });

  it("lists only files that exist, and shares modules everywhere else", () => {
    for (const pattern of ISOLATED_FILES)
      expect(
        files.some((file) => isListed(file) && (pattern.includes("*") || file === pattern)),
        pattern,
      ).toBe(true);
    const shared = config.test?.projects?.find(
      (project) => typeof project === "object" && "test" in project && project.test?.name === "shared",
    );
    expect(shared && typeof shared === "object" && "test" in shared ? shared.test?.isolate : undefined).toBe(false);
  });
});
