/**
 * The agent state as a schema: `buildAgentGraph` declares its state with it, so every state a run
 * commits is checked where it enters (the question, each model turn, each observation, an edit), and
 * `tsg check --json`, `tsg inspect` and the exporters read its JSON Schema. Written as a JSON Schema the
 * example carries itself (no zod at run time: `npx tsg agent` needs nothing but the package), and checked
 * against {@link AgentState} at compile time: the call below compiles only while the two describe the
 * same values.
 */
import { type JsonSchemaState, jsonSchemaState } from "../_json-schema-state.js";
import type { AgentState } from "./state.js";

const text = { type: "string" } as const;
const jsonObject = { type: "object" } as const;
const count = { type: "integer", minimum: 0 } as const;

const toolCall = {
  type: "object",
  properties: { callId: text, name: text, arguments: jsonObject },
  required: ["callId", "name", "arguments"],
  additionalProperties: false,
} as const;

const message = {
  anyOf: [
    {
      type: "object",
      properties: { role: { type: "string", enum: ["user"] }, content: text },
      required: ["role", "content"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: {
        role: { type: "string", enum: ["assistant"] },
        content: { type: ["string", "null"] },
        toolCalls: { type: "array", items: toolCall },
        providerItems: { type: "array", items: jsonObject },
      },
      required: ["role", "content", "toolCalls", "providerItems"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { role: { type: "string", enum: ["tool"] }, callId: text, name: text, content: jsonObject },
      required: ["role", "callId", "name", "content"],
      additionalProperties: false,
    },
  ],
} as const;

/** The agent state's JSON Schema, as a literal: {@link agentStateSchema} checks values against it. */
const AGENT_STATE_JSON_SCHEMA = {
  type: "object",
  description: "The state of one agent run: the conversation the model sees, and what the application keeps.",
  properties: {
    messages: { type: "array", items: message, description: "The conversation: the question, each model turn, each observation." },
    pendingToolCalls: { type: "array", items: toolCall, description: "The current unfinished batch of tool calls." },
    finalAnswer: { type: ["string", "null"] },
    error: { type: ["string", "null"], description: "A safe failure code such as tool_failed:TypeError." },
    modelSteps: { ...count, description: "Model requests made, failed ones included." },
    toolCalls: { ...count, description: "Tool handlers started, failed ones included." },
    events: { type: "array", items: text },
    diagnosticTag: text,
  },
  required: ["messages", "pendingToolCalls", "finalAnswer", "error", "modelSteps", "toolCalls", "events", "diagnosticTag"],
  additionalProperties: false,
} as const;

/**
 * The agent state's schema: a Standard Schema (`~standard.validate`) that also offers its JSON Schema
 * (`~standard.jsonSchema`), with no dependency. The graph refuses, with `INVALID_STATE`, a superstep or
 * an edit whose state it does not accept (a tool call without an id, an answer that is not text), and
 * with `INVALID_INPUT` such an input.
 *
 * @example
 * ```ts
 * agentStateSchema["~standard"].validate(initialAgentState("Hi")); // { value: … }
 * agentStateSchema["~standard"].validate({ ...initialAgentState("Hi"), finalAnswer: 42 }).issues; // [{ path: ["finalAnswer"], … }]
 * ```
 */
export const agentStateSchema: JsonSchemaState<AgentState> = jsonSchemaState<AgentState, typeof AGENT_STATE_JSON_SCHEMA>(
  "typed-state-graph/examples",
  AGENT_STATE_JSON_SCHEMA,
);
