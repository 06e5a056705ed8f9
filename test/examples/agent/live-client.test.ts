import { describe, expect, it } from "vitest";
import {
  DEEPSEEK_BASE_URL,
  LiveSetupError,
  openLiveClient,
  readLiveSettings,
  ResponsesModel,
} from "../../../src/examples/agent/live/index.js";
import { GraphError } from "../../../src/index.js";
import { testSettings } from "./_mock-fetch.js";

function setupError(action: () => unknown): LiveSetupError {
  try {
    action();
  } catch (error) {
    if (error instanceof LiveSetupError) return error;
    throw error;
  }
  throw new Error("expected a LiveSetupError");
}

describe("readLiveSettings", () => {
  it("DeepSeek variables select DeepSeek's endpoint and Chat Completions by default", () => {
    expect(readLiveSettings({ DEEPSEEK_API_KEY: "k", DEEPSEEK_MODEL: "m", OPENAI_API_KEY: "other" })).toEqual({
      provider: "deepseek",
      apiKey: "k",
      model: "m",
      baseURL: DEEPSEEK_BASE_URL,
      defaultApi: "chat",
    });
  });

  it("OpenAI-style variables take a base URL and default to the Responses API", () => {
    expect(readLiveSettings({ OPENAI_API_KEY: "k", OPENAI_MODEL: "m", OPENAI_BASE_URL: "https://compatible.test/v1" })).toEqual({
      provider: "openai-compatible",
      apiKey: "k",
      model: "m",
      baseURL: "https://compatible.test/v1",
      defaultApi: "responses",
    });
    expect(readLiveSettings({ OPENAI_API_KEY: "k", OPENAI_MODEL: "m" }).baseURL).toBe("https://api.openai.com/v1");
  });

  it.each([
    ["no variables", {}, /no credentials\. Set DEEPSEEK_API_KEY and DEEPSEEK_MODEL, or OPENAI_API_KEY and OPENAI_MODEL/],
    ["blank variables", { DEEPSEEK_API_KEY: " ", OPENAI_API_KEY: "" }, /no credentials/],
    ["a DeepSeek key without a model", { DEEPSEEK_API_KEY: "k" }, /DEEPSEEK_MODEL is not/],
    ["an OpenAI key without a model", { OPENAI_API_KEY: "k" }, /OPENAI_MODEL is not/],
  ])("missing credentials (%s) give a clear error", (_label, env, message) => {
    const error = setupError(() => readLiveSettings(env));
    expect(error.code).toBe("MISSING_CREDENTIALS");
    expect(error).toBeInstanceOf(GraphError);
    expect(error.message).toMatch(/^readLiveSettings: /);
    expect(error.message).toMatch(message);
  });
});

describe("openLiveClient", () => {
  it("explains how to install openai when the package is missing", async () => {
    const notFound = Object.assign(new Error("Cannot find package 'openai'"), { code: "ERR_MODULE_NOT_FOUND" });
    const attempt = openLiveClient(testSettings(), { loadSdk: () => Promise.reject(notFound) });
    await expect(attempt).rejects.toThrow(LiveSetupError);
    await expect(attempt).rejects.toThrow(
      /^openLiveClient: live runs need the optional package "openai" \(6\.x\)\. Install it with `npm install openai@6`/,
    );
  });

  it("does not disguise other load failures as a missing package", async () => {
    const broken = new SyntaxError("bad module");
    await expect(openLiveClient(testSettings(), { loadSdk: () => Promise.reject(broken) })).rejects.toBe(broken);
  });

  it("close() aborts requests still in flight and refuses new ones", async () => {
    const requestSignals: AbortSignal[] = [];
    // Behaves like fetch: hangs until aborted, then rejects with an AbortError.
    const hanging = (_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        if (init?.signal) requestSignals.push(init.signal);
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    const client = await openLiveClient(testSettings(), { fetch: hanging });
    const model = new ResponsesModel(client);
    const pending = model.generate([{ role: "user", content: "q" }]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requestSignals).toHaveLength(1);
    client.close();
    await expect(pending).rejects.toThrow();
    expect(client.closed).toBe(true);
    expect(requestSignals[0]?.aborted).toBe(true);
    await expect(model.generate([{ role: "user", content: "q" }])).rejects.toThrow();
    expect(requestSignals).toHaveLength(1);
  });
});
