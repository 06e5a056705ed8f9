import { defineConfig } from "vitest/config";

// The type tests (npm run test:types on TS 6, test:types:7 on TS 7): `test/types/**/*.test-d.ts`, checked by
// `tsc -p tsconfig.json`, the whole project, so a type error in any file of it fails the run and npm test needs
// no separate `tsc` step (it checked the same files twice, ~45 s on 2 cores). Their own config because the unit
// tests' (vitest.config.ts) is split into projects, which `--typecheck.only` does not reach.
// test/tooling/npm-test.test.ts holds this.
export default defineConfig({
  test: {
    include: [],
    typecheck: {
      enabled: true,
      only: true,
      include: ["test/types/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
      ignoreSourceErrors: false,
    },
  },
});
