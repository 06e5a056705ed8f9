import { afterEach, describe, expect, it, vi } from "vitest";
import { runAgentCommand, type AgentCommandEnvironment } from "../../src/cli/agent.js";
import { runCli } from "../../src/cli/run-cli.js";
import { CompiledGraph } from "../../src/index.js";
import { chatChunks, chatReply, functionCallItem, messageItem, mockFetch, responsesReply } from "../examples/agent/_mock-fetch.js";

async function agent(argv: string[], outside: AgentCommandEnvironment = { env: {} }) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await runAgentCommand(argv, io, outside);
  return { code, stdout, stderr };
}

const DEEPSEEK_ENV = { DEEPSEEK_API_KEY: "test-key", DEEPSEEK_MODEL: "test-model" };
const SCRIPTED_ANSWER = "Tokyo: 18.0°C / 64.4°F, cloudy. Fixed teaching data, not live weather.";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("tsg agent (scripted)", () => {
  it("defaults to Tokyo, convert, en: prints the counts, roles, pending count, error and the answer; exit 0", async () => {
    const { code, stdout, stderr } = await agent([]);
    expect(stdout).toBe(
      [
        "model calls: 3 tool attempts: 2",
        "messages: user, assistant, tool, assistant, tool, assistant",
        "pending tool calls: 0",
        "error: none",
        SCRIPTED_ANSWER,
        "",
      ].join("\n"),
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("is registered as `tsg agent`", async () => {
    let stdout = "";
    const code = await runCli(["agent", "--task", "greet"], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
    });
    expect(code).toBe(0);
    expect(stdout).toContain("model calls: 1 tool attempts: 0");
  });

  it("--task weather --city Paris --language zh-CN", async () => {
    const { code, stdout } = await agent(["--task", "weather", "--city", "Paris", "--language", "zh-CN"]);
    expect(stdout).toContain("model calls: 2 tool attempts: 1\n");
    expect(stdout).toContain("Paris: 12.0°C, light rain. 固定教学数据，不是实时天气。\n");
    expect(code).toBe(0);
  });

  it("exits 1 with `No final answer.` when the model budget runs out", async () => {
    const { code, stdout } = await agent(["--task", "weather", "--max-model-steps", "1"]);
    expect(stdout).toBe(
      [
        "model calls: 1 tool attempts: 1",
        "messages: user, assistant, tool",
        "pending tool calls: 0",
        "error: model_budget_exhausted",
        "No final answer.",
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
  });

  it("passes --max-tool-calls to the tools budget", async () => {
    const { code, stdout } = await agent(["--max-tool-calls", "1"]);
    expect(stdout).toContain("error: tool_budget_exhausted\n");
    expect(stdout).toContain("model calls: 2 tool attempts: 1\n");
    expect(code).toBe(1);
  });

  it("--show-updates prints each step in the report command's format", async () => {
    const { stdout } = await agent(["--task", "weather", "--show-updates"]);
    expect(stdout.split("\n").slice(0, 3)).toEqual([
      "model updated: events, messages, modelSteps, pendingToolCalls",
      "tools updated: events, messages, pendingToolCalls, toolCalls",
      "model updated: events, finalAnswer, messages, modelSteps, pendingToolCalls",
    ]);
  });

  it("gives the engine a step limit of 2 × maxModelSteps + 4", async () => {
    const stream = vi.spyOn(CompiledGraph.prototype, "stream");
    await agent(["--max-model-steps", "3"]);
    expect(stream).toHaveBeenCalledWith(expect.anything(), { maxSteps: 10 });
    await agent([]);
    expect(stream).toHaveBeenLastCalledWith(expect.anything(), { maxSteps: 16 });
  });

  it("--help prints the options and exits 0", async () => {
    const { code, stdout } = await agent(["--help"]);
    expect(stdout).toMatch(/^Usage: tsg agent/);
    expect(stdout).toContain("--max-model-steps N");
    expect(code).toBe(0);
  });
});

describe("tsg agent: bad arguments exit 2 and name the problem", () => {
  it.each([
    [["--city", "London"], "--city must be one of Tokyo, Paris"],
    [["--task", "translate"], "--task must be one of greet, weather, convert"],
    [["--language", "fr"], "--language must be one of en, zh-CN"],
    [["--max-model-steps", "0"], "--max-model-steps must be an integer ≥ 1"],
    [["--max-model-steps", "two"], "--max-model-steps must be an integer ≥ 1"],
    [["--max-tool-calls=-1"], "--max-tool-calls must be an integer ≥ 0"],
    [["--max-tool-calls", "-1"], "--max-tool-calls"],
    [["--engine", "temporal"], "--engine must be one of mini, xstate, langgraph"],
    [["--verbose"], "--verbose"],
    [["Tokyo"], "Tokyo"],
    [["--live", "--api", "grpc"], "--api must be one of chat, responses"],
    [["--api", "chat"], "--api chooses the live API; add --live"],
  ])("%j", async (argv, message) => {
    const { code, stdout, stderr } = await agent(argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^tsg agent: /);
    expect(stderr).toContain(message);
  });
});

describe("tsg agent --live", () => {
  it("without credentials: a clear error, exit 2, and no scripted run", async () => {
    const { code, stdout, stderr } = await agent(["--live"], { env: {} });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("DEEPSEEK_API_KEY and DEEPSEEK_MODEL");
  });

  it("with DeepSeek variables: Chat Completions at DeepSeek by default", async () => {
    const mock = mockFetch(chatReply({ role: "assistant", content: "Tokyo: 18.0°C, cloudy (live)." }));
    const { code, stdout, stderr } = await agent(["--live"], { env: DEEPSEEK_ENV, fetch: mock.fetch });
    expect(mock.requests.map((r) => r.url)).toEqual(["https://api.deepseek.com/chat/completions"]);
    expect(mock.requests[0]?.body["model"]).toBe("test-model");
    expect(stderr).toMatch(/^live run: DeepSeek, Chat Completions, model test-model/);
    expect(stdout).toContain("Tokyo: 18.0°C, cloudy (live).\n");
    expect(stdout).not.toContain(SCRIPTED_ANSWER);
    expect(code).toBe(0);
  });

  it("--stream prints the model's tokens as they arrive, then the same summary", async () => {
    const mock = mockFetch({ sse: chatChunks(["Tokyo: ", "18.0°C, ", "cloudy (live)."]) });
    const { code, stdout } = await agent(["--live", "--stream"], { env: DEEPSEEK_ENV, fetch: mock.fetch });
    expect(mock.requests[0]?.body["stream"]).toBe(true);
    expect(stdout.startsWith("Tokyo: 18.0°C, cloudy (live).\nmodel calls: 1 tool attempts: 0\n")).toBe(true);
    expect(stdout.endsWith("Tokyo: 18.0°C, cloudy (live).\n")).toBe(true);
    expect(code).toBe(0);
  });

  it.each([
    [["--stream"], "--stream prints a live model's tokens; add --live"],
    [["--live", "--stream", "--engine", "xstate"], "--stream runs on the mini engine"],
  ])("refuses %j: exit 2", async (argv, message) => {
    const { code, stderr } = await agent(argv, { env: DEEPSEEK_ENV });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it("--api responses uses the Responses API, with the full tool round trip", async () => {
    const mock = mockFetch(
      responsesReply([functionCallItem("weather-1", "get_teaching_weather", '{"city":"Tokyo"}')]),
      responsesReply([messageItem("Tokyo: 18.0°C, cloudy.")]),
    );
    const { code, stdout } = await agent(["--live", "--api", "responses"], { env: DEEPSEEK_ENV, fetch: mock.fetch });
    expect(mock.requests.map((r) => r.url)).toEqual(["https://api.deepseek.com/responses", "https://api.deepseek.com/responses"]);
    expect(stdout).toContain("model calls: 2 tool attempts: 1\n");
    expect(code).toBe(0);
  });

  it("OpenAI-style variables use their base URL", async () => {
    const mock = mockFetch(responsesReply([messageItem("Hello.")]));
    const env = { OPENAI_API_KEY: "k", OPENAI_MODEL: "m", OPENAI_BASE_URL: "https://compatible.test/v1" };
    const { code } = await agent(["--live", "--task", "greet"], { env, fetch: mock.fetch });
    expect(mock.requests.map((r) => r.url)).toEqual(["https://compatible.test/v1/responses"]);
    expect(code).toBe(0);
  });

  it("a failing provider: exit 1, no fallback to the scripted answer, and the client is closed", async () => {
    const mock = mockFetch({ status: 500, body: { error: { message: "upstream down" } } });
    const { code, stdout } = await agent(["--live"], { env: DEEPSEEK_ENV, fetch: mock.fetch });
    expect(code).toBe(1);
    expect(stdout).toContain("error: model_failed:InternalServerError\n");
    expect(stdout).toContain("No final answer.\n");
    expect(stdout).not.toContain(SCRIPTED_ANSWER);
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.signal?.aborted).toBe(true);
  });

  it("closes the client even when the run throws", async () => {
    const mock = mockFetch();
    const abort = vi.spyOn(AbortController.prototype, "abort");
    vi.spyOn(CompiledGraph.prototype, "stream").mockImplementation(() => {
      throw new Error("engine exploded");
    });
    await expect(agent(["--live"], { env: DEEPSEEK_ENV, fetch: mock.fetch })).rejects.toThrow("engine exploded");
    expect(abort).toHaveBeenCalledTimes(1);
  });
});
