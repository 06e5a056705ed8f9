/** What both live adapters share: the client, the instructions, the tool definitions, streaming and tracing. */
import type { Tracer } from "@opentelemetry/api";
import type { NodeContext } from "../../../index.js";
import type { AgentModel } from "../model.js";
import type { ModelTurn } from "../contracts.js";
import type { AgentMessage } from "../state.js";
import { toolDefinitions, type ToolDefinition } from "../tools.js";
import type { LiveClient } from "./client.js";
import { withGenAiSpan, type RecordReply } from "./genai-span.js";
import { AGENT_INSTRUCTIONS } from "./instructions.js";

/** Options shared by the live adapters. */
export interface LiveModelOptions {
  /** Default {@link AGENT_INSTRUCTIONS}. */
  readonly instructions?: string;
  /** Default the teaching tools' definitions. */
  readonly tools?: readonly ToolDefinition[];
  /**
   * Stream the reply (`stream: true`): each text delta is written to the model node's `writer` as a
   * `MessageDelta` as it arrives (`streamMode: "messages"`). The turn is the same whole message either way.
   */
  readonly stream?: boolean;
  /**
   * Record each request as a `chat <model>` client span with the GenAI semantic-convention attributes
   * (under the node's attempt span when the run has an `otelObserver`). Loads `@opentelemetry/api`.
   */
  readonly tracer?: Tracer;
}

/** The most tokens a reply may use: `max_output_tokens` / `max_tokens` of every request. */
export const MAX_OUTPUT_TOKENS = 4096;

/**
 * A live adapter: a client, the instructions and the tool definitions, and one request per model turn.
 *
 * @example
 * ```ts
 * const model: LiveModel = createLiveModel(client, "chat", { stream: true });
 * const turn = await model.generate(messages);
 * ```
 */
export abstract class LiveModel implements AgentModel {
  protected readonly client: LiveClient;
  protected readonly instructions: string;
  protected readonly tools: readonly ToolDefinition[];
  protected readonly stream: boolean;
  protected readonly tracer: Tracer | undefined;

  constructor(client: LiveClient, options: LiveModelOptions = {}) {
    this.client = client;
    this.instructions = options.instructions ?? AGENT_INSTRUCTIONS;
    this.tools = options.tools ?? toolDefinitions();
    this.stream = options.stream === true;
    this.tracer = options.tracer;
  }

  abstract generate(messages: AgentMessage[], context?: NodeContext): Promise<ModelTurn>;

  /** Runs one request inside its GenAI span (when tracing). */
  protected traced(context: NodeContext | undefined, call: (record: RecordReply) => Promise<ModelTurn>): Promise<ModelTurn> {
    const { settings } = this.client;
    const provider = settings.provider === "deepseek" ? "deepseek" : "openai";
    return withGenAiSpan(
      this.tracer,
      context,
      { provider, model: settings.model, maxTokens: MAX_OUTPUT_TOKENS, stream: this.stream },
      call,
    );
  }
}
