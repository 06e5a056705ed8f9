import { describe, expect, it } from "vitest";
import { agentQuestion, ScriptedModel, type ScriptedModelOptions } from "../../../src/examples/agent/index.js";
import { runAgent, spiedTools } from "./_helpers.js";

const scripted = (options: Partial<ScriptedModelOptions> = {}) =>
  new ScriptedModel({ city: "Tokyo", task: "convert", language: "en", ...options });

describe("ScriptedModel", () => {
  it("convert: asks for the weather, then a conversion, then answers; 3 model steps and 2 tool calls", async () => {
    const { state, trace } = await runAgent(scripted());
    expect(trace).toEqual(["model", "tools", "model", "tools", "model"]);
    expect(state.finalAnswer).toBe("Tokyo: 18.0°C / 64.4°F, cloudy. Fixed teaching data, not live weather.");
    expect(state.modelSteps).toBe(3);
    expect(state.toolCalls).toBe(2);
    expect(state.error).toBeNull();
    expect(state.pendingToolCalls).toEqual([]);
  });

  it("convert asks for the conversion with the observed Celsius value, not a remembered one", async () => {
    const warmer = { city: "Tokyo", temperature_c: 22, condition: "sunny", source: "fixed teaching record" };
    const spies = spiedTools({ get_teaching_weather: () => ({ ...warmer }) });
    const { state } = await runAgent(scripted(), { tools: spies.tools });
    expect(spies.convertRun).toHaveBeenCalledWith({ temperature_c: 22 });
    expect(state.finalAnswer).toBe("Tokyo: 22.0°C / 71.6°F, sunny. Fixed teaching data, not live weather.");
  });

  it("weather: 2 model steps and 1 tool call", async () => {
    const { state } = await runAgent(scripted({ task: "weather", city: "Paris" }));
    expect(state.finalAnswer).toBe("Paris: 12.0°C, light rain. Fixed teaching data, not live weather.");
    expect([state.modelSteps, state.toolCalls]).toEqual([2, 1]);
  });

  it("greet: 1 model step and 0 tool calls", async () => {
    const { state, trace } = await runAgent(scripted({ task: "greet" }));
    expect(trace).toEqual(["model"]);
    expect([state.modelSteps, state.toolCalls]).toEqual([1, 0]);
    expect(state.finalAnswer).toMatch(/^Hello!/);
  });

  it("answers with the zh-CN notice in zh-CN", async () => {
    const { state } = await runAgent(scripted({ language: "zh-CN", city: "Paris" }));
    expect(state.finalAnswer).toBe("Paris: 12.0°C / 53.6°F, light rain. 固定教学数据，不是实时天气。");
  });

  it("with maxModelSteps 1 the weather observation stays, the budget error is set and there is no answer", async () => {
    const { state } = await runAgent(scripted({ task: "weather" }), { maxModelSteps: 1 });
    expect(state.messages.at(-1)).toMatchObject({ role: "tool", name: "get_teaching_weather", content: { temperature_c: 18 } });
    expect(state.error).toBe("model_budget_exhausted");
    expect(state.finalAnswer).toBeNull();
    expect([state.modelSteps, state.toolCalls]).toEqual([1, 1]);
  });

  it("ignores the question: it is a test double, not a language interpreter", async () => {
    const { state } = await runAgent(scripted({ task: "weather" }), {}, "Tell me about Paris instead.");
    expect(state.finalAnswer).toMatch(/^Tokyo: /);
  });

  it.each([
    [{ city: "London" }, /^ScriptedModel: city must be one of Tokyo, Paris/],
    [{ task: "translate" }, /^ScriptedModel: task must be one of greet, weather, convert/],
    [{ language: "fr" }, /^ScriptedModel: language must be one of en, zh-CN/],
  ])("rejects the option %j", (bad, message) => {
    expect(() => scripted(bad as Partial<ScriptedModelOptions>)).toThrow(message);
  });
});

describe("agentQuestion", () => {
  it("words each task in each language", () => {
    expect(agentQuestion({ city: "Tokyo", task: "convert", language: "en" })).toBe(
      "What is the weather in Tokyo, in Celsius and Fahrenheit?",
    );
    expect(agentQuestion({ city: "Paris", task: "weather", language: "zh-CN" })).toBe("Paris 的天气怎么样？");
    expect(agentQuestion({ city: "Paris", task: "greet", language: "en" })).toBe("Hello!");
  });
});
