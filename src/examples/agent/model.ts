/** The seam where a model plugs into the agent graph. */
import type { ModelTurn } from "./contracts.js";
import type { AgentMessage } from "./state.js";

/**
 * What proposes the next step: the scripted double or a live adapter. It receives a copy of the
 * conversation only, never the counters, events or diagnostic tag.
 *
 * @example
 * ```ts
 * const echo: AgentModel = { generate: () => ({ finalAnswer: "Hello.", providerItems: [] }) };
 * ```
 */
export interface AgentModel {
  generate(messages: AgentMessage[]): ModelTurn | Promise<ModelTurn>;
}
