/**
 * `typed-state-graph/examples/agent/ai-sdk`: the agent loop's model from any AI SDK `LanguageModel`
 * (`ai` 6.x, an optional peer dependency; 7.x needs Node 22).
 */
export { AiSdkModel, toModelMessages, type AiSdkModelOptions } from "./ai-sdk-model.js";
