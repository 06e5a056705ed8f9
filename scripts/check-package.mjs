#!/usr/bin/env node
// Package hygiene, on the tarball a user would install:
// 1. `npm pack` holds only dist/, README.md, LICENSE and package.json, and every file the package names;
// 2. publint --strict passes;
// 3. @arethetypeswrong/cli passes for every ESM entry point (profile esm-only).
// Options: --no-build (use dist/ as it is), --no-attw (skip step 3).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
/** The entry points a user imports; each must be in `exports` and checked by attw. */
const ENTRY_POINTS = [".", "./xstate", "./testing", "./langgraph"];
const ALLOWED = [/^dist\//, /^README\.md$/, /^LICENSE$/, /^package\.json$/];

const failures = [];
const fail = (message) => failures.push(message);
const bin = (name) => join(root, "node_modules", ".bin", name);

if (!args.has("--no-build")) {
  console.log("> npm run build");
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}

const packDir = mkdtempSync(join(tmpdir(), "tsg-pack-"));
try {
  // --ignore-scripts: the build above is the one under test; `prepare` would build again.
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], { cwd: root, encoding: "utf8" }));
  const { filename, files, size, unpackedSize } = packed[0];
  const tarball = join(packDir, filename);
  const paths = files.map((file) => file.path);
  console.log(`> npm pack: ${filename}, ${paths.length} files, ${size} bytes packed, ${unpackedSize} unpacked`);

  const stray = paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
  if (stray.length > 0) fail(`the tarball holds files a user does not need: ${stray.join(", ")}. Narrow "files" in package.json.`);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const named = [
    "package.json",
    "README.md",
    "LICENSE",
    ...Object.values(pkg.bin ?? {}),
    ...Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target))),
  ].map((path) => path.replace(/^\.\//, ""));
  const missing = [...new Set(named)].filter((path) => !paths.includes(path));
  if (missing.length > 0) fail(`the tarball lacks files the package names: ${missing.join(", ")}. Add them to "files" (or build first).`);
  const unexported = ENTRY_POINTS.filter((entry) => pkg.exports?.[entry] === undefined);
  if (unexported.length > 0) fail(`package.json "exports" lacks the entry points ${unexported.join(", ")}.`);
  const sourceMaps = paths.filter((path) => path.endsWith(".map"));
  // Maps into src/, which is not packed, send "go to definition" nowhere.
  if (sourceMaps.length > 0) console.log(`  note: ${sourceMaps.length} source maps point into src/, which is not packed`);

  console.log("> publint --strict");
  const publint = spawnSync(bin("publint"), ["run", tarball, "--strict"], { cwd: root, stdio: "inherit" });
  if (publint.status !== 0) fail("publint --strict found problems (above).");

  if (!args.has("--no-attw")) {
    console.log(`> attw --profile esm-only --entrypoints ${ENTRY_POINTS.join(" ")}`);
    const attw = spawnSync(bin("attw"), [tarball, "--profile", "esm-only", "--entrypoints", ...ENTRY_POINTS, "--format", "table-flipped"], {
      cwd: root,
      stdio: "inherit",
    });
    if (attw.status !== 0) fail("@arethetypeswrong/cli found problems (above).");
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

for (const failure of failures) console.error(`check-package: ${failure}`);
console.log(failures.length === 0 ? "check-package: the package is clean" : `check-package: ${failures.length} problem(s)`);
process.exitCode = failures.length === 0 ? 0 : 1;
