/**
 * Child processes run plain `node`, which cannot load TypeScript on Node 20. This compiles the
 * package's entry points (the library, persistence, and the `tsg` CLI) into a private directory under node_modules/.cache (never `dist/`, which
 * others may be using), and only when a source file changed since the last build. It sits inside
 * the repository so the compiled files resolve the SQLite driver (libsql or better-sqlite3) from node_modules.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { tempDir } from "./_helpers.js";

const root = resolve(import.meta.dirname, "../..");
/**
 * Where the compiled entry points go: one directory per checkout, since git worktrees may share one
 * node_modules (a build of another checkout's sources must never be taken for this one's).
 */
export const BUILD_DIR = join(
  root,
  `node_modules/.cache/tsg-persistence-test-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`,
);
const ENTRIES = ["src/index.ts", "src/persistence/index.ts", "src/cli/main.ts"];
const OUTPUTS = ["index.js", "persistence/index.js", "cli/main.js"];

function newestSource(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : entry.name.endsWith(".ts") ? statSync(path).mtimeMs : 0;
    return Math.max(newest, time);
  }, 0);
}

/** Compiles the entry points if any source is newer than the last build; returns the build directory. */
export function buildForChildProcesses(): string {
  const stamp = join(BUILD_DIR, ".built");
  const fresh = existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource(join(root, "src"));
  if (fresh && OUTPUTS.every((file) => existsSync(join(BUILD_DIR, file)))) return BUILD_DIR;
  const args = [
    ...ENTRIES,
    "--ignoreConfig",
    "--outDir",
    BUILD_DIR,
    "--rootDir",
    "src",
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
  ];
  args.push("--target", "es2022", "--lib", "es2023", "--types", "node", "--skipLibCheck", "--strict", "--verbatimModuleSyntax");
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), ...args], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // Type errors elsewhere in the tree (work in progress) do not stop tsc from emitting; missing output does.
    if (!OUTPUTS.every((file) => existsSync(join(BUILD_DIR, file)))) throw error;
  }
  writeFileSync(stamp, new Date().toISOString());
  return BUILD_DIR;
}

/**
 * The setup of a suite whose tests run the built package in child processes (the SIGKILL suites): the
 * build, once before the suite, and a fresh temporary directory for each test, removed after it. Read
 * `buildDir` and `dir` inside hooks and tests (they are set by the hooks this registers).
 */
export function childProcessSuite(): { readonly buildDir: string; readonly dir: string } {
  let buildDir = "";
  let current: { dir: string; remove(): void } | undefined;
  beforeAll(() => {
    buildDir = buildForChildProcesses();
  }, 120_000);
  beforeEach(() => {
    current = tempDir();
  });
  afterEach(() => current?.remove());
  return {
    get buildDir() {
      return buildDir;
    },
    get dir() {
      if (current === undefined) throw new Error("childProcessSuite: dir is set for each test; read it inside a test or a hook.");
      return current.dir;
    },
  };
}

/** Runs `node …args` (a crash fixture), collecting its output: the child, to kill, and its exit with what it printed. */
export function spawnFixture(args: readonly string[]) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, out, err })),
  );
  return { child, exit };
}
