/**
 * Loading a user's module for `tsg check`, `diagram`, `paths` and `inspect`: a regular file only (a FIFO
 * would wait for a writer forever), within a time limit (a top-level `await` that never settles would
 * hang, or end the process with Node's undocumented code 13), and under the exit guard, which reports a
 * `process.exit` during loading as the module's doing.
 */
import { statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { whileLoading } from "./exit-guard.js";
import { UsageError } from "./io.js";
import { cut } from "../inspect/echo.js";

/** How long a module may take to load unless `--load-timeout` says otherwise, in seconds. */
export const DEFAULT_LOAD_TIMEOUT_SECONDS = 30;

/**
 * The longest `--load-timeout`, in seconds: Node's timers hold at most 2^31 − 1 ms (about 24.8 days), and
 * a longer delay is set to 1 ms, so the module would time out at once.
 */
export const MAX_LOAD_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** `--load-timeout` for every command that loads a module: the same words in each help text. */
export const LOAD_TIMEOUT_FLAG = {
  type: "integer",
  min: 1,
  max: MAX_LOAD_TIMEOUT_SECONDS,
  maxReason: "seconds, about 24.8 days: the longest timer Node keeps",
  valueHint: "SECONDS",
  description: "how long a module may take to load (its top level, awaits included)",
  default: DEFAULT_LOAD_TIMEOUT_SECONDS,
} as const;

/**
 * The loaders a command's `--load-timeout` asks for.
 *
 * @example
 * ```ts
 * loadersOf(5); // { timeoutMs: 5000 }
 * ```
 */
export function loadersOf(loadTimeoutSeconds: number): GraphLoaders {
  return { timeoutMs: loadTimeoutSeconds * 1000 };
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

/** `tsx`'s ESM API, as far as tsg uses it. */
export interface TsxApi {
  tsImport(specifier: string, parentURL: string): Promise<unknown>;
}

/** Where modules come from and how long they may take; tests pass their own. */
export interface GraphLoaders {
  /** Where relative paths start. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Loads `tsx/esm/api`. Default: from tsg's own dependencies, else from the current project. */
  readonly tsx?: () => Promise<unknown>;
  /** The time limit of loading, in milliseconds. Default {@link DEFAULT_LOAD_TIMEOUT_SECONDS} seconds. */
  readonly timeoutMs?: number;
}

/**
 * Imports the module at `path` (`file` as the user wrote it, for messages). Throws a {@link UsageError}
 * for a path that is not a regular file, or a module that takes longer than the limit; anything the
 * module itself throws passes through.
 *
 * @example
 * ```ts
 * const module = await importUserModule("./dist/graph.js", "/work/app/dist/graph.js", { timeoutMs: 5_000 });
 * ```
 */
export async function importUserModule(file: string, path: string, loaders: GraphLoaders = {}): Promise<Record<string, unknown>> {
  const kind = fileKind(statSync(path));
  if (kind !== "file") throw new UsageError(`the module ${cut(file)} is not a regular file (it is ${kind}); name a .js or .ts file.`);
  const url = pathToFileURL(path).href;
  const load = async () =>
    (TYPESCRIPT.has(extname(path))
      ? await (await loadTsx(loaders.tsx ?? findTsx(loaders.cwd ?? process.cwd()))).tsImport(url, import.meta.url)
      : await import(url)) as Record<string, unknown>;
  const timeoutMs = loaders.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_SECONDS * 1000;
  return whileLoading(file, () => withinLimit(load(), file, timeoutMs));
}

function fileKind(stats: Stats): string {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  return "a device";
}

/** `load`, or a {@link UsageError} once `timeoutMs` passed (the timer also keeps the process alive until then). */
async function withinLimit<T>(load: Promise<T>, file: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () =>
        fail(
          new UsageError(
            `the module ${cut(file)} did not finish loading within ${timeoutMs / 1000} s: its top level waits for something ` +
              "(an await that never settles?). A graph module should only build its graph; to wait longer, pass --load-timeout SECONDS.",
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([load, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** `tsx/esm/api` from tsg's own dependencies, else from the project in `cwd` (where a user installs it). */
function findTsx(cwd: string): () => Promise<unknown> {
  return async () => {
    try {
      return await import("tsx/esm/api" as string);
    } catch {
      return import(pathToFileURL(createRequire(join(cwd, "package.json")).resolve("tsx/esm/api")).href);
    }
  };
}

async function loadTsx(load: () => Promise<unknown>): Promise<TsxApi> {
  let api: Partial<TsxApi> | undefined;
  try {
    api = (await load()) as Partial<TsxApi>;
  } catch {
    // Not installed (or not loadable): say what to install.
  }
  if (typeof api?.tsImport === "function") return api as TsxApi;
  throw new UsageError(
    "loading TypeScript needs tsx, which is not installed: npm install --save-dev tsx. Or point tsg at the compiled .js file.",
  );
}
