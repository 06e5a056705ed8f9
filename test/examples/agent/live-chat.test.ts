import { describe, expect, it } from "vitest";
import {
  ChatCompletionsModel,
  openLiveClient,
  parseChatTurn,
  ProviderResponseError,
  toChatMessages,
} from "../../../src/examples/agent/live/index.js";
import { runAgent } from "./_helpers.js";
import { chatReply, mockFetch, testSettings, type ScriptedReply } from "./_mock-fetch.js";

async function chatModel(...replies: ScriptedReply[]) {
  const mock = mockFetch(...replies);
  const client = await openLiveClient(testSettings(), { fetch: mock.fetch });
  return { model: new ChatCompletionsModel(client), requests: mock.requests };
}

const callMessage = {
  role: "assistant",
  content: "Let me check.",
  reasoning_content: "The user wants Tokyo; I should call the tool.",
  tool_calls: [{ id: "weather-1", type: "function", function: { name: "get_teaching_weather", arguments: '{"city":"Tokyo"}' } }],
};

describe("the Chat Completions adapter, through the real SDK with a mocked fetch", () => {
  it("round trip: replays the assistant message (reasoning included) and answers each call by tool_call_id", async () => {
    const live = await chatModel(chatReply(callMessage, "tool_calls"), chatReply({ role: "assistant", content: "Tokyo: 18.0°C, cloudy." }));
    const { state } = await runAgent(live.model);
    expect(state.finalAnswer).toBe("Tokyo: 18.0°C, cloudy.");
    const [first, second] = live.requests;
    expect(first?.url).toBe("https://provider.test/v1/chat/completions");
    expect(first?.body).toMatchObject({ model: "test-model", max_tokens: 4096 });
    expect(first?.body["messages"]).toEqual([
      { role: "system", content: expect.stringContaining("teaching weather") },
      { role: "user", content: "What is the weather in Tokyo?" },
    ]);
    expect(first?.body["tools"]).toEqual([
      expect.objectContaining({ type: "function", function: expect.objectContaining({ name: "get_teaching_weather" }) }),
      expect.objectContaining({ type: "function", function: expect.objectContaining({ name: "celsius_to_fahrenheit" }) }),
    ]);
    expect((second?.body["messages"] as unknown[] | undefined)?.slice(1)).toEqual([
      { role: "user", content: "What is the weather in Tokyo?" },
      callMessage,
      {
        role: "tool",
        tool_call_id: "weather-1",
        content: JSON.stringify({ city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" }),
      },
    ]);
    expect(JSON.stringify(live.requests.map((r) => r.body))).not.toContain("tag-never-sent-7f3a");
  });

  it("a reply cut short (finish_reason length) fails the model step", async () => {
    const live = await chatModel(chatReply({ role: "assistant", content: "Tokyo is" }, "length"));
    const { state } = await runAgent(live.model);
    expect(state.error).toBe("model_failed:ProviderResponseError");
    expect(state.finalAnswer).toBeNull();
  });
});

describe("parseChatTurn", () => {
  const completion = (message: object, finish = "stop") => ({ choices: [{ message, finish_reason: finish }] });
  const codeOf = (value: unknown) => {
    try {
      parseChatTurn(value);
    } catch (error) {
      if (error instanceof ProviderResponseError) return error.code;
      throw error;
    }
    return undefined;
  };

  it("calls take precedence over interim text, and the whole message is the provider item", () => {
    const turn = parseChatTurn(completion(callMessage, "tool_calls"));
    expect(turn.toolCalls).toEqual([{ callId: "weather-1", name: "get_teaching_weather", arguments: { city: "Tokyo" } }]);
    expect(turn.providerItems).toEqual([callMessage]);
  });

  it.each([
    ["a blank answer", completion({ role: "assistant", content: " " }), "EMPTY_RESPONSE"],
    ["a null answer", completion({ role: "assistant", content: null }), "EMPTY_RESPONSE"],
    ["a filtered reply", completion({ role: "assistant", content: "x" }, "content_filter"), "INCOMPLETE_RESPONSE"],
    [
      "arguments that are not an object",
      completion(
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "n", arguments: "[1]" } }] },
        "tool_calls",
      ),
      "INVALID_TOOL_ARGUMENTS",
    ],
    ["no choices", { choices: [] }, "MALFORMED_RESPONSE"],
  ])("rejects %s", (_label, value, code) => {
    expect(codeOf(value)).toBe(code);
  });
});

describe("toChatMessages", () => {
  it("replays only the keys a request accepts and copies them", () => {
    const item = { ...callMessage, annotations: [], refusal: null };
    const messages = toChatMessages([{ role: "assistant", content: null, toolCalls: [], providerItems: [item] }]);
    expect(messages).toEqual([callMessage]);
    (messages[0] as { content: string }).content = "changed";
    expect(item.content).toBe("Let me check.");
  });
});
