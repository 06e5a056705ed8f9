/**
 * The live OpenAI-compatible adapters of the agent example (part of `typed-state-graph/examples`). Importing this module does not load
 * `openai`: {@link openLiveClient} loads it when a live run starts.
 */
export { readLiveSettings, openLiveClient, LIVE_APIS, DEEPSEEK_BASE_URL, OPENAI_BASE_URL } from "./client.js";
export type { LiveApi, LiveEnv, LiveSettings, LiveClient, FetchLike, OpenLiveClientOptions } from "./client.js";
export { LiveSetupError, LIVE_SETUP_CODES, loadOptionalPackage } from "./setup-error.js";
export type { LiveSetupCode, OptionalPackage } from "./setup-error.js";
export { ResponsesModel, toResponsesInput, parseResponsesTurn } from "./responses-model.js";
export { LiveModel, MAX_OUTPUT_TOKENS } from "./live-model-base.js";
export { collectChatStream, collectResponsesStream } from "./stream-collect.js";
export type { LiveModelOptions } from "./live-model-base.js";
export { ChatCompletionsModel, toChatMessages, parseChatTurn } from "./chat-model.js";
export { createLiveModel } from "./live-model.js";
export { ProviderResponseError, PROVIDER_RESPONSE_CODES } from "./provider-error.js";
export type { ProviderResponseCode } from "./provider-error.js";
export { parseToolArguments } from "./parse-arguments.js";
export { AGENT_INSTRUCTIONS } from "./instructions.js";
