import { describe, expect, it } from "vitest";
import {
  buildAgentGraph,
  initialAgentState,
  routeAfterModel,
  routeAfterTools,
  ScriptedModel,
  agentStepLimit,
} from "../../../src/examples/agent/index.js";
import { answerTurn, callTurn, runAgent, spiedTools, turnsModel, weatherCall } from "./_helpers.js";

const base = () => initialAgentState("q");

describe("the agent graph's shape", () => {
  it("has the nodes model and tools, model → {tools, end: END} and tools → {model, end: END}", () => {
    const { spec } = buildAgentGraph(turnsModel().model);
    expect(spec.nodes).toEqual(["model", "tools"]);
    expect(spec.edges).toEqual([{ from: "__start__", to: "model" }]);
    expect(spec.routes.map(({ from, paths }) => ({ from, paths }))).toEqual([
      { from: "model", paths: { tools: "tools", end: "__end__" } },
      { from: "tools", paths: { model: "model", end: "__end__" } },
    ]);
  });

  it("declares every state field, appends messages and events, and replaces pendingToolCalls", () => {
    const { spec } = buildAgentGraph(turnsModel().model);
    expect([...(spec.fields ?? [])].sort()).toEqual(Object.keys(base()).sort());
    expect(spec.reducers).toEqual(
      expect.arrayContaining([
        { field: "messages", reducer: "append" },
        { field: "events", reducer: "append" },
        { field: "pendingToolCalls", reducer: "replace" },
      ]),
    );
  });

  it("the engine step limit is 2 × maxModelSteps + 4", () => {
    expect(agentStepLimit(6)).toBe(16);
    expect(agentStepLimit(1)).toBe(6);
  });
});

describe("routes", () => {
  it("after the model: end on an error, end when nothing is pending, otherwise tools", () => {
    expect(routeAfterModel({ ...base(), pendingToolCalls: [weatherCall("a")] })).toBe("tools");
    expect(routeAfterModel({ ...base(), pendingToolCalls: [] })).toBe("end");
    expect(routeAfterModel({ ...base(), pendingToolCalls: [weatherCall("a")], error: "model_failed:Error" })).toBe("end");
  });

  it("after the tools: end on an error, otherwise back to the model", () => {
    expect(routeAfterTools(base())).toBe("model");
    expect(routeAfterTools({ ...base(), error: "tool_failed:Error" })).toBe("end");
  });
});

describe("state through a run", () => {
  it("messages accumulate in order: question, call, observation, answer", async () => {
    const { state, trace } = await runAgent(turnsModel(callTurn(weatherCall("weather-1")), answerTurn("Tokyo: 18.0°C.")).model);
    expect(trace).toEqual(["model", "tools", "model"]);
    expect(state.messages).toEqual([
      { role: "user", content: "What is the weather in Tokyo?" },
      { role: "assistant", content: null, toolCalls: [weatherCall("weather-1")], providerItems: [] },
      {
        role: "tool",
        callId: "weather-1",
        name: "get_teaching_weather",
        content: { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" },
      },
      { role: "assistant", content: "Tokyo: 18.0°C.", toolCalls: [], providerItems: [] },
    ]);
    expect(state.finalAnswer).toBe("Tokyo: 18.0°C.");
    expect(state.error).toBeNull();
  });

  it("writing [] to pendingToolCalls clears the batch, so a call never runs twice", async () => {
    const spies = spiedTools();
    const model = turnsModel(callTurn(weatherCall("w1")), callTurn(weatherCall("w2", "Paris")), answerTurn("Done."));
    const { state } = await runAgent(model.model, { tools: spies.tools });
    expect(state.pendingToolCalls).toEqual([]);
    expect(spies.weatherRun.mock.calls.map(([args]) => args)).toEqual([{ city: "Tokyo" }, { city: "Paris" }]);
    expect(state.toolCalls).toBe(2);
  });

  it("events accumulate an account of every step", async () => {
    const { state } = await runAgent(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }));
    expect(state.events).toEqual([
      "model requested get_teaching_weather",
      "tools completed: 1",
      "model requested celsius_to_fahrenheit",
      "tools completed: 1",
      "model answered",
    ]);
  });

  it("one compiled graph used for two runs shares no messages between them", async () => {
    const graph = buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "weather", language: "en" }));
    const first = await graph.invoke(initialAgentState("first question"));
    const second = await graph.invoke(initialAgentState("second question"));
    expect(first.state.messages[0]).toEqual({ role: "user", content: "first question" });
    expect(second.state.messages[0]).toEqual({ role: "user", content: "second question" });
    expect(second.state.messages).toHaveLength(4);
    expect(JSON.stringify(second.state)).not.toContain("first question");
    expect(second.state.modelSteps).toBe(2);
  });
});

describe("a contract is not a truth check", () => {
  it("a model that answers 'Tokyo is 99 degrees.' without any tools ends with no error", async () => {
    const { state } = await runAgent(turnsModel(answerTurn("Tokyo is 99 degrees.")).model);
    expect(state.finalAnswer).toBe("Tokyo is 99 degrees.");
    expect(state.error).toBeNull();
    expect(state.toolCalls).toBe(0);
  });
});
