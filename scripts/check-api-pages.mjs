#!/usr/bin/env node
/**
 * After `typedoc` has regenerated docs/api: fails when the pages differ from the committed ones (a TSDoc
 * comment changed without `npm run docs`), naming the pages, so the API pages the package ships always
 * describe the code it ships.
 */
import { execFileSync } from "node:child_process";

const changed = execFileSync("git", ["status", "--porcelain", "--", "docs/api"], { encoding: "utf8" }).trim();
if (changed !== "") {
  console.error(
    `check-api-pages: docs/api differs from the TSDoc it is generated from:\n${changed}\nRun \`npm run docs\` and commit docs/api.`,
  );
  process.exit(1);
}
console.log("check-api-pages: docs/api matches the TSDoc");
