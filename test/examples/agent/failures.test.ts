import { describe, expect, it } from "vitest";
import { createAgentNodes, initialAgentState, type ModelTurn } from "../../../src/examples/agent/index.js";
import { answerTurn, callTurn, convertCall, runAgent, spiedTools, turnsModel, weatherCall } from "./_helpers.js";

const SECRET = "db-password-hunter2";

describe("the whole batch is validated before any handler runs", () => {
  it.each([
    ["an unknown tool", { callId: "b", name: "delete_everything", arguments: {} }, "invalid_tool_request:UnknownTool"],
    ["wrong keys", { callId: "b", name: "get_teaching_weather", arguments: { city: "Paris", days: 3 } }, "invalid_tool_request:WrongKeys"],
    ["an unsupported city", weatherCall("b", "London"), "invalid_tool_request:UnsupportedCity"],
    ["a temperature given as text", convertCall("b", "18"), "invalid_tool_request:InvalidTemperature"],
  ])("a valid first call does not run when the second has %s", async (_label, bad, code) => {
    const spies = spiedTools();
    const model = turnsModel(callTurn(weatherCall("a"), bad));
    const { state } = await runAgent(model.model, { tools: spies.tools });
    expect(spies.handlerCalls()).toBe(0);
    expect(state.error).toBe(code);
    expect(state.toolCalls).toBe(0);
    expect(state.pendingToolCalls).toEqual([]);
    expect(state.messages.filter((m) => m.role === "tool")).toEqual([]);
    expect(model.count).toBe(1);
  });

  it("a non-finite temperature that reaches the tools node is rejected before any handler", async () => {
    const spies = spiedTools();
    const nodes = createAgentNodes(turnsModel().model, { tools: spies.tools });
    const update = await nodes.tools({ ...initialAgentState("q"), pendingToolCalls: [weatherCall("a"), convertCall("b", Infinity)] });
    expect(update.error).toBe("invalid_tool_request:NonFiniteTemperature");
    expect(spies.handlerCalls()).toBe(0);
  });
});

describe("a tool failure partway through a batch", () => {
  const failingConversion = () =>
    spiedTools({
      celsius_to_fahrenheit: () => {
        throw new RangeError(`conversion service at ${SECRET}`);
      },
    });

  it("keeps the completed observations and gives the failed call an {error} observation", async () => {
    const spies = failingConversion();
    const { state } = await runAgent(turnsModel(callTurn(weatherCall("a"), convertCall("b"), weatherCall("c", "Paris"))).model, {
      tools: spies.tools,
    });
    expect(state.messages.filter((m) => m.role === "tool")).toEqual([
      {
        role: "tool",
        callId: "a",
        name: "get_teaching_weather",
        content: { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" },
      },
      { role: "tool", callId: "b", name: "celsius_to_fahrenheit", content: { error: "tool_failed:RangeError" } },
    ]);
    expect(state.error).toBe("tool_failed:RangeError");
    expect(state.pendingToolCalls).toEqual([]);
  });

  it("does not call the model again", async () => {
    const model = turnsModel(callTurn(weatherCall("a"), convertCall("b")), answerTurn("made up after a failure"));
    const { state } = await runAgent(model.model, { tools: failingConversion().tools });
    expect(model.count).toBe(1);
    expect(state.finalAnswer).toBeNull();
  });

  it("keeps the private exception text out of state", async () => {
    const { state } = await runAgent(turnsModel(callTurn(convertCall("b"))).model, { tools: failingConversion().tools });
    expect(JSON.stringify(state)).not.toContain(SECRET);
  });

  it.each([
    ["a string", "64.4"],
    ["an array", [64.4]],
    ["null", null],
    ["undefined", undefined],
    ["a number", 64.4],
    ["an object with a non-finite number", { temperature_f: Infinity }],
    [
      "a class instance",
      new (class Reading {
        temperature_f = 64.4;
      })(),
    ],
  ])("a handler returning %s is a failure", async (_label, result) => {
    const spies = spiedTools({ celsius_to_fahrenheit: () => result });
    const { state } = await runAgent(turnsModel(callTurn(convertCall("b"))).model, { tools: spies.tools });
    expect(state.error).toBe("tool_failed:InvalidResult");
    expect(state.messages.at(-1)).toEqual({
      role: "tool",
      callId: "b",
      name: "celsius_to_fahrenheit",
      content: { error: "tool_failed:InvalidResult" },
    });
    expect(state.toolCalls).toBe(1);
  });

  it("an async handler that rejects fails the same way", async () => {
    const spies = spiedTools({ get_teaching_weather: async () => Promise.reject(new TypeError(SECRET)) });
    const { state } = await runAgent(turnsModel(callTurn(weatherCall("a"))).model, { tools: spies.tools });
    expect(state.error).toBe("tool_failed:TypeError");
    expect(JSON.stringify(state)).not.toContain(SECRET);
  });
});

describe("a model failure", () => {
  it("a throw gives model_failed:<Kind>, is counted, makes up no answer and keeps its text out of state", async () => {
    const { state } = await runAgent(turnsModel(new Error(`401 for key ${SECRET}`)).model);
    expect(state.error).toBe("model_failed:Error");
    expect(state.modelSteps).toBe(1);
    expect(state.finalAnswer).toBeNull();
    expect(state.messages).toHaveLength(1);
    expect(JSON.stringify(state)).not.toContain(SECRET);
  });

  it.each([
    ["a blank answer", { finalAnswer: " ", providerItems: [] }, "model_failed:BlankAnswer"],
    ["both an answer and calls", { finalAnswer: "x", toolCalls: [weatherCall("a")], providerItems: [] }, "model_failed:InvalidTurn"],
    ["a duplicate call id in one turn", callTurn(weatherCall("a"), weatherCall("a", "Paris")), "model_failed:DuplicateCallId"],
    ["a call with non-finite arguments", callTurn(convertCall("a", Infinity)), "model_failed:InvalidToolCall"],
  ])("an invalid turn (%s) fails the model step and runs nothing", async (_label, turn, code) => {
    const spies = spiedTools();
    const { state } = await runAgent(turnsModel(turn as ModelTurn).model, { tools: spies.tools });
    expect(state.error).toBe(code);
    expect(state.modelSteps).toBe(1);
    expect(state.pendingToolCalls).toEqual([]);
    expect(spies.handlerCalls()).toBe(0);
  });

  it("a call id already used in an earlier turn fails the model and is never executed again", async () => {
    const spies = spiedTools();
    const model = turnsModel(callTurn(weatherCall("weather-1")), callTurn(weatherCall("weather-1")));
    const { state } = await runAgent(model.model, { tools: spies.tools });
    expect(state.error).toBe("model_failed:ReusedCallId");
    expect(spies.weatherRun).toHaveBeenCalledTimes(1);
    expect(state.toolCalls).toBe(1);
    expect(state.modelSteps).toBe(2);
    expect(state.pendingToolCalls).toEqual([]);
  });
});
