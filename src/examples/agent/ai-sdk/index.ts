/**
 * The agent loop's model from any AI SDK `LanguageModel` (part of `typed-state-graph/examples`; `ai` 6.x,
 * an optional peer dependency loaded on the first request; 7.x needs Node 22).
 */
export { AiSdkModel, toModelMessages, type AiSdkModelOptions } from "./ai-sdk-model.js";
