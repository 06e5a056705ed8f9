/**
 * Files a command writes for the user (`tsg test --out`, `tsg check --emit-spec`): never over an existing
 * file without `--force` (it may hold the user's edits), and a path that cannot be written is a usage
 * error naming the path and the reason, never a stack trace.
 */
import { existsSync, writeFileSync } from "node:fs";
import { cut } from "../inspect/echo.js";
import { UsageError } from "./io.js";

/**
 * Throws a {@link UsageError} when `path` exists and `force` is not set; `flag` names the option that chose it.
 *
 * @example
 * ```ts
 * refuseExisting("/work/v1.spec.ts", flags.force, "--emit-spec");
 * ```
 */
export function refuseExisting(path: string, force: boolean | undefined, flag: string): void {
  if (existsSync(path) && force !== true) {
    throw new UsageError(`${cut(path)} exists (it may hold your edits); choose another ${flag}, or pass --force to overwrite it.`);
  }
}

/**
 * Writes `text` to `path`, or throws a {@link UsageError} saying why it cannot (a missing directory, a
 * directory at that path, no permission).
 *
 * @example
 * ```ts
 * writeOutput("/work/v1.spec.ts", "export const spec = {} as const;\n", "--emit-spec");
 * ```
 */
export function writeOutput(path: string, text: string, flag: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === "ENOENT"
        ? "its directory does not exist"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES" || code === "EPERM" || code === "EROFS"
            ? "permission denied"
            : String((error as { message?: unknown }).message ?? error);
    throw new UsageError(`${flag}: cannot write ${cut(path)}: ${reason}. Choose a path in a directory you can write to.`, {
      cause: error,
    });
  }
}
