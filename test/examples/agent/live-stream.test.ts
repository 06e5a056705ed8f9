/**
 * Token streaming from the live adapters, through the real SDK against a mocked server sending
 * server-sent events: deltas reach `streamMode: "messages"` as they arrive, the committed turn is the
 * whole message (the same as unstreamed), and a stream cut off mid-message fails the model step with
 * STREAM_INTERRUPTED without committing any of it. The GenAI span attributes are checked here too.
 */
import { describe, expect, it } from "vitest";
import { agentStepLimit, buildAgentGraph, initialAgentState, type AgentModel } from "../../../src/examples/agent/index.js";
import {
  ChatCompletionsModel,
  openLiveClient,
  ProviderResponseError,
  ResponsesModel,
  type LiveModelOptions,
} from "../../../src/examples/agent/live/index.js";
import type { StreamChunk } from "../../../src/index.js";
import { otelObserver } from "../../../src/otel/index.js";
import type { AgentState } from "../../../src/examples/agent/index.js";
import { memoryTracing, spanTree } from "../../helpers/otel.js";
import { chatChunks, chatReply, mockFetch, testSettings, type ScriptedReply } from "./_mock-fetch.js";

async function live(api: "chat" | "responses", options: LiveModelOptions, ...replies: ScriptedReply[]) {
  const mock = mockFetch(...replies);
  const client = await openLiveClient(testSettings(api === "chat" ? {} : { provider: "openai-compatible", defaultApi: "responses" }), {
    fetch: mock.fetch,
  });
  const model = api === "chat" ? new ChatCompletionsModel(client, options) : new ResponsesModel(client, options);
  return { model, requests: mock.requests };
}

/** Streams one question through the agent graph with updates and messages, and returns both. */
async function streamAgent(model: AgentModel) {
  const graph = buildAgentGraph(model);
  const input = initialAgentState("What is the weather in Tokyo?");
  const chunks: StreamChunk<AgentState>[] = [];
  for await (const chunk of graph.stream(input, { maxSteps: agentStepLimit(6), streamMode: ["messages", "values"] })) chunks.push(chunk);
  const values = chunks.filter((chunk) => chunk[0] === "values");
  const state = values.at(-1)?.[1].state as AgentState;
  const deltas = chunks.flatMap((chunk) => (chunk[0] === "messages" ? [chunk[1]] : []));
  return { state, deltas };
}

const weatherArgs = '{"city":"Tokyo"}';

/** Responses stream events: a text message in pieces, then response.completed (or a cut). */
function responsesEvents(pieces: readonly string[], complete = true): unknown[] {
  const text = pieces.join("");
  const item = {
    type: "message",
    id: "msg_s1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  const response = {
    id: "resp_s1",
    object: "response",
    created_at: 0,
    model: "test-model",
    status: "completed",
    output: [item],
    usage: { input_tokens: 40, output_tokens: 9, total_tokens: 49 },
  };
  return [
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    ...pieces.map((delta, i) => ({
      type: "response.output_text.delta",
      sequence_number: i + 1,
      item_id: "msg_s1",
      output_index: 0,
      content_index: 0,
      delta,
    })),
    ...(complete ? [{ type: "response.completed", sequence_number: pieces.length + 1, response }] : []),
  ];
}

describe("streaming Chat Completions (stream: true)", () => {
  it("yields the content deltas in order, and commits the same whole message as an unstreamed reply", async () => {
    const streamed = await live("chat", { stream: true }, { sse: chatChunks(["Tokyo: ", "18.0°C", ", cloudy."]) });
    const { state, deltas } = await streamAgent(streamed.model);
    expect(deltas).toEqual([
      { node: "model", delta: "Tokyo: ", messageId: "chatcmpl-s1" },
      { node: "model", delta: "18.0°C", messageId: "chatcmpl-s1" },
      { node: "model", delta: ", cloudy.", messageId: "chatcmpl-s1" },
    ]);
    expect(streamed.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 4096 });

    const plain = await live("chat", {}, chatReply({ role: "assistant", content: "Tokyo: 18.0°C, cloudy." }));
    const { state: unstreamed } = await streamAgent(plain.model);
    expect(state.finalAnswer).toBe("Tokyo: 18.0°C, cloudy.");
    expect(state).toEqual(unstreamed);
    expect(plain.requests[0]?.body["stream"]).toBeUndefined();
  });

  it("puts tool calls split over chunks back together, arguments concatenated, and runs them", async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "chatcmpl-c1",
      object: "chat.completion.chunk",
      created: 0,
      model: "test-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const calls = [
      chunk({ role: "assistant", content: null, reasoning_content: "Need the " }),
      chunk({ reasoning_content: "weather." }),
      chunk({ tool_calls: [{ index: 0, id: "weather-1", type: "function", function: { name: "get_teaching_weather", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: weatherArgs.slice(0, 6) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: weatherArgs.slice(6) } }] }),
      chunk({}, "tool_calls"),
    ];
    const streamed = await live("chat", { stream: true }, { sse: calls }, { sse: chatChunks(["Tokyo is cloudy."]) });
    const { state } = await streamAgent(streamed.model);
    expect(state.toolCalls).toBe(1);
    expect(state.finalAnswer).toBe("Tokyo is cloudy.");
    const replayed = (streamed.requests[1]?.body["messages"] as unknown[] | undefined)?.[2];
    expect(replayed).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "Need the weather.",
      tool_calls: [{ id: "weather-1", type: "function", function: { name: "get_teaching_weather", arguments: weatherArgs } }],
    });
  });

  it("a stream cut off mid-message fails the step with STREAM_INTERRUPTED and commits nothing of it", async () => {
    const streamed = await live("chat", { stream: true }, { sse: chatChunks(["Tokyo: ", "18"], null), cut: "close" });
    const { state, deltas } = await streamAgent(streamed.model);
    expect(deltas.map((d) => d.delta)).toEqual(["Tokyo: ", "18"]);
    expect(state.error).toBe("model_failed:ProviderResponseError");
    expect(state.finalAnswer).toBeNull();
    expect(state.messages.map((m) => m.role)).toEqual(["user"]);

    const direct = await live("chat", { stream: true }, { sse: chatChunks(["Tok"], null), cut: "close" });
    const failure = await direct.model.generate([{ role: "user", content: "Hi" }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderResponseError);
    expect((failure as ProviderResponseError).code).toBe("STREAM_INTERRUPTED");
    expect((failure as Error).message).toMatch(/^ChatCompletionsModel: the stream ended before a finish reason/);
  });

  it("a connection that breaks mid-stream is STREAM_INTERRUPTED too", async () => {
    const streamed = await live("chat", { stream: true }, { sse: chatChunks(["Tok"], null), cut: "error" });
    const failure = await streamed.model.generate([{ role: "user", content: "Hi" }]).catch((error: unknown) => error);
    expect((failure as ProviderResponseError).code).toBe("STREAM_INTERRUPTED");
    expect((failure as Error).message).toMatch(/^ChatCompletionsModel: the stream broke off/);
  });
});

