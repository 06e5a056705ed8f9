/**
 * The AI SDK adapter, driven by the SDK's own mock model (`ai/test`), never a network call: the
 * scripted scenarios give the same counts and answers as the built-in scripted model and adapters,
 * tool calls and results map both ways, and streaming writes the text deltas.
 */
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";
import { AiSdkModel } from "../../../src/examples/agent/ai-sdk/index.js";
import { agentQuestion, ScriptedModel, type AgentModel, type AgentOptions, type AgentTask } from "../../../src/examples/agent/index.js";
import { ChatCompletionsModel, openLiveClient } from "../../../src/examples/agent/live/index.js";
import { runAgent } from "./_helpers.js";
import { chatReply, mockFetch, testSettings } from "./_mock-fetch.js";

type Turn =
  | { readonly text: string }
  | { readonly calls: readonly { readonly id: string; readonly name: string; readonly input: string }[] };

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function result(turn: Turn): LanguageModelV3GenerateResult {
  const calls = "calls" in turn;
  return {
    content: calls
      ? turn.calls.map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.input }))
      : [{ type: "text" as const, text: turn.text }],
    finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
    usage,
    warnings: [],
  };
}

/** The AI SDK mock model playing back `turns`, one per request. */
function mockModel(...turns: Turn[]) {
  return new MockLanguageModelV3({ doGenerate: turns.map(result) });
}

const weather = (id = "weather-1"): Turn => ({ calls: [{ id, name: "get_teaching_weather", input: '{"city":"Tokyo"}' }] });
const convert: Turn = { calls: [{ id: "convert-1", name: "celsius_to_fahrenheit", input: '{"temperature_c":18}' }] };

async function outcome(model: AgentModel, task: AgentTask, options: AgentOptions = {}) {
  const { state } = await runAgent(model, options, agentQuestion({ city: "Tokyo", task, language: "en" }));
  return { modelSteps: state.modelSteps, toolCalls: state.toolCalls, finalAnswer: state.finalAnswer, error: state.error };
}

describe("AiSdkModel on the AI SDK's mock model", () => {
  it.each([
    ["convert", [weather(), convert]],
    ["weather", [weather()]],
    ["greet", []],
  ] as const)("the %s scenario gives the scripted model's counts and answer", async (task, calls) => {
    const scripted = await outcome(new ScriptedModel({ city: "Tokyo", task, language: "en" }), task);
    const mock = mockModel(...calls, { text: scripted.finalAnswer as string });
    expect(await outcome(new AiSdkModel(mock), task)).toEqual(scripted);
    expect(mock.doGenerateCalls).toHaveLength(scripted.modelSteps);
  });

  it("an exhausted model budget stops the loop as with the scripted model, without another request", async () => {
    const scripted = await outcome(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }), "convert", { maxModelSteps: 2 });
    const mock = mockModel(weather(), convert, { text: "never asked" });
    expect(await outcome(new AiSdkModel(mock), "convert", { maxModelSteps: 2 })).toEqual(scripted);
    expect(scripted.error).toBe("model_budget_exhausted");
    expect(mock.doGenerateCalls).toHaveLength(2);
  });

  it.each([
    ["not JSON", "{city"],
    ["an infinite number", '{"city":1e999}'],
    ["not an object", '["Tokyo"]'],
  ])("invalid tool arguments (%s) fail the model step as the built-in adapters do", async (_label, input) => {
    const fetched = mockFetch(
      chatReply(
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "w1", type: "function", function: { name: "get_teaching_weather", arguments: input } }],
        },
        "tool_calls",
      ),
    );
    const builtIn = await outcome(new ChatCompletionsModel(await openLiveClient(testSettings(), { fetch: fetched.fetch })), "weather");
    const aiSdk = await outcome(new AiSdkModel(mockModel({ calls: [{ id: "w1", name: "get_teaching_weather", input }] })), "weather");
    expect(aiSdk).toEqual(builtIn);
    expect(aiSdk).toMatchObject({ modelSteps: 1, toolCalls: 0, error: "model_failed:ProviderResponseError" });
  });

  it("arguments that break the tool's schema reach the tools node's batch validation, as with any model", async () => {
    const mock = mockModel({ calls: [{ id: "c1", name: "celsius_to_fahrenheit", input: '{"temperature_c":"hot"}' }] });
    const result = await outcome(new AiSdkModel(mock), "convert");
    expect(result.error).toMatch(/^invalid_tool_request:/);
    expect(result.toolCalls).toBe(0);
  });

  it("maps the conversation to AI SDK messages: tool calls and results paired by id, system instructions apart", async () => {
    const mock = mockModel(weather(), { text: "Tokyo: 18.0°C, cloudy." });
    await runAgent(new AiSdkModel(mock, { instructions: "Be brief." }));
    const second = mock.doGenerateCalls[1];
    expect(second?.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "What is the weather in Tokyo?" }] },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "weather-1", toolName: "get_teaching_weather", input: { city: "Tokyo" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "weather-1",
            toolName: "get_teaching_weather",
            output: { type: "json", value: { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" } },
          },
        ],
      },
    ]);
    expect(second?.tools?.map((t) => t.name)).toEqual(["get_teaching_weather", "celsius_to_fahrenheit"]);
    expect(second?.maxOutputTokens).toBe(4096);
  });

  it("a finish reason other than stop or tool-calls is INCOMPLETE_RESPONSE", async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: { ...result({ text: "Tokyo is" }), finishReason: { unified: "length", raw: undefined } },
    });
    const failure = await new AiSdkModel(mock).generate([{ role: "user", content: "Hi" }]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "INCOMPLETE_RESPONSE" });
  });

  it("streams with streamText: text deltas go to the node's writer, the committed answer is the whole text", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Hello" },
      { type: "text-delta", id: "t1", delta: " there." },
      { type: "text-end", id: "t1" },
      { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
    ];
    const mock = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks: parts }) } });
    const written: unknown[] = [];
    const turn = await new AiSdkModel(mock, { stream: true }).generate([{ role: "user", content: "Hi" }], {
      signal: new AbortController().signal,
      node: "model",
      superstep: 1,
      attempt: 1,
      threadId: undefined,
      writer: (event) => written.push(event),
    });
    expect(turn.finalAnswer).toBe("Hello there.");
    expect(written).toEqual([
      { messageId: "t1", delta: "Hello" },
      { messageId: "t1", delta: " there." },
    ]);
  });

  it("a stream that errors is STREAM_INTERRUPTED", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Hel" },
      { type: "error", error: new Error("socket hang up") },
    ];
    const mock = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks: parts }) } });
    const failure = await new AiSdkModel(mock, { stream: true })
      .generate([{ role: "user", content: "Hi" }])
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "STREAM_INTERRUPTED" });
  });
});
