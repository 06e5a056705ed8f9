import { defineConfig } from "vitest/config";

// The benchmarks' smoke check (npm run test:bench): every workload at tiny sizes, with its own PostgreSQL for the
// checkpointed rows. Kept out of npm test, which it would lengthen by a fifth on a 2-core machine; .ci/run runs it.
export default defineConfig({
  test: {
    include: ["test/bench/**/*.test.ts"],
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
