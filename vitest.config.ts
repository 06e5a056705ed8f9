import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The benchmarks' smoke check has its own run (npm run test:bench, in .ci/run): see test/bench/vitest.config.ts.
    exclude: ["test/bench/**", "**/node_modules/**"],
    // One PostgreSQL server per run, for the Postgres and DBOS suites (see test/helpers/postgres.ts).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    // Several suites start real processes and servers (SQLite and DBOS workers, PostgreSQL's initdb); on a
    // loaded 2-core machine those take well over vitest's 5 s default. A hang still fails, after 30 s.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      include: ["test/types/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
      // The type tests run `tsc -p tsconfig.json`, the whole project, and a type error anywhere in it fails the
      // run: so npm test has no separate `tsc` step (it checked the same files twice, ~45 s on 2 cores).
      // test/tooling/npm-test.test.ts holds this.
      ignoreSourceErrors: false,
    },
  },
});
