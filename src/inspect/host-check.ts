/**
 * DNS rebinding protection: the server binds to 127.0.0.1, but a page on another site can still reach
 * it through a name that resolves to 127.0.0.1. The browser then sends that name in `Host`, so only
 * the loopback names are served; a write must also come from the inspector's own origin.
 */
import { InspectError } from "./errors.js";
import { quote } from "./echo.js";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost"]);

/**
 * Throws unless `host` is `127.0.0.1:PORT` or `localhost:PORT` for the server's port.
 *
 * @example
 * ```ts
 * checkHost("127.0.0.1:4318", 4318); // passes
 * checkHost("evil.example:4318", 4318); // throws FORBIDDEN_HOST
 * ```
 */
export function checkHost(host: string | undefined, port: number): void {
  if (host === undefined || !isLoopbackHost(host, port)) {
    throw new InspectError(
      "FORBIDDEN_HOST",
      `inspect: refused the Host ${quote(host ?? "")}: tsg inspect answers only http://127.0.0.1:${port} and http://localhost:${port}.`,
    );
  }
}

/**
 * Throws when a browser says a write comes from another origin (another site, or another port).
 * No `Origin` header (curl, a script) is accepted: the Host check already holds.
 *
 * @example
 * ```ts
 * checkOrigin("http://127.0.0.1:4318", 4318); // passes
 * ```
 */
export function checkOrigin(origin: string | undefined, port: number): void {
  if (origin === undefined) return;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.protocol !== "http:" || !isLoopbackHost(url.host, port)) {
    throw new InspectError(
      "FORBIDDEN_ORIGIN",
      `inspect: refused a write from the origin ${quote(origin)}: open the inspector at http://127.0.0.1:${port}.`,
    );
  }
}

function isLoopbackHost(host: string, port: number): boolean {
  const colon = host.lastIndexOf(":");
  if (colon < 0) return false;
  return LOOPBACK_NAMES.has(host.slice(0, colon).toLowerCase()) && host.slice(colon + 1) === String(port);
}
