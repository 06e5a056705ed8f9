/**
 * The two nodes of the agent loop. The model node asks for a turn and checks it; the tools node
 * checks a whole batch, then runs it. Every failure becomes a safe code in `state.error` and ends
 * the run: nothing is retried, nothing is made up, no exception text enters state.
 */
import type { NodeContext } from "../../index.js";
import { copyData } from "../_data.js";
import { resolveAgentBudgets, type AgentBudgets } from "./budgets.js";
import {
  ContractViolation,
  failureKind,
  isJsonObject,
  validateModelTurn,
  type JsonObject,
  type ModelTurn,
  type ToolCall,
} from "./contracts.js";
import type { AgentModel } from "./model.js";
import type { AgentMessage, AgentState, ToolMessage } from "./state.js";
import { teachingTools, validateToolBatch, type ToolSet } from "./tools.js";

/** Options of the agent nodes (and of `buildAgentGraph`). */
export interface AgentOptions extends Partial<AgentBudgets> {
  /** The tools the batch runs against; default {@link teachingTools}. */
  readonly tools?: ToolSet;
}

/** What an agent node returns: only the fields it changed. */
export type AgentUpdate = Partial<AgentState>;

/** The model and tools nodes, bound to one model, one tool set and one pair of budgets. */
export interface AgentNodes {
  readonly model: (state: AgentState, context?: NodeContext) => Promise<AgentUpdate>;
  readonly tools: (state: AgentState) => Promise<AgentUpdate>;
}

/**
 * Builds the two nodes. Budgets are checked here, so a bad budget fails before any run starts.
 *
 * @example
 * ```ts
 * const nodes = createAgentNodes(new ScriptedModel({ city: "Tokyo", task: "weather", language: "en" }), { maxToolCalls: 2 });
 * ```
 */
export function createAgentNodes(model: AgentModel, options: AgentOptions = {}): AgentNodes {
  if (typeof model !== "object" || model === null || typeof model.generate !== "function") {
    throw new TypeError("createAgentNodes: model must be an object with a generate(messages) method, such as a ScriptedModel.");
  }
  const budgets = resolveAgentBudgets(options, "createAgentNodes");
  const tools = options.tools ?? teachingTools;
  return {
    model: (state, context) => runModel(model, budgets, state, context),
    tools: (state) => runTools(tools, budgets, state),
  };
}

async function runModel(model: AgentModel, budgets: AgentBudgets, state: AgentState, context?: NodeContext): Promise<AgentUpdate> {
  // Checked before the request, so an exhausted budget never costs a call.
  if (state.modelSteps >= budgets.maxModelSteps) {
    return { error: "model_budget_exhausted", pendingToolCalls: [], events: [`model budget exhausted after ${state.modelSteps} requests`] };
  }
  const modelSteps = state.modelSteps + 1;
  let turn: ModelTurn;
  try {
    // The model gets its own copy of the conversation and nothing else: whatever it does to the
    // copy cannot change what the application checks below or what history records.
    // A streaming model writes deltas as they arrive; the update below is still the whole, checked turn.
    turn = validateModelTurn(await model.generate(copyData(state.messages), context));
    if (turn.toolCalls !== undefined) rejectReusedCallIds(turn.toolCalls, state.messages);
  } catch (error) {
    const code = `model_failed:${failureKind(error)}`;
    return { modelSteps, error: code, pendingToolCalls: [], events: [code] };
  }
  const providerItems = [...turn.providerItems];
  if (turn.finalAnswer !== undefined) {
    return {
      modelSteps,
      messages: [{ role: "assistant", content: turn.finalAnswer, toolCalls: [], providerItems }],
      finalAnswer: turn.finalAnswer,
      pendingToolCalls: [],
      events: ["model answered"],
    };
  }
  const calls = [...turn.toolCalls];
  return {
    modelSteps,
    messages: [{ role: "assistant", content: null, toolCalls: calls, providerItems }],
    pendingToolCalls: calls,
    events: [`model requested ${calls.map((call) => call.name).join(", ")}`],
  };
}

/** A call id is a correlation id for the whole run: an id seen before would run the same request twice. */
function rejectReusedCallIds(calls: readonly ToolCall[], history: readonly AgentMessage[]): void {
  const seen = new Set<string>();
  for (const message of history) {
    if (message.role === "assistant") for (const call of message.toolCalls) seen.add(call.callId);
    if (message.role === "tool") seen.add(message.callId);
  }
  const reused = calls.find((call) => seen.has(call.callId));
  if (reused !== undefined) {
    throw new ContractViolation("ReusedCallId", `model node: the call id "${reused.callId}" was used in an earlier turn.`);
  }
}

async function runTools(tools: ToolSet, budgets: AgentBudgets, state: AgentState): Promise<AgentUpdate> {
  const batch = state.pendingToolCalls;
  // All or nothing: starting half a batch would leave the model with calls it never got answers to.
  if (batch.length > budgets.maxToolCalls - state.toolCalls) {
    return {
      error: "tool_budget_exhausted",
      pendingToolCalls: [],
      events: [`tool budget exhausted: ${batch.length} requested, ${budgets.maxToolCalls - state.toolCalls} left`],
    };
  }
  try {
    validateToolBatch(batch, tools);
  } catch (error) {
    const code = `invalid_tool_request:${failureKind(error)}`;
    return { error: code, pendingToolCalls: [], events: [code] };
  }
  const observations: ToolMessage[] = [];
  let attempts = 0;
  for (const call of batch) {
    attempts += 1;
    try {
      observations.push({ role: "tool", callId: call.callId, name: call.name, content: await runOne(tools, call) });
    } catch (error) {
      const code = `tool_failed:${failureKind(error)}`;
      observations.push({ role: "tool", callId: call.callId, name: call.name, content: { error: code } });
      return { messages: observations, pendingToolCalls: [], toolCalls: state.toolCalls + attempts, error: code, events: [code] };
    }
  }
  return { messages: observations, pendingToolCalls: [], toolCalls: state.toolCalls + attempts, events: [`tools completed: ${attempts}`] };
}

async function runOne(tools: ToolSet, call: ToolCall): Promise<JsonObject> {
  const tool = tools[call.name];
  if (tool === undefined) throw new ContractViolation("UnknownTool", `tools node: "${call.name}" is not a tool.`);
  const result: unknown = await tool.run(copyData(call.arguments));
  if (!isJsonObject(result)) {
    throw new ContractViolation("InvalidResult", `tools node: "${call.name}" must return a plain JSON object.`);
  }
  return copyData(result);
}
