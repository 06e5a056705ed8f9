import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One PostgreSQL server per run, for the Postgres and DBOS suites (see test/helpers/postgres.ts).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    typecheck: {
      include: ["test/types/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
