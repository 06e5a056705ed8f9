/** Request and response plumbing for the inspector's `node:http` server: JSON in, JSON out, static files. */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { InspectError } from "./errors.js";
import { cut, LINE_LIMIT, quote } from "./echo.js";

/** The largest request body the inspector reads: an edited state, never a file. */
export const MAX_BODY_BYTES = 256 * 1024;

/** How long a request's body may take to arrive once its headers have: the page sends a few bytes at once. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * The page's policy: it loads only its own files (no CDN, no inline script), and no other page may frame
 * it (`frame-ancestors 'none'`): a framed inspector started with --allow-writes could get a click on
 * "Approve and resume" from a foreign page.
 */
const PAGE_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** What every other response allows: nothing to load, no framing. */
const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sets the headers every response carries, before any route runs (refusals included): no framing
 * (`X-Frame-Options: DENY` for browsers that predate `frame-ancestors`), no type sniffing, and a policy
 * that loads nothing. The page's files replace the policy with {@link PAGE_POLICY}.
 */
export function setSecurityHeaders(response: ServerResponse): void {
  response.setHeader("x-frame-options", "DENY");
  response.setHeader("x-content-type-options", "nosniff");
  response.setHeader("content-security-policy", DATA_POLICY);
}

/** Writes `value` as a JSON response. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  response.end(body);
}

/** Reads a JSON object body; refuses another content type (a form post from another site cannot send JSON). */
export async function readJsonBody(request: IncomingMessage, timeoutMs = BODY_TIMEOUT_MS): Promise<Record<string, unknown>> {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new InspectError(
      "UNSUPPORTED_MEDIA_TYPE",
      `inspect: send the request as JSON (content-type: application/json); got ${quote(type)}.`,
    );
  const text = (await readBody(request, timeoutMs)).toString("utf8");
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new InspectError("BAD_REQUEST", `inspect: the request body is not JSON: ${cut((error as Error).message, LINE_LIMIT)}.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new InspectError("BAD_REQUEST", "inspect: the request body must be a JSON object.");
  return parsed as Record<string, unknown>;
}

/**
 * The body, whole, within `timeoutMs` and {@link MAX_BODY_BYTES}. A body that stalls is refused with
 * `REQUEST_TIMEOUT` (408) instead of holding the connection for Node's default five minutes.
 */
function readBody(request: IncomingMessage, timeoutMs: number): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      request.off("data", onData).off("end", onEnd).off("error", onError);
      outcome();
    };
    const seconds = timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        settle(() =>
          fail(
            new InspectError(
              "REQUEST_TIMEOUT",
              `inspect: the request body did not arrive within ${seconds} s (it stalled after ${size} bytes); send the whole body at once.`,
            ),
          ),
        ),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        settle(() => fail(new InspectError("TOO_LARGE", `inspect: the request body exceeds ${MAX_BODY_BYTES} bytes.`)));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(() => done(Buffer.concat(chunks)));
    const onError = (error: Error) => settle(() => fail(error));
    request.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "form.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

/** The page's files, shipped in the package under assets/inspect (src/inspect and dist/inspect both sit two levels below). */
const ASSETS = new URL("../../assets/inspect/", import.meta.url);

/** Whether `name` is one of the page's files. */
export function isAsset(name: string): boolean {
  return Object.hasOwn(CONTENT_TYPES, name);
}

/** Sends one of the page's files. */
export async function sendAsset(response: ServerResponse, name: string): Promise<void> {
  const body = await readFile(new URL(name, ASSETS));
  response.writeHead(200, {
    "content-type": CONTENT_TYPES[name] as string,
    "cache-control": "no-store",
    "content-security-policy": PAGE_POLICY,
  });
  response.end(body);
}

/** A path segment, decoded; a malformed escape is a bad request, not a crash. */
export function decode(part: string | undefined): string {
  try {
    return decodeURIComponent(part ?? "");
  } catch {
    throw new InspectError("BAD_REQUEST", `inspect: ${quote(part)} is not a valid URL component.`);
  }
}
