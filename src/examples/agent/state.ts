/** The agent's worksheet: what one run of the model ⇄ tools loop knows and has done. */
import type { JsonObject, ToolCall } from "./contracts.js";

/** The user's question. */
export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

/** One model turn: its answer text (if any), the calls it proposed and the provider's own items. */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string | null;
  readonly toolCalls: ToolCall[];
  /** The provider's complete output for the turn; a stateless provider needs it back on the next request. */
  readonly providerItems: JsonObject[];
}

/** The observation of one tool call: the tool's result, or `{ error }` when it failed. */
export interface ToolMessage {
  readonly role: "tool";
  readonly callId: string;
  readonly name: string;
  readonly content: JsonObject;
}

/** One entry of the conversation the model sees. */
export type AgentMessage = UserMessage | AssistantMessage | ToolMessage;

/**
 * The state of one agent run. `messages` is what the model sees; everything else stays with the application.
 * `agentStateSchema` declares the same state as a schema, and the compiler checks that the two agree.
 *
 * @example
 * ```ts
 * const state: AgentState = initialAgentState("What is the weather in Tokyo?");
 * ```
 */
export interface AgentState {
  /** The conversation, appended to: each node contributes only its new messages. */
  messages: AgentMessage[];
  /** The current unfinished batch, replaced: writing `[]` clears it so nothing runs twice. */
  pendingToolCalls: ToolCall[];
  finalAnswer: string | null;
  /** A safe failure code such as `tool_failed:TypeError`; never an exception's message. */
  error: string | null;
  /** Model requests made (failed ones included). */
  modelSteps: number;
  /** Tool handlers started (failed ones included). */
  toolCalls: number;
  /** A short account of what happened, appended to. */
  events: string[];
  /** A local label for diagnostics; the model never sees it. */
  diagnosticTag: string;
}

/** Every field of {@link AgentState}, in the order of its schema's properties (`agentStateSchema`). */
export const AGENT_STATE_FIELDS = [
  "messages",
  "pendingToolCalls",
  "finalAnswer",
  "error",
  "modelSteps",
  "toolCalls",
  "events",
  "diagnosticTag",
] as const satisfies readonly (keyof AgentState)[];

/** Options of {@link initialAgentState}. */
export interface InitialAgentStateOptions {
  /** A local label for logs and tests; default `"local"`. */
  readonly diagnosticTag?: string;
}

/**
 * The state a run starts from: the question as the only message, counters at zero.
 *
 * @example
 * ```ts
 * await graph.invoke(initialAgentState("What is the weather in Tokyo?", { diagnosticTag: "demo" }));
 * ```
 */
export function initialAgentState(question: string, options: InitialAgentStateOptions = {}): AgentState {
  if (typeof question !== "string" || question.trim() === "") {
    throw new TypeError(`initialAgentState: the question must be non-blank text; got ${JSON.stringify(question) ?? String(question)}.`);
  }
  return {
    messages: [{ role: "user", content: question }],
    pendingToolCalls: [],
    finalAnswer: null,
    error: null,
    modelSteps: 0,
    toolCalls: 0,
    events: [],
    diagnosticTag: options.diagnosticTag ?? "local",
  };
}
