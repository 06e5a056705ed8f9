/**
 * A reply that is not the API's shape (a gateway's 200 HTML page, JSON without the expected fields) is
 * MALFORMED_RESPONSE from both adapters, through the real `openai` SDK with a mocked fetch: never a raw
 * TypeError from inside the SDK, never INCOMPLETE_RESPONSE.
 */
import { describe, expect, it } from "vitest";
import { ChatCompletionsModel, openLiveClient, ProviderResponseError, ResponsesModel } from "../../../src/examples/agent/live/index.js";
import { GraphError } from "../../../src/index.js";
import { mockFetch, testSettings, type ScriptedReply } from "./_mock-fetch.js";

const ADAPTERS = [
  ["responses", ResponsesModel],
  ["chat", ChatCompletionsModel],
] as const;

const html: ScriptedReply = {
  text: "<!doctype html>\n<html><body><h1>502 Bad Gateway</h1></body></html>",
  contentType: "text/html; charset=utf-8",
};

async function failureOf(
  api: "responses" | "chat",
  Model: typeof ResponsesModel | typeof ChatCompletionsModel,
  reply: ScriptedReply,
): Promise<unknown> {
  const client = await openLiveClient(testSettings({ defaultApi: api }), { fetch: mockFetch(reply).fetch });
  try {
    return await new Model(client).generate([{ role: "user", content: "What is the weather in Tokyo?" }]).then(() => "no error");
  } catch (error) {
    return error;
  } finally {
    client.close();
  }
}

describe.each(ADAPTERS)("the %s adapter on a reply that is not the API's", (api, Model) => {
  it.each([
    ["a 200 text/html page from a gateway", html],
    ["a 200 plain-text body", { text: "OK", contentType: "text/plain" }],
    ["an empty JSON object", { body: {} }],
    ["a JSON string", { body: "completed" }],
    ["JSON null", { body: null }],
    ["JSON with none of the expected fields", { body: { object: "list", data: [] } }],
  ] as [string, ScriptedReply][])("%s: MALFORMED_RESPONSE, a library error", async (_what, reply) => {
    const error = await failureOf(api, Model, reply);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ code: "MALFORMED_RESPONSE" });
    expect((error as Error).message).toMatch(/OpenAI-compatible (Responses|Chat Completions) endpoint\?$/);
  });
});

describe("the Responses adapter", () => {
  it("names the content type and how the page starts, keeping the parse error as the cause", async () => {
    const error = (await failureOf("responses", ResponsesModel, html)) as ProviderResponseError;
    expect(error.message).toBe(
      'ResponsesModel: the reply is not JSON (text/html; charset=utf-8: "<!doctype html> <html><body><h1>502 Bad Gateway</h1></body><"…); ' +
        "is the base URL an OpenAI-compatible Responses endpoint?",
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("keeps completed-but-no-output apart from a reply with no status at all", async () => {
    expect(await failureOf("responses", ResponsesModel, { body: { status: "completed" } })).toMatchObject({ code: "MALFORMED_RESPONSE" });
    expect(await failureOf("responses", ResponsesModel, { body: { status: "incomplete", output: [] } })).toMatchObject({
      code: "INCOMPLETE_RESPONSE",
    });
  });
});
