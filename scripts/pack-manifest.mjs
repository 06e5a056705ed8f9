#!/usr/bin/env node
// The package.json a user installs has no `prepare` script: npm 11 warns about install-time scripts in
// a dependency (and `prepare` does nothing useful there, dist/ is already built). A fresh clone still
// needs it, so `npm ci && npx tsg report` builds dist/. `prepack` calls `strip`, which removes the
// script from package.json for the tarball and keeps the original; `postpack` calls `restore`.
// The same approach as pinst (used by husky). If a pack fails between the two, the next `strip` or
// `restore` starts from the kept original, so package.json is never lost.
// Usage: node scripts/pack-manifest.mjs strip|restore
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(root, "package.json");
// Under node_modules, so neither git nor `npm pack` ever sees it.
const kept = join(root, "node_modules", ".cache", "typed-state-graph", "package.json");
/** Scripts npm runs when the package is installed as a dependency. */
const INSTALL_TIME = ["preinstall", "install", "postinstall", "prepare"];

const original = () => readFileSync(existsSync(kept) ? kept : manifest, "utf8");

const command = process.argv[2];
if (command === "strip") {
  const text = original();
  mkdirSync(dirname(kept), { recursive: true });
  writeFileSync(kept, text);
  const pkg = JSON.parse(text);
  for (const script of INSTALL_TIME) delete pkg.scripts?.[script];
  writeFileSync(manifest, JSON.stringify(pkg, null, 2) + "\n");
} else if (command === "restore") {
  if (existsSync(kept)) {
    writeFileSync(manifest, readFileSync(kept, "utf8"));
    rmSync(kept);
  }
} else {
  console.error(`pack-manifest: expected "strip" or "restore"; got ${JSON.stringify(command ?? "")}.`);
  process.exitCode = 2;
}
