import { configDefaults, defineConfig } from "vitest/config";

// Test files that need a fresh module registry of their own: they mock modules (`vi.mock`), or register
// process-wide state a library keeps per module instance (DBOS's workflow registry), or change the process
// (`process.chdir`). Every other file shares its worker's modules with the files before it (`isolate: false`):
// the engine keeps no module state a test could observe, and not re-importing the library per file saves about a
// fifth of the suite's CPU time on a 2-core machine. test/tooling/npm-test.test.ts holds the list to what needs it.
export const ISOLATED_FILES = [
  "test/dbos/**/*.test.ts",
  "test/docs/guide.test.ts",
  "test/engine/threads/input-checks.test.ts",
  "test/engine/threads/input-copies.test.ts",
  "test/coverage/xstate-graph-missing.test.ts",
  "test/cli/resume.test.ts",
  "test/properties/driver-equivalence.test.ts",
];

// The benchmarks' smoke check has its own run (npm run test:bench, in .ci/run): see test/bench/vitest.config.ts.
// The type tests have theirs too (npm run test:types): see test/types/vitest.config.ts.
const EXCLUDED = [...configDefaults.exclude, "test/bench/**"];

export default defineConfig({
  test: {
    // One PostgreSQL server per run, for the Postgres and DBOS suites (see test/helpers/postgres.ts).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    // Several suites start real processes and servers (SQLite and DBOS workers, PostgreSQL's initdb); on a
    // loaded 2-core machine those take well over vitest's 5 s default. A hang still fails, after 30 s.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED_FILES, exclude: EXCLUDED } },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...EXCLUDED, ...ISOLATED_FILES],
          isolate: false,
        },
      },
    ],
  },
});
