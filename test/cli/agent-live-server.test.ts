/**
 * `tsg agent --live` against a fake OpenAI-compatible server on 127.0.0.1 (no network): a well-formed
 * reply runs to its answer; a malformed one (a shape the state cannot hold included: a call without an
 * id, content that is not text) is rejected with its coded error, printed with the fix, and nothing of it
 * reaches the run's state (the conversation holds the question only). A turn that passed the contract
 * but still broke the state would stop the run with INVALID_STATE (test/examples/agent/schema.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { runAgentCommand } from "../../src/cli/agent.js";
import { chatReply, functionCallItem, responsesReply } from "../examples/agent/_mock-fetch.js";
import { type FakeOpenAI, startFakeOpenAI } from "./_fake-openai.js";

let server: FakeOpenAI | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function liveAgent(replies: readonly unknown[], argv: readonly string[] = []) {
  server = await startFakeOpenAI(replies);
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const env = { OPENAI_API_KEY: "test-key", OPENAI_MODEL: "test-model", OPENAI_BASE_URL: server.baseURL };
  const code = await runAgentCommand(["--live", "--api", "chat", ...argv], io, { env });
  return { code, stdout, stderr, requests: server.requests };
}

const toolCall = (id: string) => ({ id, type: "function", function: { name: "get_teaching_weather", arguments: '{"city":"Tokyo"}' } });

describe("tsg agent --live against a fake OpenAI-compatible server", () => {
  it("a well-formed reply: the answer, exit 0, one request to the server", async () => {
    const { code, stdout, stderr, requests } = await liveAgent([chatReply({ role: "assistant", content: "Tokyo: 18.0°C, cloudy." }).body]);
    expect(requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
    expect(stdout).toContain("Tokyo: 18.0°C, cloudy.\n");
    expect(stderr).not.toContain("rejected");
    expect(code).toBe(0);
  });

  it.each([
    ["JSON without choices", { object: "chat.completion", id: "x" }, "MALFORMED_RESPONSE", "no choice with a message"],
    [
      "a tool call whose arguments are not JSON",
      chatReply(
        {
          role: "assistant",
          content: null,
          tool_calls: [{ ...toolCall("c1"), function: { name: "get_teaching_weather", arguments: "{city:" } }],
        },
        "tool_calls",
      ).body,
      "INVALID_TOOL_ARGUMENTS",
      'the arguments of call "c1" are not a JSON object',
    ],
    [
      "two tool calls with one id",
      chatReply({ role: "assistant", content: null, tool_calls: [toolCall("c1"), toolCall("c1")] }, "tool_calls").body,
      "DUPLICATE_CALL_ID",
      'the call id "c1" appears twice in one turn',
    ],
    [
      "a tool call without an id",
      chatReply({ role: "assistant", content: null, tool_calls: [{ type: "function", function: toolCall("c1").function }] }, "tool_calls")
        .body,
      "MALFORMED_RESPONSE",
      "a tool call is not a function call with an id and a name",
    ],
    [
      "content of the wrong type beside a tool call",
      chatReply({ role: "assistant", content: 42, tool_calls: [toolCall("c1")] }, "tool_calls").body,
      "MALFORMED_RESPONSE",
      "the message's content is not text or null",
    ],
    [
      "a reply cut short",
      chatReply({ role: "assistant", content: "Tok" }, "length").body,
      "INCOMPLETE_RESPONSE",
      'the finish reason is "length"',
    ],
  ])("%s: rejected with %s, printed with its message; nothing of the reply is stored; exit 1", async (_what, reply, code, detail) => {
    const result = await liveAgent([reply]);
    expect(result.requests).toHaveLength(1);
    expect(result.stderr).toContain(`tsg agent: the model's reply was rejected (${code}), so nothing of it was stored: `);
    expect(result.stderr).toContain(detail);
    // The state: the question only, no assistant message, the fault's kind and no answer.
    expect(result.stdout).toContain("messages: user\n");
    expect(result.stdout).toMatch(/error: model_failed:(ProviderResponseError|DuplicateCallId)\n/);
    expect(result.stdout).toContain("No final answer.\n");
    expect(result.code).toBe(1);
  });

  it("the Responses API: a call with non-JSON arguments is rejected the same way", async () => {
    const reply = responsesReply([functionCallItem("w1", "get_teaching_weather", "not json")]).body;
    const { code, stderr, stdout, requests } = await liveAgent([reply], ["--api", "responses"]);
    expect(requests.map((r) => r.path)).toEqual(["/v1/responses"]);
    expect(stderr).toContain("rejected (INVALID_TOOL_ARGUMENTS)");
    expect(stdout).toContain("messages: user\n");
    expect(code).toBe(1);
  });
});
