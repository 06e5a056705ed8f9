/**
 * The agent loop's model from any AI SDK `LanguageModel` (`ai` 6): OpenAI, Anthropic, Google, Mistral,
 * Ollama, the gateway, or the SDK's own mock. Tools are declared without `execute`, so the SDK only
 * proposes calls; the loop's tools node checks the whole batch and runs it, under the loop's budgets,
 * exactly as with the built-in adapters. Like them it is stateless: every request carries the run's
 * history, rebuilt from the run's messages.
 */
import type { JSONSchema7, LanguageModel, ModelMessage, ToolSet } from "ai";
import { MessageDelta, type NodeContext } from "../../../index.js";
import { copyData } from "../../_data.js";
import { isJsonObject, type JsonObject, type ModelTurn, type ToolCall } from "../contracts.js";
import type { AgentModel } from "../model.js";
import type { AgentMessage } from "../state.js";
import { toolDefinitions, type ToolDefinition } from "../tools.js";
import { AGENT_INSTRUCTIONS } from "../live/instructions.js";
import { MAX_OUTPUT_TOKENS } from "../live/live-model-base.js";
import { ProviderResponseError } from "../live/provider-error.js";
import { loadOptionalPackage } from "../live/setup-error.js";

/** The `ai` package's module. */
type AiSdk = typeof import("ai");

/**
 * `ai` is an optional peer: it is loaded on the first request, not when the module is imported, so
 * `import "typed-state-graph/examples"` works without it.
 */
function loadAiSdk(): Promise<AiSdk> {
  return loadOptionalPackage({ api: "AiSdkModel", name: '"ai" (6.x)', install: "ai@6", load: () => import("ai") });
}

/** Options of {@link AiSdkModel}. */
export interface AiSdkModelOptions {
  /** Default the agent's instructions. */
  readonly instructions?: string;
  /** Default the teaching tools' definitions. */
  readonly tools?: readonly ToolDefinition[];
  /** Stream with `streamText`, writing each text delta to the node's writer as a `MessageDelta`. Default: `generateText`. */
  readonly stream?: boolean;
  /** Default 4096. */
  readonly maxOutputTokens?: number;
}

/** The finish reasons a turn is taken from; anything else (length, content-filter, error) is INCOMPLETE_RESPONSE. */
const COMPLETE = new Set(["stop", "tool-calls"]);

/**
 * An {@link AgentModel} backed by an AI SDK `LanguageModel`. The `ai` package is loaded on the first
 * request; without it, that request rejects with a `LiveSetupError` (`MISSING_SDK`).
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * const graph = buildAgentGraph(new AiSdkModel(openai("gpt-4.1-mini"), { stream: true }));
 * ```
 */
export class AiSdkModel implements AgentModel {
  readonly #model: LanguageModel;
  readonly #instructions: string;
  readonly #definitions: readonly ToolDefinition[];
  #tools: ToolSet | undefined;
  readonly #stream: boolean;
  readonly #maxOutputTokens: number;

  constructor(model: LanguageModel, options: AiSdkModelOptions = {}) {
    this.#model = model;
    this.#instructions = options.instructions ?? AGENT_INSTRUCTIONS;
    this.#definitions = options.tools ?? toolDefinitions();
    this.#stream = options.stream === true;
    this.#maxOutputTokens = options.maxOutputTokens ?? MAX_OUTPUT_TOKENS;
  }

  async generate(messages: AgentMessage[], context?: NodeContext): Promise<ModelTurn> {
    const sdk = await loadAiSdk();
    this.#tools ??= toolSetOf(sdk, this.#definitions);
    const request = {
      model: this.#model,
      system: this.#instructions,
      messages: toModelMessages(messages),
      tools: this.#tools,
      maxOutputTokens: this.#maxOutputTokens,
      // One request per model step: the loop counts every attempt, so the SDK retries none.
      maxRetries: 0,
      ...(context === undefined ? {} : { abortSignal: context.signal }),
    };
    if (!this.#stream) {
      const result = await sdk.generateText(request);
      return turnOf(result.finishReason, result.text, result.content);
    }
    const result = sdk.streamText({ ...request, onError: () => undefined });
    let failure: unknown;
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") context?.writer(new MessageDelta(part.id, part.text));
      else if (part.type === "error") failure = part.error;
    }
    if (failure !== undefined) {
      throw new ProviderResponseError(
        "STREAM_INTERRUPTED",
        `AiSdkModel: the stream broke off (${failure instanceof Error ? failure.message : String(failure)}); nothing was taken from the partial reply. Run again, or run without streaming.`,
        { cause: failure },
      );
    }
    return turnOf(await result.finishReason, await result.text, await result.content);
  }
}

