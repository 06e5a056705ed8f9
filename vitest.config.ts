import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One PostgreSQL server per run, for the Postgres and DBOS suites (see test/helpers/postgres.ts).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    // Several suites start real processes and servers (SQLite and DBOS workers, PostgreSQL's initdb); on a
    // loaded 2-core machine those take well over vitest's 5 s default. A hang still fails, after 30 s.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      include: ["test/types/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
