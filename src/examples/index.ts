/**
 * `typed-state-graph/examples`: the three examples the guide runs and `tsg` drives, as one entry for
 * reading and trying, not as API (they may change in any release):
 * - the report workflow (`buildReportGraph`, `initialReportState`, …): a two-city weather brief checked
 *   before it is published (routes, a loop, a retry budget);
 * - the agent loop (`buildAgentGraph`, `ScriptedModel`, …): a model ⇄ tools loop, with the live
 *   OpenAI-compatible adapters (`createLiveModel`, `openLiveClient`, …) and the AI SDK adapter (`AiSdkModel`);
 * - the research fan-out (`buildResearchGraph`, …): parallel sources, `Send`, a subgraph and one synthesis.
 *
 * Importing it loads none of the optional peers: the live adapters load `openai` when a client opens,
 * `AiSdkModel` loads `ai` on its first request.
 *
 * @example
 * ```ts
 * import { buildReportGraph, initialReportState } from "typed-state-graph/examples";
 * const { state } = await buildReportGraph().invoke(initialReportState());
 * state.status; // "completed"
 * ```
 * @module
 */
export * from "./report/index.js";
export * from "./agent/index.js";
export * from "./agent/live/index.js";
export * from "./agent/ai-sdk/index.js";
export * from "./research/index.js";
