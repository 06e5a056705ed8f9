/** Optional peer dependencies the CLI loads on demand, and the message when one is not installed. */
import { UsageError } from "./io.js";

/** A peer package: its name, and the command that installs it. */
export interface Peer {
  readonly name: string;
  readonly install: string;
}

/** xstate, for `--engine xstate`. */
export const XSTATE: Peer = { name: "xstate", install: "npm install xstate" };

/**
 * Runs `load` (a dynamic import), turning "the peer is not installed" into a {@link UsageError} (exit 2)
 * that names what needs it and the install command. Any other failure passes through.
 *
 * @example
 * ```ts
 * const { streamOnXState } = await importPeer("--engine xstate", XSTATE, () => import("../xstate/index.js"));
 * ```
 */
export async function importPeer<T>(what: string, peer: Peer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, peer.name)) {
      throw new UsageError(`${what} needs the ${peer.name} package, which is not installed: ${peer.install}`);
    }
    throw error;
  }
}

/**
 * Whether an import failed because `name` (or a subpath of it) could not be found.
 *
 * @example
 * ```ts
 * await import("xstate").catch((error) => isMissingPackage(error, "xstate"));
 * ```
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return typeof message === "string" && (message.includes(`'${name}'`) || message.includes(`'${name}/`) || message.includes(`"${name}"`));
}
