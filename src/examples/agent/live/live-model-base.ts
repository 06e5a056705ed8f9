/** What both live adapters share: the client, the instructions and the tool definitions. */
import type { AgentModel } from "../model.js";
import type { ModelTurn } from "../contracts.js";
import type { AgentMessage } from "../state.js";
import { toolDefinitions, type ToolDefinition } from "../tools.js";
import type { LiveClient } from "./client.js";
import { AGENT_INSTRUCTIONS } from "./instructions.js";

/** Options shared by the live adapters. */
export interface LiveModelOptions {
  /** Default {@link AGENT_INSTRUCTIONS}. */
  readonly instructions?: string;
  /** Default the teaching tools' definitions. */
  readonly tools?: readonly ToolDefinition[];
}

/**
 * A live adapter: a client, the instructions and the tool definitions, and one request per model turn.
 *
 * @example
 * ```ts
 * const model: LiveModel = createLiveModel(client, "chat");
 * const turn = await model.generate(messages);
 * ```
 */
export abstract class LiveModel implements AgentModel {
  protected readonly client: LiveClient;
  protected readonly instructions: string;
  protected readonly tools: readonly ToolDefinition[];

  constructor(client: LiveClient, options: LiveModelOptions = {}) {
    this.client = client;
    this.instructions = options.instructions ?? AGENT_INSTRUCTIONS;
    this.tools = options.tools ?? toolDefinitions();
  }

  abstract generate(messages: AgentMessage[]): Promise<ModelTurn>;
}
