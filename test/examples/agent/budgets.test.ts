import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/index.js";
import {
  buildAgentGraph,
  createAgentNodes,
  DEFAULT_MAX_MODEL_STEPS,
  DEFAULT_MAX_TOOL_CALLS,
  initialAgentState,
  resolveAgentBudgets,
  type AgentModel,
  type ModelTurn,
} from "../../../src/examples/agent/index.js";
import { answerTurn, callTurn, convertCall, runAgent, spiedTools, turnsModel, weatherCall } from "./_helpers.js";

/** A model that asks for one new weather lookup every turn, forever. */
function endlessLookups() {
  let turn = 0;
  const model: AgentModel = { generate: (): ModelTurn => callTurn(weatherCall(`w${++turn}`)) };
  return { model, count: () => turn };
}

describe("maxModelSteps", () => {
  it("defaults to 6 requests, then ends with model_budget_exhausted", async () => {
    expect(DEFAULT_MAX_MODEL_STEPS).toBe(6);
    const looping = endlessLookups();
    const { state } = await runAgent(looping.model, { maxToolCalls: 100 });
    expect(looping.count()).toBe(6);
    expect(state.modelSteps).toBe(6);
    expect(state.error).toBe("model_budget_exhausted");
    expect(state.finalAnswer).toBeNull();
  });

  it("is checked before a request: an exhausted budget makes no request and clears the pending calls", async () => {
    const model = turnsModel(answerTurn("never asked"));
    const nodes = createAgentNodes(model.model, { maxModelSteps: 2 });
    const update = await nodes.model({ ...initialAgentState("q"), modelSteps: 2, pendingToolCalls: [weatherCall("w1")] });
    expect(model.count).toBe(0);
    expect(update).toMatchObject({ error: "model_budget_exhausted", pendingToolCalls: [] });
    expect(update.modelSteps).toBeUndefined();
  });

  it("counts a request that fails", async () => {
    const { state } = await runAgent(turnsModel(new Error("boom")).model, { maxModelSteps: 3 });
    expect(state.modelSteps).toBe(1);
  });
});

describe("maxToolCalls", () => {
  it("defaults to 6 handler runs", async () => {
    expect(DEFAULT_MAX_TOOL_CALLS).toBe(6);
    const looping = endlessLookups();
    const spies = spiedTools();
    const { state } = await runAgent(looping.model, { maxModelSteps: 20, tools: spies.tools });
    expect(spies.handlerCalls()).toBe(6);
    expect(state.toolCalls).toBe(6);
    expect(state.error).toBe("tool_budget_exhausted");
  });

  it("a batch that does not fit the remaining budget runs no handler at all", async () => {
    const spies = spiedTools();
    const model = turnsModel(callTurn(weatherCall("a"), weatherCall("b")), callTurn(weatherCall("c"), weatherCall("d")), answerTurn("x"));
    const { state } = await runAgent(model.model, { maxToolCalls: 3, tools: spies.tools });
    expect(spies.handlerCalls()).toBe(2);
    expect(state.toolCalls).toBe(2);
    expect(state.error).toBe("tool_budget_exhausted");
    expect(state.pendingToolCalls).toEqual([]);
    expect(state.messages.filter((m) => m.role === "tool").map((m) => m.callId)).toEqual(["a", "b"]);
  });

  it("0 is a valid budget: the model may still answer without tools", async () => {
    const spies = spiedTools();
    const answered = await runAgent(turnsModel(answerTurn("Hello.")).model, { maxToolCalls: 0, tools: spies.tools });
    expect(answered.state.finalAnswer).toBe("Hello.");
    const asked = await runAgent(turnsModel(callTurn(weatherCall("a"))).model, { maxToolCalls: 0, tools: spies.tools });
    expect(asked.state.error).toBe("tool_budget_exhausted");
    expect(spies.handlerCalls()).toBe(0);
  });

  it("counts attempts after they run: a failed handler counts, a call after it never started does not", async () => {
    const spies = spiedTools({
      celsius_to_fahrenheit: () => {
        throw new Error("down");
      },
    });
    const model = turnsModel(callTurn(weatherCall("a"), convertCall("b"), weatherCall("c", "Paris")));
    const { state } = await runAgent(model.model, { tools: spies.tools });
    expect(state.toolCalls).toBe(2);
    expect(spies.weatherRun).toHaveBeenCalledTimes(1);
  });
});

describe("invalid budgets are rejected when the nodes are built", () => {
  it.each([
    ["maxModelSteps", true],
    ["maxModelSteps", 0],
    ["maxModelSteps", -1],
    ["maxModelSteps", 1.5],
    ["maxModelSteps", Number.NaN],
    ["maxModelSteps", Infinity],
    ["maxModelSteps", "6"],
    ["maxToolCalls", true],
    ["maxToolCalls", -1],
    ["maxToolCalls", 0.5],
    ["maxToolCalls", null],
  ])("%s: %j", (name, value) => {
    const model = turnsModel().model;
    expect(() => buildAgentGraph(model, { [name]: value })).toThrow(InvalidOptionError);
    expect(() => createAgentNodes(model, { [name]: value })).toThrow(new RegExp(`^createAgentNodes: ${name} must be an integer`));
  });

  it("accepts the smallest valid budgets", () => {
    expect(resolveAgentBudgets({ maxModelSteps: 1, maxToolCalls: 0 })).toEqual({ maxModelSteps: 1, maxToolCalls: 0 });
    expect(resolveAgentBudgets()).toEqual({ maxModelSteps: 6, maxToolCalls: 6 });
  });

  it("rejects a model without generate()", () => {
    expect(() => createAgentNodes({} as AgentModel)).toThrow(/^createAgentNodes: model must be an object with a generate/);
  });
});
