/** Picks the adapter for the API a live run speaks. */
import type { AgentModel } from "../model.js";
import { ChatCompletionsModel } from "./chat-model.js";
import type { LiveApi, LiveClient } from "./client.js";
import type { LiveModelOptions } from "./live-model-base.js";
import { ResponsesModel } from "./responses-model.js";

/**
 * The live model for `api`: {@link ChatCompletionsModel} for `chat`, {@link ResponsesModel} for `responses`.
 *
 * @example
 * ```ts
 * const model = createLiveModel(client, client.settings.defaultApi);
 * ```
 */
export function createLiveModel(client: LiveClient, api: LiveApi, options: LiveModelOptions = {}): AgentModel {
  return api === "chat" ? new ChatCompletionsModel(client, options) : new ResponsesModel(client, options);
}
