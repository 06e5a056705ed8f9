import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../src/examples/agent/index.js";
import {
  AGENT_INSTRUCTIONS,
  openLiveClient,
  parseResponsesTurn,
  ProviderResponseError,
  ResponsesModel,
  toResponsesInput,
} from "../../../src/examples/agent/live/index.js";
import { runAgent } from "./_helpers.js";
import { functionCallItem, messageItem, mockFetch, responsesReply, testSettings, type ScriptedReply } from "./_mock-fetch.js";

async function responsesModel(...replies: ScriptedReply[]) {
  const mock = mockFetch(...replies);
  const client = await openLiveClient(testSettings({ defaultApi: "responses" }), { fetch: mock.fetch });
  return { model: new ResponsesModel(client), client, requests: mock.requests };
}

function providerError(action: () => unknown): ProviderResponseError {
  try {
    action();
  } catch (error) {
    if (error instanceof ProviderResponseError) return error;
    throw error;
  }
  throw new Error("expected a ProviderResponseError");
}

const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque-provider-state" };
const firstOutput = [reasoning, messageItem("Let me check."), functionCallItem("weather-1", "get_teaching_weather", '{"city":"Tokyo"}')];

describe("the Responses adapter, through the real SDK with a mocked fetch", () => {
  it("round trip: the second request carries the first response's items verbatim plus a function_call_output for weather-1", async () => {
    const live = await responsesModel(
      responsesReply(firstOutput),
      responsesReply([messageItem("Tokyo: 18.0°C, cloudy. Fixed teaching data, not live weather.", "msg_2")]),
    );
    const { state } = await runAgent(live.model);

    expect(state.finalAnswer).toBe("Tokyo: 18.0°C, cloudy. Fixed teaching data, not live weather.");
    expect(state.error).toBeNull();
    expect(live.requests).toHaveLength(2);
    const [first, second] = live.requests;
    expect(first?.url).toBe("https://provider.test/v1/responses");
    expect(first?.method).toBe("POST");
    expect(first?.headers.get("authorization")).toBe("Bearer test-key");
    expect(first?.body).toMatchObject({ model: "test-model", instructions: AGENT_INSTRUCTIONS, max_output_tokens: 4096 });
    expect(first?.body["input"]).toEqual([{ role: "user", content: "What is the weather in Tokyo?" }]);
    for (const request of live.requests) expect(request.body).not.toHaveProperty("previous_response_id");

    expect(second?.body["input"]).toEqual([
      { role: "user", content: "What is the weather in Tokyo?" },
      ...firstOutput,
      {
        type: "function_call_output",
        call_id: "weather-1",
        output: JSON.stringify({ city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" }),
      },
    ]);
    const sent = JSON.stringify(live.requests.map((r) => r.body));
    expect(sent).not.toContain("tag-never-sent-7f3a");
    expect(sent).not.toContain("diagnosticTag");
  });

  it("offers both tools as strict function tools", async () => {
    const live = await responsesModel(responsesReply([messageItem("Hello.")]));
    await live.model.generate([{ role: "user", content: "Hi" }]);
    expect(live.requests[0]?.body["tools"]).toEqual([
      expect.objectContaining({
        type: "function",
        name: "get_teaching_weather",
        strict: true,
        parameters: expect.objectContaining({ additionalProperties: false }),
      }),
      expect.objectContaining({
        type: "function",
        name: "celsius_to_fahrenheit",
        strict: true,
        parameters: expect.objectContaining({ additionalProperties: false }),
      }),
    ]);
  });

  it("keeps the complete output items of a turn in the assistant message as providerItems", async () => {
    const live = await responsesModel(responsesReply(firstOutput), responsesReply([messageItem("Done.")]));
    const { state } = await runAgent(live.model);
    expect(state.messages[1]).toEqual({
      role: "assistant",
      content: null,
      toolCalls: [{ callId: "weather-1", name: "get_teaching_weather", arguments: { city: "Tokyo" } }],
      providerItems: firstOutput,
    });
  });

  it("opens the client with no retries and a 30 s request timeout", async () => {
    const live = await responsesModel();
    expect(live.client.openai.maxRetries).toBe(0);
    expect(live.client.openai.timeout).toBe(30_000);
  });

  it("a server error is one failed, counted request (no SDK retry), and its text stays out of state", async () => {
    const live = await responsesModel(
      { status: 500, body: { error: { message: "internal detail sk-live-123" } } },
      responsesReply([messageItem("retried")]),
    );
    const { state } = await runAgent(live.model);
    expect(live.requests).toHaveLength(1);
    expect(state.error).toBe("model_failed:InternalServerError");
    expect(state.modelSteps).toBe(1);
    expect(JSON.stringify(state)).not.toContain("sk-live-123");
  });

  it("a response that is not completed fails the model step with ProviderResponseError", async () => {
    const live = await responsesModel(responsesReply([messageItem("Tokyo is")], "incomplete"));
    const { state } = await runAgent(live.model);
    expect(state.error).toBe("model_failed:ProviderResponseError");
    expect(state.finalAnswer).toBeNull();
  });
});

describe("parseResponsesTurn", () => {
  const completed = (output: unknown[]) => ({ status: "completed", output });

  it("calls take precedence over interim text such as 'Let me check.'", () => {
    const turn = parseResponsesTurn(completed(firstOutput));
    expect(turn.finalAnswer).toBeUndefined();
    expect(turn.toolCalls).toEqual([{ callId: "weather-1", name: "get_teaching_weather", arguments: { city: "Tokyo" } }]);
  });

  it("joins the output text of an answer", () => {
    expect(parseResponsesTurn(completed([reasoning, messageItem("Tokyo: 18.0°C.")])).finalAnswer).toBe("Tokyo: 18.0°C.");
  });

  it.each([["incomplete"], ["failed"], ["in_progress"]])("rejects the status %s with INCOMPLETE_RESPONSE", (status) => {
    expect(providerError(() => parseResponsesTurn({ status, output: [messageItem("x")] })).code).toBe("INCOMPLETE_RESPONSE");
  });

  it.each([
    ["text that is not JSON", "city=Tokyo"],
    ["a JSON array", '["Tokyo"]'],
    ["JSON null", "null"],
    ["a number that overflows to Infinity", '{"temperature_c": 1e999}'],
  ])("rejects call arguments that are %s with INVALID_TOOL_ARGUMENTS", (_label, args) => {
    const error = providerError(() => parseResponsesTurn(completed([functionCallItem("c1", "celsius_to_fahrenheit", args)])));
    expect(error.code).toBe("INVALID_TOOL_ARGUMENTS");
    expect(error.message).toMatch(/^ResponsesModel: /);
  });

  it.each([
    ["no output at all", []],
    ["only reasoning", [reasoning]],
    ["blank text", [messageItem("  \n ")]],
  ])("rejects a response with no calls and %s with EMPTY_RESPONSE", (_label, output) => {
    expect(providerError(() => parseResponsesTurn(completed(output))).code).toBe("EMPTY_RESPONSE");
  });
});

describe("toResponsesInput", () => {
  const history = (): AgentMessage[] => [
    { role: "user", content: "q" },
    {
      role: "assistant",
      content: null,
      toolCalls: [{ callId: "weather-1", name: "get_teaching_weather", arguments: { city: "Tokyo" } }],
      providerItems: structuredClone(firstOutput),
    },
    { role: "tool", callId: "weather-1", name: "get_teaching_weather", content: { temperature_c: 18 } },
  ];

  it("copies the provider items, so changing the input never changes the state", () => {
    const messages = history();
    const input = toResponsesInput(messages);
    (input[1] as { encrypted_content: string }).encrypted_content = "tampered";
    expect(messages).toEqual(history());
  });

  it("writes a turn without provider items (e.g. from the scripted model) as the items it stands for", () => {
    const input = toResponsesInput([
      {
        role: "assistant",
        content: null,
        toolCalls: [{ callId: "c1", name: "get_teaching_weather", arguments: { city: "Paris" } }],
        providerItems: [],
      },
      { role: "assistant", content: "Paris: 12.0°C.", toolCalls: [], providerItems: [] },
    ]);
    expect(input).toEqual([
      { type: "function_call", call_id: "c1", name: "get_teaching_weather", arguments: '{"city":"Paris"}' },
      { role: "assistant", content: "Paris: 12.0°C." },
    ]);
  });
});
