#!/usr/bin/env node
// Package hygiene, on the tarball a user would install:
// 1. `npm pack` holds only dist/, the docs (docs/**/*.md and the images they show, docs/**/*.png),
//    README.md, CHANGELOG.md, LICENSE and package.json (and the inspector's page, assets/inspect/), and every
//    file the package names; its package.json has no install-time script (`prepare` is stripped by `prepack`);
// 2. publint --strict passes;
// 3. @arethetypeswrong/cli passes for every entry point in `exports` (profile esm-only).
// Options: --no-build (pack dist/ as it is, without the `prepack` build), --no-attw (skip step 3).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const manifestText = readFileSync(join(root, "package.json"), "utf8");
const pkg = JSON.parse(manifestText);
/** The entry points a user imports: every subpath of `exports` but package.json itself. */
const ENTRY_POINTS = Object.keys(pkg.exports).filter((entry) => entry !== "./package.json");
/** The entry points the docs name; each must stay in `exports`. */
const REQUIRED_ENTRY_POINTS = [
  ".",
  "./xstate",
  "./testing",
  "./langgraph",
  "./persistence",
  "./dbos",
  "./postgres",
  "./coverage",
  "./otel",
  "./render",
  "./examples",
];
const ALLOWED = [
  /^dist\//,
  /^assets\/inspect\/[^/]+$/,
  /^docs\/(?:[^/]+\/)*[^/]+\.(?:md|png)$/, // the guide, the reference and the Markdown API pages
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
];
const INSTALL_TIME_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

const failures = [];
const fail = (message) => failures.push(message);
const bin = (name) => join(root, "node_modules", ".bin", name);

/** Packs as `npm publish` would: `prepack` builds and strips the install-time scripts; `postpack` restores them. */
function pack(destination) {
  const run = (extra) =>
    execFileSync("npm", ["pack", "--json", ...extra, "--pack-destination", destination], { cwd: root, encoding: "utf8" });
  if (!args.has("--no-build")) {
    console.log("> npm pack (prepack: npm run build)");
    return JSON.parse(run([]));
  }
  const manifest = (step) => execFileSync("node", [join(root, "scripts/pack-manifest.mjs"), step], { cwd: root, stdio: "inherit" });
  manifest("strip");
  try {
    return JSON.parse(run(["--ignore-scripts"]));
  } finally {
    manifest("restore");
  }
}

const packDir = mkdtempSync(join(tmpdir(), "tsg-pack-"));
try {
  const packed = pack(packDir);
  const { filename, files, size, unpackedSize } = packed[0];
  const tarball = join(packDir, filename);
  const paths = files.map((file) => file.path);
  console.log(`> npm pack: ${filename}, ${paths.length} files, ${size} bytes packed, ${unpackedSize} unpacked`);

  const stray = paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
  if (stray.length > 0) fail(`the tarball holds files a user does not need: ${stray.join(", ")}. Narrow "files" in package.json.`);
  const named = [
    "package.json",
    "README.md",
    "LICENSE",
    ...Object.values(pkg.bin ?? {}),
    ...Object.values(pkg.exports ?? {}).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target))),
  ].map((path) => path.replace(/^\.\//, ""));
  const missing = [...new Set(named)].filter((path) => !paths.includes(path));
  if (missing.length > 0) fail(`the tarball lacks files the package names: ${missing.join(", ")}. Add them to "files" (or build first).`);
  const unexported = REQUIRED_ENTRY_POINTS.filter((entry) => pkg.exports?.[entry] === undefined);
  if (unexported.length > 0) fail(`package.json "exports" lacks the entry points ${unexported.join(", ")}.`);
  const packedManifest = JSON.parse(execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }));
  const installScripts = INSTALL_TIME_SCRIPTS.filter((script) => packedManifest.scripts?.[script] !== undefined);
  if (installScripts.length > 0)
    fail(`the packed package.json has install-time scripts (${installScripts.join(", ")}); "prepack" must strip them.`);
  if (readFileSync(join(root, "package.json"), "utf8") !== manifestText)
    fail("package.json differs after packing: `postpack` did not restore it (run node scripts/pack-manifest.mjs restore).");
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
