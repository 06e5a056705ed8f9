/** The seam where a model plugs into the agent graph. */
import type { NodeContext } from "../../index.js";
import type { ModelTurn } from "./contracts.js";
import type { AgentMessage } from "./state.js";

/**
 * What proposes the next step: the scripted double or a live adapter. It receives a copy of the
 * conversation only, never the counters, events or diagnostic tag, and the model node's context: its
 * `signal`, and the `writer` a streaming adapter writes text deltas to (`MessageDelta`).
 *
 * @example
 * ```ts
 * const echo: AgentModel = { generate: () => ({ finalAnswer: "Hello.", providerItems: [] }) };
 * ```
 */
export interface AgentModel {
  generate(messages: AgentMessage[], context?: NodeContext): ModelTurn | Promise<ModelTurn>;
}
