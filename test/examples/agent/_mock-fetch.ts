/** A `fetch` that answers from a script, so the real SDK runs with no network. */
import type { JsonObject } from "../../../src/examples/agent/index.js";
import type { FetchLike, LiveSettings } from "../../../src/examples/agent/live/index.js";

/** One request the SDK made. */
export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: JsonObject;
  readonly signal: AbortSignal | undefined;
}

/**
 * A scripted reply: a JSON body with a status (default 200), a raw text body with its content type (a
 * gateway's HTML page), server-sent events (one `data:` event per item, sent one at a time), or an error
 * to throw as fetch would. An event stream ends with `data: [DONE]`, unless `cut` ends it early: `close`
 * closes the body cleanly after the events, `error` breaks the connection.
 */
export type ScriptedReply =
  | { readonly status?: number; readonly body: unknown }
  | { readonly status?: number; readonly text: string; readonly contentType: string }
  | { readonly sse: readonly unknown[]; readonly cut?: "close" | "error" }
  | Error;

/** A body that sends each event as its own chunk, as a server flushing SSE would. */
function eventStream(events: readonly unknown[], cut: "close" | "error" | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const frames = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  if (cut === undefined) frames.push("data: [DONE]\n\n");
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const frame = frames[next++];
      if (frame !== undefined) controller.enqueue(encoder.encode(frame));
      else if (cut === "error") controller.error(new Error("socket hang up"));
      else controller.close();
    },
  });
}

/** A fetch that plays back `replies` in order and records every request. */
export function mockFetch(...replies: ScriptedReply[]) {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    requests.push({
      url,
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? (JSON.parse(init.body) as JsonObject) : {},
      signal: init?.signal ?? undefined,
    });
    const reply = replies[requests.length - 1];
    if (reply === undefined) throw new Error(`mockFetch: no reply scripted for request ${requests.length} (${url})`);
    if (reply instanceof Error) throw reply;
    if ("sse" in reply)
      return new Response(eventStream(reply.sse, reply.cut), { status: 200, headers: { "content-type": "text/event-stream" } });
    if ("text" in reply) return new Response(reply.text, { status: reply.status ?? 200, headers: { "content-type": reply.contentType } });
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, requests };
}

/** Settings for a test client; nothing here is a real credential. */
export const testSettings = (overrides: Partial<LiveSettings> = {}): LiveSettings => ({
  provider: "deepseek",
  apiKey: "test-key",
  model: "test-model",
  baseURL: "https://provider.test/v1",
  defaultApi: "chat",
  ...overrides,
});

/** A completed Responses API reply with the given output items. */
export function responsesReply(output: JsonObject[], status = "completed"): { body: JsonObject } {
  return {
    body: {
      id: `resp_${Math.random().toString(16).slice(2)}`,
      object: "response",
      created_at: 0,
      model: "test-model",
      status,
      output,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
      ...(status === "incomplete" ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
    },
  };
}

/** A Responses `message` item with one output_text part. */
export const messageItem = (text: string, id = "msg_1"): JsonObject => ({
  type: "message",
  id,
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});

/** A Responses `function_call` item. */
export const functionCallItem = (callId: string, name: string, args: string): JsonObject => ({
  type: "function_call",
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
  status: "completed",
});

/** Chat Completions chunks (`stream: true`) streaming `text` in `pieces`, then the finish reason and usage. */
export function chatChunks(pieces: readonly string[], finishReason: string | null = "stop"): JsonObject[] {
  const chunk = (delta: JsonObject, finish: string | null = null): JsonObject => ({
    id: "chatcmpl-s1",
    object: "chat.completion.chunk",
    created: 0,
    model: "test-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((piece) => chunk({ content: piece })),
    ...(finishReason === null ? [] : [chunk({}, finishReason)]),
    ...(finishReason === null
      ? []
      : [
          {
            id: "chatcmpl-s1",
            object: "chat.completion.chunk",
            created: 0,
            model: "test-model",
            choices: [],
            usage: { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 },
          },
        ]),
  ];
}

/** A Chat Completions reply with one choice. */
export function chatReply(message: JsonObject, finishReason = "stop"): { body: JsonObject } {
  return {
    body: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "test-model",
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    },
  };
}
