/**
 * The agent loop drawn as a graph:
 *
 * ```
 * START → model ── calls pending ──→ tools ── success ──→ model
 *           └── answer or error ──→ END      └── error ──→ END
 * ```
 */
import { append, END, replace, START, stateGraph, type CompiledGraph } from "../../index.js";
import type { AgentModel } from "./model.js";
import { createAgentNodes, type AgentOptions } from "./nodes.js";
import { agentStateSchema } from "./schema.js";
import type { AgentState } from "./state.js";

/**
 * After the model: stop on an error or when nothing is pending, otherwise run the tools.
 *
 * @example
 * ```ts
 * routeAfterModel(initialAgentState("Hi")); // "end"
 * ```
 */
export function routeAfterModel(state: AgentState): "tools" | "end" {
  return state.error !== null || state.pendingToolCalls.length === 0 ? "end" : "tools";
}

/**
 * After the tools: stop on an error, otherwise let the model read the observations.
 *
 * @example
 * ```ts
 * routeAfterTools({ ...initialAgentState("Hi"), error: "tool_failed:Error" }); // "end"
 * ```
 */
export function routeAfterTools(state: AgentState): "model" | "end" {
  return state.error !== null ? "end" : "model";
}

/**
 * Compiles the agent graph for one model. The graph keeps no run data, so one compiled graph can
 * serve many runs. Budgets and tools come from `options` (see {@link AgentOptions}).
 *
 * @example
 * ```ts
 * const graph = buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }));
 * const { state } = await graph.invoke(initialAgentState("What is the weather in Tokyo?"), { maxSteps: 16 });
 * state.finalAnswer; // "Tokyo: 18.0°C / 64.4°F, cloudy. Fixed teaching data, not live weather."
 * ```
 */
export function buildAgentGraph(model: AgentModel, options: AgentOptions = {}): CompiledGraph<AgentState> {
  const nodes = createAgentNodes(model, options);
  // The state's schema checks every state a run commits (a turn that breaks the state is never stored);
  // its JSON Schema lists the fields (no `fields` needed).
  return stateGraph(agentStateSchema)({
    // pendingToolCalls is the current batch, not a history: replacing it is what lets `[]` clear it.
    reducers: { messages: append, events: append, pendingToolCalls: replace },
  })
    .addNode("model", nodes.model)
    .addNode("tools", nodes.tools)
    .addEdge(START, "model")
    .addConditionalEdges("model", routeAfterModel, { tools: "tools", end: END })
    .addConditionalEdges("tools", routeAfterTools, { model: "model", end: END })
    .compile();
}

/**
 * The engine step limit that fits a run's budgets: each model request and each tool batch is a
 * node, plus the exhausted-budget visit and some slack. It guards against a broken route, not a
 * chatty model (the budgets do that).
 *
 * @example
 * ```ts
 * agentStepLimit(6); // 16
 * ```
 */
export function agentStepLimit(maxModelSteps: number): number {
  return 2 * maxModelSteps + 4;
}