describe("streaming the Responses API (stream: true)", () => {
  it("yields the output_text deltas by item id, and commits the completed response", async () => {
    const streamed = await live("responses", { stream: true }, { sse: responsesEvents(["Tokyo: ", "cloudy."]) });
    const { state, deltas } = await streamAgent(streamed.model);
    expect(deltas).toEqual([
      { node: "model", delta: "Tokyo: ", messageId: "msg_s1" },
      { node: "model", delta: "cloudy.", messageId: "msg_s1" },
    ]);
    expect(state.finalAnswer).toBe("Tokyo: cloudy.");
    expect(streamed.requests[0]?.body).toMatchObject({ stream: true, max_output_tokens: 4096 });
  });

  it("a stream that ends before response.completed is STREAM_INTERRUPTED; nothing is committed", async () => {
    const streamed = await live("responses", { stream: true }, { sse: responsesEvents(["Tokyo: "], false), cut: "close" });
    const { state } = await streamAgent(streamed.model);
    expect(state.error).toBe("model_failed:ProviderResponseError");
    expect(state.messages).toHaveLength(1);
    const again = await live("responses", { stream: true }, { sse: responsesEvents(["Tok"], false), cut: "error" });
    const failure = await again.model.generate([{ role: "user", content: "Hi" }]).catch((error: unknown) => error);
    expect((failure as ProviderResponseError).code).toBe("STREAM_INTERRUPTED");
  });
});

describe("GenAI spans of the live adapters", () => {
  it("a chat span under the model node's attempt, with model, token usage and finish reason", async () => {
    const { tracer, spans } = memoryTracing();
    const streamed = await live("chat", { stream: true, tracer }, { sse: chatChunks(["Hi."]) });
    const graph = buildAgentGraph(streamed.model);
    await graph.invoke(initialAgentState("Hello"), { maxSteps: 16, observer: otelObserver({ tracer }) });
    expect(spanTree(spans())).toEqual([
      "tsg.run done",
      "  tsg.superstep 1",
      "    tsg.node model #1 ok",
      "      chat test-model",
      "    · route model -end-> __end__",
    ]);
    expect(spans().find((span) => span.name === "chat test-model")?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "deepseek",
      "gen_ai.request.model": "test-model",
      "gen_ai.request.max_tokens": 4096,
      "gen_ai.request.stream": true,
      "gen_ai.response.id": "chatcmpl-s1",
      "gen_ai.response.model": "test-model",
      "gen_ai.usage.input_tokens": 31,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.response.finish_reasons": ["stop"],
    });
  });

  it("the Responses span records its usage and status; a failed call its error type", async () => {
    const { tracer, spans } = memoryTracing();
    const completed = responsesEvents(["Hi."]).at(-1) as { response: object };
    const ok = await live("responses", { tracer }, { body: completed.response });
    await ok.model.generate([{ role: "user", content: "Hi" }]);
    expect(spans()[0]?.attributes).toMatchObject({
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.input_tokens": 40,
      "gen_ai.usage.output_tokens": 9,
      "gen_ai.response.finish_reasons": ["completed"],
      "gen_ai.request.stream": false,
    });
    const cut = await live("responses", { stream: true, tracer }, { sse: responsesEvents(["Tok"], false), cut: "close" });
    await cut.model.generate([{ role: "user", content: "Hi" }]).catch(() => undefined);
    expect(spans()[1]?.attributes["error.type"]).toBe("STREAM_INTERRUPTED");
    expect(spans()[1]?.status.code).toBe(2);
  });
});
