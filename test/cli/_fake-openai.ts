/**
 * A fake OpenAI-compatible server on 127.0.0.1 (an ephemeral port): it answers each POST with the next
 * scripted JSON body, records what it was asked, and is closed by the test that started it. Live runs
 * go through the real `openai` SDK and the real `fetch` to it, so nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server received: its path and parsed JSON body. */
export interface ReceivedRequest {
  readonly path: string;
  readonly body: unknown;
}

/** A running fake server. */
export interface FakeOpenAI {
  /** The base URL to pass as `OPENAI_BASE_URL` (ends in `/v1`). */
  readonly baseURL: string;
  readonly requests: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a server answering the `replies` in order (200, application/json); past the last, a 500. */
export async function startFakeOpenAI(replies: readonly unknown[]): Promise<FakeOpenAI> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      requests.push({ path: request.url ?? "", body: text === "" ? undefined : JSON.parse(text) });
      const reply = replies[requests.length - 1];
      response.writeHead(reply === undefined ? 500 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify(reply ?? { error: { message: "the fake server has no more replies" } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