/** The tools as the SDK declares them: without `execute`, so the SDK only proposes calls. */
function toolSetOf(sdk: AiSdk, definitions: readonly ToolDefinition[]): ToolSet {
  return Object.fromEntries(
    definitions.map((definition) => [
      definition.name,
      sdk.tool({
        description: definition.description,
        inputSchema: sdk.jsonSchema({ ...copyData(definition.parameters), required: [...definition.parameters.required] } as JSONSchema7),
      }),
    ]),
  );
}

/**
 * Rebuilds the AI SDK messages (without the system message) from a run's messages: text and tool-call
 * parts for the assistant, a JSON tool result per observation, paired by call id.
 *
 * @example
 * ```ts
 * toModelMessages([{ role: "user", content: "Hi" }]); // [{ role: "user", content: "Hi" }]
 * ```
 */
export function toModelMessages(messages: readonly AgentMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case "user":
        return { role: "user", content: message.content };
      case "assistant":
        return {
          role: "assistant",
          content: [
            ...(message.content === null ? [] : [{ type: "text" as const, text: message.content }]),
            ...message.toolCalls.map((call) => ({
              type: "tool-call" as const,
              toolCallId: call.callId,
              toolName: call.name,
              input: copyData(call.arguments),
            })),
          ],
        };
      case "tool":
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: message.callId,
              toolName: message.name,
              output: { type: "json", value: copyData(message.content) },
            },
          ],
        };
    }
  });
}

/** A content part of a result, as far as the turn reads it. */
interface ContentPart {
  readonly type: string;
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
  readonly invalid?: boolean | undefined;
}

/** The turn an AI SDK result stands for: calls first, else non-blank text. Throws {@link ProviderResponseError}. */
function turnOf(finishReason: string, text: string, content: readonly ContentPart[]): ModelTurn {
  if (!COMPLETE.has(finishReason)) {
    throw new ProviderResponseError(
      "INCOMPLETE_RESPONSE",
      `AiSdkModel: the finish reason is ${JSON.stringify(finishReason)}, not "stop" or "tool-calls"; nothing was taken from the reply.`,
    );
  }
  const providerItems = content.map((part) => toJsonPart(part));
  const calls = content.filter((part) => part.type === "tool-call").map(toToolCall);
  if (calls.length > 0) return { toolCalls: calls, providerItems };
  const answer = text.trim();
  if (answer === "") {
    throw new ProviderResponseError(
      "EMPTY_RESPONSE",
      "AiSdkModel: the reply has no tool calls and blank text; there is nothing to act on.",
    );
  }
  return { finalAnswer: answer, providerItems };
}

function toToolCall(part: ContentPart): ToolCall {
  const { toolCallId: callId, toolName: name, input } = part;
  if (typeof callId !== "string" || typeof name !== "string") {
    throw new ProviderResponseError("MALFORMED_RESPONSE", "AiSdkModel: a tool call lacks its id or its tool name.");
  }
  // The SDK marks a call whose input does not parse as invalid; 1e999 parses to Infinity, which isJsonObject refuses.
  if (part.invalid === true || !isJsonObject(input)) {
    throw new ProviderResponseError(
      "INVALID_TOOL_ARGUMENTS",
      `AiSdkModel: the arguments of call "${callId}" are not a JSON object with finite numbers.`,
    );
  }
  return { callId, name, arguments: copyData(input) };
}

/** A content part as JSON data for the turn's provider items (what is not JSON is left out). */
function toJsonPart(part: ContentPart): JsonObject {
  const json: JsonObject = { type: part.type };
  if (part.toolCallId !== undefined) json["toolCallId"] = part.toolCallId;
  if (part.toolName !== undefined) json["toolName"] = part.toolName;
  if (isJsonObject(part.input)) json["input"] = copyData(part.input);
  const text = (part as { text?: unknown }).text;
  if (typeof text === "string") json["text"] = text;
  return json;
}
