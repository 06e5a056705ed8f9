/**
 * Streamed replies put back together: the Chat Completions chunks into the completion they add up to,
 * the Responses events into the final response. Each text delta goes to `write` as it arrives; what the
 * adapters parse is the whole reply, exactly as without streaming. A stream that breaks off (the
 * connection drops, or it ends before the reply is complete) is `STREAM_INTERRUPTED`: the turn is never
 * built from half a message.
 */
import { MessageDelta } from "../../../index.js";
import { isRecord } from "../../_data.js";
import type { JsonObject } from "../contracts.js";
import { ProviderResponseError } from "./provider-error.js";

/** Where deltas go: the model node's `writer`, or nowhere. */
export type DeltaWriter = ((event: MessageDelta) => void) | undefined;

interface PartialCall {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Adds up Chat Completions chunks (`stream: true`) into the completion they stand for: content,
 * `reasoning_content` and tool calls concatenated per index, the finish reason and the usage.
 *
 * @example
 * ```ts
 * const completion = await collectChatStream(await client.openai.chat.completions.create({ ...request, stream: true }), writer);
 * parseChatTurn(completion);
 * ```
 */
export async function collectChatStream(chunks: AsyncIterable<unknown>, write: DeltaWriter, signal?: AbortSignal): Promise<JsonObject> {
  let id = "";
  let model: unknown;
  let content = "";
  let reasoning = "";
  let finish: unknown;
  let usage: unknown;
  const calls: PartialCall[] = [];
  await each("ChatCompletionsModel", chunks, signal, (chunk) => {
    if (!isRecord(chunk)) return;
    if (typeof chunk["id"] === "string" && id === "") id = chunk["id"];
    model ??= chunk["model"];
    if (isRecord(chunk["usage"])) usage = chunk["usage"];
    const choice: unknown = Array.isArray(chunk["choices"]) ? chunk["choices"][0] : undefined;
    if (!isRecord(choice)) return;
    if (choice["finish_reason"] !== null && choice["finish_reason"] !== undefined) finish = choice["finish_reason"];
    const delta = choice["delta"];
    if (!isRecord(delta)) return;
    if (typeof delta["content"] === "string" && delta["content"] !== "") {
      content += delta["content"];
      write?.(new MessageDelta(id, delta["content"]));
    }
    if (typeof delta["reasoning_content"] === "string") reasoning += delta["reasoning_content"];
    if (Array.isArray(delta["tool_calls"])) for (const part of delta["tool_calls"]) addCallPart(calls, part);
  });
  if (finish === undefined) throw interrupted("ChatCompletionsModel", "the stream ended before a finish reason");
  const message: JsonObject = { role: "assistant", content: content === "" && calls.length > 0 ? null : content };
  if (reasoning !== "") message["reasoning_content"] = reasoning;
  if (calls.length > 0) {
    message["tool_calls"] = calls.map((call) => ({
      ...(call.id === undefined ? {} : { id: call.id }),
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id,
    ...(typeof model === "string" ? { model } : {}),
    choices: [{ index: 0, message, finish_reason: finish as JsonObject[string] }],
    ...(isRecord(usage) ? { usage: usage as JsonObject } : {}),
  };
}

function addCallPart(calls: PartialCall[], part: unknown): void {
  if (!isRecord(part) || typeof part["index"] !== "number") return;
  const call = (calls[part["index"]] ??= { name: "", arguments: "" });
  if (typeof part["id"] === "string") call.id = part["id"];
  const fn = part["function"];
  if (!isRecord(fn)) return;
  if (typeof fn["name"] === "string") call.name += fn["name"];
  if (typeof fn["arguments"] === "string") call.arguments += fn["arguments"];
}

/**
 * The final response of a Responses stream (`response.completed`, or `response.incomplete` /
 * `response.failed`, which the adapter then refuses as it would unstreamed), after writing each
 * `response.output_text.delta` to `write`.
 *
 * @example
 * ```ts
 * const response = await collectResponsesStream(await client.openai.responses.create({ ...request, stream: true }), writer);
 * parseResponsesTurn(response);
 * ```
 */
export async function collectResponsesStream(events: AsyncIterable<unknown>, write: DeltaWriter, signal?: AbortSignal): Promise<unknown> {
  let final: unknown;
  await each("ResponsesModel", events, signal, (event) => {
    if (!isRecord(event)) return;
    const type = event["type"];
    if (type === "response.output_text.delta" && typeof event["delta"] === "string") {
      write?.(new MessageDelta(typeof event["item_id"] === "string" ? event["item_id"] : "", event["delta"]));
    } else if (type === "response.completed" || type === "response.incomplete" || type === "response.failed") {
      final = event["response"];
    } else if (type === "error") {
      throw interrupted("ResponsesModel", `the provider reported an error in the stream (${String(event["code"] ?? event["message"])})`);
    }
  });
  if (final === undefined) throw interrupted("ResponsesModel", "the stream ended before the response completed");
  return final;
}

/** Reads every item; a failure while reading (not the run's abort) is STREAM_INTERRUPTED. */
async function each(
  api: string,
  items: AsyncIterable<unknown>,
  signal: AbortSignal | undefined,
  take: (item: unknown) => void,
): Promise<void> {
  try {
    for await (const item of items) take(item);
  } catch (error) {
    if (error instanceof ProviderResponseError || signal?.aborted === true) throw error;
    throw interrupted(api, `the stream broke off (${error instanceof Error ? error.message : String(error)})`, error);
  }
}

function interrupted(api: string, detail: string, cause?: unknown): ProviderResponseError {
  return new ProviderResponseError(
    "STREAM_INTERRUPTED",
    `${api}: ${detail}; nothing was taken from the partial reply. Run again, or run without streaming.`,
    cause === undefined ? undefined : { cause },
  );
}
