import { defineConfig } from "vitest/config";

// The browser suite (npm run test:browser): Debian's Chromium through playwright-core, never a downloaded browser.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
