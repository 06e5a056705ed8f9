/**
 * Every chapter of docs/guide runs as written. A chapter's ```ts blocks are one program (each block after
 * the first is marked `continues`), which this file runs, importing `typed-state-graph` from src/, in a
 * directory of its own (a database file a chapter opens lands there). What the program prints with
 * console.log must equal the chapter's `<!-- output -->` ```text blocks, joined in order. A chapter that
 * declares vitest tests (verifying a graph) registers them here, under the chapter's name, and the list it
 * shows in a `<!-- tests -->` ```text block must name exactly those. The type check of the same blocks is
 * code-blocks.test.ts's.
 *
 * A chapter may read `process.env.DATABASE_URL`, as a deployed program does: it is set to a fresh database
 * on the run's PostgreSQL server (test/helpers/postgres.ts) while the chapter runs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import { afterAll, describe, expect, it, type RunnerTestSuite, vi } from "vitest";
import { freshDatabase } from "../helpers/postgres.js";
import { blocksOf, guidePages, moduleText, root } from "./_blocks.js";

// Under the repository (scratch/ is git-ignored), so the programs resolve the project's packages.
const workDir = join(root, "scratch", `docs-guide-${process.pid}`);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const startDir = process.cwd();
const databases: Awaited<ReturnType<typeof freshDatabase>>[] = [];

afterAll(async () => {
  process.chdir(startDir);
  rmSync(workDir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

/** The program a chapter shows: its last checked block with every block it continues, imports mapped to src/. */
function programOf(page: string): string {
  const blocks = blocksOf(page).filter((block) => block.compileError === undefined);
  const last = blocks.at(-1);
  if (last === undefined) return "";
  return moduleText(last)
    .text.replace(/from "typed-state-graph"/g, `from "${root}/src/index.ts"`)
    .replace(/from "typed-state-graph\/([^"]+)"/g, `from "${root}/src/$1/index.ts"`);
}

/** The lines of a chapter's ```text blocks marked `<!-- NAME -->`, in order. */
function markedText(page: string, name: "output" | "tests"): string[] {
  const text = readFileSync(join(root, page), "utf8");
  const blocks = text.matchAll(new RegExp(`<!--\\s*${name}\\s*-->\\s*\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\``, "g"));
  return [...blocks].flatMap((match) => (match[1] as string).split("\n"));
}

/** The tests a chapter's program declared (this file's own left out), as vitest lists them: `✓ suite > test`. */
function declaredTests(suite: RunnerTestSuite, prefix = ""): string[] {
  return suite.tasks.flatMap((task) => {
    if (task.type === "suite") return declaredTests(task, `${prefix}${task.name} > `);
    return HARNESS_TESTS.has(task.name) ? [] : [`✓ ${prefix}${task.name}`];
  });
}

/** Runs a chapter's program (registering any tests it declares) and returns what it printed, or why it failed. */
async function run(page: string): Promise<{ printed: string[]; failure?: unknown }> {
  const file = join(workDir, `${page.replace(/[^A-Za-z0-9]+/g, "_")}.ts`);
  writeFileSync(file, programOf(page));
  const printed: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    printed.push(...format(...args).split("\n"));
  });
  const url = process.env.DATABASE_URL;
  process.chdir(workDir);
  try {
    if (programOf(page).includes("process.env.DATABASE_URL")) {
      const database = await freshDatabase("guide");
      databases.push(database);
      process.env.DATABASE_URL = database.url;
    }
    await import(file);
    return { printed };
  } catch (failure) {
    return { printed, failure };
  } finally {
    process.chdir(startDir);
    log.mockRestore();
    if (url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = url;
  }
}

const HARNESS_TESTS = new Set([
  "is one program: every block after the first continues the one before",
  "runs as written",
  "prints what the page shows",
  "declares the tests the page shows",
]);

it("finds the guide's chapters (a guard against a pattern that matches nothing)", () => {
  expect(guidePages().length).toBeGreaterThanOrEqual(1);
});

for (const page of guidePages()) {
  describe(page, async () => {
    it("is one program: every block after the first continues the one before", () => {
      const blocks = blocksOf(page);
      expect(blocks.length).toBeGreaterThan(0);
      expect(
        blocks
          .slice(1)
          .filter((block) => block.before.length === 0)
          .map((block) => block.name),
      ).toEqual([]);
    });

    const { printed, failure } = await run(page);

    it("runs as written", () => {
      if (failure !== undefined) throw failure;
    });

    it("prints what the page shows", () => {
      expect(printed).toEqual(markedText(page, "output"));
    });

    // A chapter that shows a test runner's list (`<!-- tests -->`) must declare exactly those tests.
    if (markedText(page, "tests").length > 0) {
      it("declares the tests the page shows", ({ task }) => {
        expect(task.suite === undefined ? [] : declaredTests(task.suite)).toEqual(markedText(page, "tests"));
      });
    }
  });
}
