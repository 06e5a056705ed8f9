/** An HTTP client for the inspector's tests: node:http, so a test can send any Host and Origin header (fetch cannot). */
import { request } from "node:http";

export interface Reply {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as JSON (`{}` when it is not JSON). */
  readonly json: Readonly<Record<string, unknown>>;
}

/** Sends one request to 127.0.0.1:`port`; `body` is sent as JSON unless `type` says otherwise. */
export function call(
  port: number,
  method: string,
  path: string,
  options: { body?: unknown; host?: string; origin?: string; type?: string } = {},
): Promise<Reply> {
  return new Promise((done, fail) => {
    const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${port}` };
    if (options.origin !== undefined) headers["origin"] = options.origin;
    const payload = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (payload !== undefined) headers["content-type"] = options.type ?? "application/json";
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // Not JSON (the page, an event stream): `text` has it.
        }
        done({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text, headers: res.headers, json });
      });
    });
    req.on("error", fail);
    req.end(payload);
  });
}

/** One server-sent event's data: `type` is its `event:` line. */
export interface RunEventData {
  readonly type: string;
  readonly node?: string;
  readonly status?: string;
  readonly next?: readonly string[];
  readonly state?: Record<string, unknown>;
  readonly checkpointId?: string;
  readonly message?: string;
  readonly code?: string;
  readonly event?: unknown;
}

/** The events of a finished live run's server-sent-events stream, parsed. */
export async function runEvents(port: number, eventsPath: unknown): Promise<RunEventData[]> {
  const reply = await call(port, "GET", String(eventsPath));
  if (!reply.type.startsWith("text/event-stream")) throw new Error(`not an event stream: ${reply.status} ${reply.text}`);
  return reply.text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map(
      (block) =>
        JSON.parse(
          block
            .split("\n")
            .find((line) => line.startsWith("data: "))
            ?.slice(6) ?? "null",
        ) as RunEventData,
    );
}
