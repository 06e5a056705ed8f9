/** Request and response plumbing for the inspector's `node:http` server: JSON in, JSON out, static files. */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { InspectError } from "./errors.js";

/** The largest request body the inspector reads: an edited state, never a file. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Writes `value` as a JSON response. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  response.end(body);
}

/** Reads a JSON object body; refuses another content type (a form post from another site cannot send JSON). */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new InspectError(
      "UNSUPPORTED_MEDIA_TYPE",
      `inspect: send the request as JSON (content-type: application/json); got ${JSON.stringify(type)}.`,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new InspectError("TOO_LARGE", `inspect: the request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new InspectError("BAD_REQUEST", `inspect: the request body is not JSON: ${(error as Error).message}.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new InspectError("BAD_REQUEST", "inspect: the request body must be a JSON object.");
  return parsed as Record<string, unknown>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
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
    // The page loads only its own files: no CDN, no inline script.
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
    "x-content-type-options": "nosniff",
  });
  response.end(body);
}

/** A path segment, decoded; a malformed escape is a bad request, not a crash. */
export function decode(part: string | undefined): string {
  try {
    return decodeURIComponent(part ?? "");
  } catch {
    throw new InspectError("BAD_REQUEST", `inspect: ${JSON.stringify(part)} is not a valid URL component.`);
  }
}
