/**
 * The agent graph (model ⇄ tools) on LangGraph.js and on the mini engine: same scripted model, same
 * tools, same budgets; the final state, the steps and the routes must agree for every task.
 */
import { describe, expect, it } from "vitest";
import {
  AGENT_TASKS,
  agentQuestion,
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  LANGUAGES,
  ScriptedModel,
  TEACHING_CITIES,
  type AgentOptions,
} from "../../src/examples/agent/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { outcome, settle } from "./_helpers.js";

const BUDGETS: readonly AgentOptions[] = [{}, { maxModelSteps: 1 }, { maxModelSteps: 2 }, { maxToolCalls: 0 }, { maxToolCalls: 1 }];
const CASES = AGENT_TASKS.flatMap((task) => TEACHING_CITIES.flatMap((city) => LANGUAGES.map((language) => ({ task, city, language }))));

describe("the agent graph: LangGraph.js and the mini engine agree", () => {
  it.each(CASES)("$task, $city, $language", async (script) => {
    const graph = buildAgentGraph(new ScriptedModel(script));
    const input = initialAgentState(agentQuestion(script));
    const maxSteps = agentStepLimit(6);

    const mini = await graph.invoke(input, { maxSteps });
    const onLangGraph = await runOnLangGraph(graph, input, { maxSteps });
    const langGraphState = await (await toLangGraph(graph)).invoke(input, { recursionLimit: maxSteps });

    expect(outcome(onLangGraph)).toEqual(outcome(mini));
    expect(langGraphState).toEqual(mini.state);
    expect(mini.state.finalAnswer).not.toBeNull();
  });

  it.each(BUDGETS)("convert with budgets %o: same outcome, answered or not", async (budgets) => {
    const script = { task: "convert", city: "Tokyo", language: "en" } as const;
    const graph = buildAgentGraph(new ScriptedModel(script), budgets);
    const input = initialAgentState(agentQuestion(script));
    const maxSteps = agentStepLimit(budgets.maxModelSteps ?? 6);
    const mini = await settle(graph.invoke(input, { maxSteps }));
    expect(await settle(runOnLangGraph(graph, input, { maxSteps }))).toEqual(mini);
  });

  it("maxModelSteps 1: the lookup runs but no answer comes, on both engines", async () => {
    const script = { task: "weather", city: "Paris", language: "en" } as const;
    const graph = buildAgentGraph(new ScriptedModel(script), { maxModelSteps: 1 });
    const input = initialAgentState(agentQuestion(script));
    const { state } = await runOnLangGraph(graph, input, { maxSteps: agentStepLimit(1) });
    expect(state.finalAnswer).toBeNull();
    expect(state.toolCalls).toBe(1);
    expect(state).toEqual((await graph.invoke(input, { maxSteps: agentStepLimit(1) })).state);
  });

  it("the default convert run is model → tools → model → tools → model on both", async () => {
    const script = { task: "convert", city: "Tokyo", language: "en" } as const;
    const { trace, state } = await runOnLangGraph(buildAgentGraph(new ScriptedModel(script)), initialAgentState(agentQuestion(script)));
    expect(trace).toEqual(["model", "tools", "model", "tools", "model"]);
    expect(state.pendingToolCalls).toEqual([]);
    expect(state.finalAnswer).toBe("Tokyo: 18.0°C / 64.4°F, cloudy. Fixed teaching data, not live weather.");
  });
});
