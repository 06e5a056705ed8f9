/**
 * The Responses API adapter. The provider is used statelessly (no `previous_response_id`): every
 * request carries the run's history, rebuilt from the run's own messages, so nothing leaks between
 * runs or users through a "last response" variable.
 */
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import type { NodeContext } from "../../../index.js";
import { copyData, isRecord } from "../../_data.js";
import { isJsonObject, type JsonObject, type ModelTurn, type ToolCall } from "../contracts.js";
import type { AgentMessage } from "../state.js";
import type { ToolDefinition } from "../tools.js";
import { numberAt, stringAt, type GenAiReply } from "./genai-span.js";
import { LiveModel, MAX_OUTPUT_TOKENS } from "./live-model-base.js";
import { parseToolArguments } from "./parse-arguments.js";
import { ProviderResponseError } from "./provider-error.js";
import { collectResponsesStream } from "./stream-collect.js";

/**
 * A model backed by `client.responses.create`, with `max_output_tokens` 4096. With `stream: true` it
 * streams and writes each `output_text` delta to the node's writer.
 *
 * @example
 * ```ts
 * const client = await openLiveClient(readLiveSettings(process.env));
 * const graph = buildAgentGraph(new ResponsesModel(client));
 * ```
 */
export class ResponsesModel extends LiveModel {
  async generate(messages: AgentMessage[], context?: NodeContext): Promise<ModelTurn> {
    const request: ResponseCreateParamsNonStreaming = {
      model: this.client.settings.model,
      instructions: this.instructions,
      // Provider items go back verbatim, including item types this SDK version may not describe.
      input: toResponsesInput(messages) as unknown as ResponseInputItem[],
      tools: this.tools.map(toFunctionTool),
      max_output_tokens: MAX_OUTPUT_TOKENS,
    };
    const { openai, signal } = this.client;
    return this.traced(context, async (record) => {
      // Unstreamed, the raw reply rather than the SDK's parsed one: the SDK post-processes the body as a Response
      // object and throws a raw TypeError on anything else (a gateway's 200 HTML page). Errors (4xx, 5xx) still throw as APIErrors.
      const response = this.stream
        ? await collectResponsesStream(await openai.responses.create({ ...request, stream: true }, { signal }), context?.writer, signal)
        : await readJsonBody(await openai.responses.create(request, { signal }).asResponse());
      record(responseFacts(response));
      return parseResponsesTurn(response);
    });
  }
}

/** What a response says about itself: id, model, usage, and its status (or why it is incomplete) as the finish reason. */
function responseFacts(response: unknown): GenAiReply {
  const usage = isRecord(response) ? response["usage"] : undefined;
  const reason = stringAt(isRecord(response) ? response["incomplete_details"] : undefined, "reason") ?? stringAt(response, "status");
  return {
    id: stringAt(response, "id"),
    model: stringAt(response, "model"),
    inputTokens: numberAt(usage, "input_tokens"),
    outputTokens: numberAt(usage, "output_tokens"),
    finishReasons: reason === undefined ? undefined : [reason],
  };
}

/** The reply's body as JSON, or MALFORMED_RESPONSE naming its content type and how it starts. */
async function readJsonBody(reply: Response): Promise<unknown> {
  const text = await reply.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const start = text.trim().slice(0, 60).replaceAll(/\s+/g, " ");
    const type = reply.headers.get("content-type") ?? "no content type";
    throw new ProviderResponseError(
      "MALFORMED_RESPONSE",
      `ResponsesModel: the reply is not JSON (${type}: ${JSON.stringify(start)}…); is the base URL an OpenAI-compatible Responses endpoint?`,
      {
        cause: error,
      },
    );
  }
}

function toFunctionTool(definition: ToolDefinition): FunctionTool {
  return {
    type: "function",
    name: definition.name,
    description: definition.description,
    parameters: copyData({ ...definition.parameters }),
    strict: true,
  };
}

/**
 * Rebuilds the Responses `input` from a run's messages: the user text, each assistant turn's provider
 * items (copied, so editing the input never edits state), and a `function_call_output` per observation.
 * A turn without provider items (e.g. from the scripted model) is written as the items it stands for.
 *
 * @example
 * ```ts
 * toResponsesInput([{ role: "user", content: "Hi" }]); // [{ role: "user", content: "Hi" }]
 * ```
 */
export function toResponsesInput(messages: readonly AgentMessage[]): JsonObject[] {
  return messages.flatMap((message): JsonObject[] => {
    switch (message.role) {
      case "user":
        return [{ role: "user", content: message.content }];
      case "assistant":
        if (message.providerItems.length > 0) return copyData(message.providerItems);
        return message.content !== null
          ? [{ role: "assistant", content: message.content }]
          : message.toolCalls.map((call) => ({
              type: "function_call",
              call_id: call.callId,
              name: call.name,
              arguments: JSON.stringify(call.arguments),
            }));
      case "tool":
        return [{ type: "function_call_output", call_id: message.callId, output: JSON.stringify(message.content) }];
    }
  });
}

/**
 * Turns a Responses API reply into a {@link ModelTurn}. Calls take precedence over interim text such
 * as "Let me check."; the turn keeps every output item. Throws {@link ProviderResponseError}.
 *
 * @example
 * ```ts
 * parseResponsesTurn({ status: "completed", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] }] });
 * ```
 */
export function parseResponsesTurn(response: unknown): ModelTurn {
  if (!isRecord(response)) throw malformed("the response is not an object");
  if (typeof response["status"] !== "string") throw malformed("the response has no status");
  if (response["status"] !== "completed") {
    const reason = isRecord(response["incomplete_details"]) ? ` (${String(response["incomplete_details"]["reason"])})` : "";
    throw new ProviderResponseError(
      "INCOMPLETE_RESPONSE",
      `ResponsesModel: the response status is ${JSON.stringify(response["status"])}${reason}, not "completed"; nothing was taken from it.`,
    );
  }
  const output = response["output"];
  if (!Array.isArray(output) || !output.every(isJsonObject)) throw malformed("output is not an array of JSON items");
  const providerItems = copyData(output);
  const calls = providerItems.filter((item) => item["type"] === "function_call").map(toToolCall);
  if (calls.length > 0) return { toolCalls: calls, providerItems };
  const text = providerItems
    .filter((item) => item["type"] === "message")
    .flatMap((item) => (Array.isArray(item["content"]) ? item["content"] : []))
    .map((part) => (isRecord(part) && part["type"] === "output_text" && typeof part["text"] === "string" ? part["text"] : ""))
    .join("")
    .trim();
  if (text === "") {
    throw new ProviderResponseError(
      "EMPTY_RESPONSE",
      "ResponsesModel: the response has no tool calls and blank text; there is nothing to act on.",
    );
  }
  return { finalAnswer: text, providerItems };
}

function toToolCall(item: JsonObject): ToolCall {
  const { call_id: callId, name } = item;
  if (typeof callId !== "string" || typeof name !== "string") throw malformed("a function_call item lacks call_id or name");
  return { callId, name, arguments: parseToolArguments("ResponsesModel", callId, item["arguments"]) };
}

function malformed(detail: string): ProviderResponseError {
  return new ProviderResponseError(
    "MALFORMED_RESPONSE",
    `ResponsesModel: ${detail}; is the base URL an OpenAI-compatible Responses endpoint?`,
  );
}
