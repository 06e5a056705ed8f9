/**
 * The agent example (part of `typed-state-graph/examples`): a model ⇄ tools loop drawn as a graph. The live
 * OpenAI-compatible adapters are in `./live`, the AI SDK adapter in `./ai-sdk`; neither loads its SDK until a run uses it.
 */
export { buildAgentGraph, routeAfterModel, routeAfterTools, agentStepLimit } from "./graph.js";
export { createAgentNodes } from "./nodes.js";
export type { AgentOptions, AgentNodes, AgentUpdate } from "./nodes.js";
export { resolveAgentBudgets, DEFAULT_MAX_MODEL_STEPS, DEFAULT_MAX_TOOL_CALLS } from "./budgets.js";
export type { AgentBudgets } from "./budgets.js";
export { initialAgentState, AGENT_STATE_FIELDS } from "./state.js";
export { agentStateSchema } from "./schema.js";
export type { AgentState, AgentMessage, UserMessage, AssistantMessage, ToolMessage, InitialAgentStateOptions } from "./state.js";
export {
  ContractViolation,
  CONTRACT_VIOLATION_CODES,
  validateToolCall,
  validateModelTurn,
  isJsonValue,
  isJsonObject,
  failureKind,
} from "./contracts.js";
export type {
  ToolCall,
  ModelTurn,
  AnswerTurn,
  ToolCallTurn,
  JsonValue,
  JsonObject,
  ViolationKind,
  ContractViolationCode,
} from "./contracts.js";
export type { AgentModel } from "./model.js";
export { teachingTools, toolDefinitions, validateToolBatch } from "./tools.js";
export type { AgentTool, ToolDefinition, ToolSet } from "./tools.js";
export { ScriptedModel, AGENT_TASKS } from "./scripted-model.js";
export type { ScriptedModelOptions, AgentTask } from "./scripted-model.js";
export { agentQuestion } from "./question.js";
export { TEACHING_CITIES, TEACHING_RECORDS, LANGUAGES, NOTICES, fahrenheit, isTeachingCity } from "./teaching-data.js";
export type { TeachingCity, TeachingRecord, Language } from "./teaching-data.js";
