/**
 * The Chat Completions adapter. DeepSeek documents Chat Completions as its API, so the Responses
 * adapter alone would not reach it. Like the Responses adapter it is stateless: every request
 * carries the run's history, rebuilt from the run's messages.
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { NodeContext } from "../../../index.js";
import { copyData, isRecord } from "../../_data.js";
import { isJsonObject, type JsonObject, type ModelTurn, type ToolCall } from "../contracts.js";
import type { AgentMessage } from "../state.js";
import type { ToolDefinition } from "../tools.js";
import { numberAt, stringAt, type GenAiReply } from "./genai-span.js";
import { LiveModel, MAX_OUTPUT_TOKENS } from "./live-model-base.js";
import { parseToolArguments } from "./parse-arguments.js";
import { ProviderResponseError } from "./provider-error.js";
import { collectChatStream } from "./stream-collect.js";

/**
 * A model backed by `client.chat.completions.create`, with `max_tokens` 4096. With `stream: true` it
 * streams (`stream_options.include_usage` on) and writes each content delta to the node's writer.
 *
 * @example
 * ```ts
 * const client = await openLiveClient(readLiveSettings({ DEEPSEEK_API_KEY: key, DEEPSEEK_MODEL: model }));
 * const graph = buildAgentGraph(new ChatCompletionsModel(client));
 * ```
 */
export class ChatCompletionsModel extends LiveModel {
  async generate(messages: AgentMessage[], context?: NodeContext): Promise<ModelTurn> {
    const request: ChatCompletionCreateParamsNonStreaming = {
      model: this.client.settings.model,
      messages: [{ role: "system", content: this.instructions }, ...(toChatMessages(messages) as unknown as ChatCompletionMessageParam[])],
      tools: this.tools.map(toChatTool),
      max_tokens: MAX_OUTPUT_TOKENS,
    };
    const { openai, signal } = this.client;
    return this.traced(context, async (record) => {
      const completion: unknown = this.stream
        ? await collectChatStream(
            await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }, { signal }),
            context?.writer,
            signal,
          )
        : await openai.chat.completions.create(request, { signal });
      record(chatReplyFacts(completion));
      return parseChatTurn(completion);
    });
  }
}

/** What a completion says about itself: id, model, usage, finish reason. */
function chatReplyFacts(completion: unknown): GenAiReply {
  const choices = isRecord(completion) ? completion["choices"] : undefined;
  const finish = stringAt(Array.isArray(choices) ? choices[0] : undefined, "finish_reason");
  const usage = isRecord(completion) ? completion["usage"] : undefined;
  return {
    id: stringAt(completion, "id"),
    model: stringAt(completion, "model"),
    inputTokens: numberAt(usage, "prompt_tokens"),
    outputTokens: numberAt(usage, "completion_tokens"),
    finishReasons: finish === undefined ? undefined : [finish],
  };
}

function toChatTool(definition: ToolDefinition): ChatCompletionTool {
  // No `strict`: DeepSeek accepts it only on its beta endpoint; the tools node validates every call anyway.
  return {
    type: "function",
    function: { name: definition.name, description: definition.description, parameters: copyData({ ...definition.parameters }) },
  };
}

// The assistant message keys a request accepts back. DeepSeek requires `reasoning_content` on
// tool-call turns; response-only keys such as `annotations` would be rejected.
const REPLAYED_KEYS = ["role", "content", "tool_calls", "reasoning_content", "refusal"];

/**
 * Rebuilds the Chat Completions messages (without the system message) from a run's messages.
 *
 * @example
 * ```ts
 * toChatMessages([{ role: "user", content: "Hi" }]); // [{ role: "user", content: "Hi" }]
 * ```
 */
export function toChatMessages(messages: readonly AgentMessage[]): JsonObject[] {
  return messages.map((message): JsonObject => {
    switch (message.role) {
      case "user":
        return { role: "user", content: message.content };
      case "assistant": {
        const item = message.providerItems[0];
        if (item !== undefined) {
          return Object.fromEntries(
            Object.entries(copyData(item)).filter(([key, value]) => REPLAYED_KEYS.includes(key) && (value !== null || key === "content")),
          );
        }
        const calls = message.toolCalls.map((call) => ({
          id: call.callId,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
        return calls.length > 0
          ? { role: "assistant", content: message.content, tool_calls: calls }
          : { role: "assistant", content: message.content };
      }
      case "tool":
        return { role: "tool", tool_call_id: message.callId, content: JSON.stringify(message.content) };
    }
  });
}

/**
 * Turns a Chat Completions reply into a {@link ModelTurn}: calls first, else non-blank text. The turn
 * keeps the whole assistant message as its one provider item. Throws {@link ProviderResponseError}.
 *
 * @example
 * ```ts
 * parseChatTurn({ choices: [{ finish_reason: "stop", message: { role: "assistant", content: "Hi" } }] });
 * ```
 */
export function parseChatTurn(completion: unknown): ModelTurn {
  const choices = isRecord(completion) ? completion["choices"] : undefined;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (!isRecord(choice) || !isJsonObject(choice["message"])) throw malformed("the reply has no choice with a message");
  const finish = choice["finish_reason"];
  if (finish !== "stop" && finish !== "tool_calls") {
    throw new ProviderResponseError(
      "INCOMPLETE_RESPONSE",
      `ChatCompletionsModel: the finish reason is ${JSON.stringify(finish)}, not "stop" or "tool_calls"; nothing was taken from the reply.`,
    );
  }
  const message = copyData(choice["message"]);
  // The message is replayed as it is on the next request: content the API never sends would be stored and sent back.
  const content = message["content"];
  if (content !== undefined && content !== null && typeof content !== "string")
    throw malformed("the message's content is not text or null");
  const rawCalls = message["tool_calls"] ?? [];
  if (!Array.isArray(rawCalls)) throw malformed("tool_calls is not an array");
  const calls = rawCalls.map(toToolCall);
  if (calls.length > 0) return { toolCalls: calls, providerItems: [message] };
  const text = typeof message["content"] === "string" ? message["content"].trim() : "";
  if (text === "") {
    throw new ProviderResponseError(
      "EMPTY_RESPONSE",
      "ChatCompletionsModel: the reply has no tool calls and blank text; there is nothing to act on.",
    );
  }
  return { finalAnswer: text, providerItems: [message] };
}

function toToolCall(raw: unknown): ToolCall {
  const fn = isRecord(raw) ? raw["function"] : undefined;
  if (!isRecord(raw) || raw["type"] !== "function" || typeof raw["id"] !== "string" || !isRecord(fn) || typeof fn["name"] !== "string") {
    throw malformed("a tool call is not a function call with an id and a name");
  }
  return { callId: raw["id"], name: fn["name"], arguments: parseToolArguments("ChatCompletionsModel", raw["id"], fn["arguments"]) };
}

function malformed(detail: string): ProviderResponseError {
  return new ProviderResponseError(
    "MALFORMED_RESPONSE",
    `ChatCompletionsModel: ${detail}; is the base URL an OpenAI-compatible Chat Completions endpoint?`,
  );
}
