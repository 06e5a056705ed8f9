/**
 * `tsg` as a user runs it: `dist/cli/main.js` in a child process, so a test sees the real exit code,
 * what reached stderr and stdout, and whether the process ended at all. `npm ci` builds `dist/` (the
 * `prepare` script); after editing `src/`, run `npm run build` before these tests: a stale build is
 * refused by name rather than tested.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");
/** The built `tsg`. */
export const TSG_MAIN = join(root, "dist/cli/main.js");

/** Throws unless `dist/` is built from the current sources. */
export function assertBuilt(): void {
  if (!existsSync(TSG_MAIN)) throw new Error(`${TSG_MAIN} is missing: run npm run build first.`);
  const built = statSync(TSG_MAIN).mtimeMs;
  const sources = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  if (sources.some((file) => statSync(join(root, "src", file)).mtimeMs > built))
    throw new Error("dist/ is older than src/: run npm run build first.");
}

/** How a `tsg` process ended. */
export interface Finished {
  /** The exit code, or `null` when a signal (or the test's deadline) ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the test had to kill it at its deadline: it hung. */
  readonly killed: boolean;
}

/** Runs `tsg ARGS` to the end, or kills it after `deadlineMs` (then `killed` is true). */
export function runTsg(args: readonly string[], options: { cwd?: string; deadlineMs?: number } = {}): Promise<Finished> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [TSG_MAIN, ...args], { cwd: options.cwd ?? root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, options.deadlineMs ?? 20_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, killed });
    });
  });
}

/** A running `tsg inspect`. */
export interface RunningInspect {
  readonly port: number;
  readonly child: ChildProcess;
  /** What it printed so far. */
  output(): { readonly stdout: string; readonly stderr: string };
  /** Ctrl-C, then its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `tsg inspect ARGS --port 0` and resolves once it printed its URL (rejects if it exits first). */
export function startTsgInspect(args: readonly string[], options: { cwd?: string } = {}): Promise<RunningInspect> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [TSG_MAIN, "inspect", ...args, "--port", "0"], {
      cwd: options.cwd ?? root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const exited = new Promise<number | null>((ended) => child.on("close", (code) => ended(code)));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const port = /tsg inspect: http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)?.[1];
      if (port === undefined) return;
      done({
        port: Number(port),
        child,
        output: () => ({ stdout, stderr }),
        stop: () => {
          if (child.exitCode === null) child.kill("SIGINT");
          return exited;
        },
      });
    });
    void exited.then((code) => fail(new Error(`tsg inspect exited with ${code} before it printed its URL:\n${stdout}${stderr}`)));
  });
}
