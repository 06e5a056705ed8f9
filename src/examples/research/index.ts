/** The research example (part of `typed-state-graph/examples`), parallel sources (a fan-out, `Send`, a subgraph) and one synthesis. */
export { buildResearchGraph } from "./graph.js";
export type { ResearchGraphOptions } from "./graph.js";
export { buildDigestGraph, summarize } from "./digest.js";
export type { DocumentInput } from "./digest.js";
export { papersSpecialist, plan, RESEARCH_BRANCHES, searchWith, synthesize } from "./nodes.js";
export { fakeSources } from "./sources.js";
export type { ResearchSource, ResearchSources } from "./sources.js";
export { DIGEST_FIELDS, initialResearchState, RESEARCH_FIELDS } from "./state.js";
export type { DigestState, Finding, ResearchState } from "./state.js";
