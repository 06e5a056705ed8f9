/** The research graph's nodes. Each branch asks its own source; `synthesize` runs once, after all of them. */
import { END, START, stateGraph, union, type CompiledGraph } from "../../index.js";
import type { ResearchSource, ResearchSources } from "./sources.js";
import { RESEARCH_FIELDS, type ResearchState } from "./state.js";

/** The source branches, in declaration order (the order their findings merge in). */
export const RESEARCH_BRANCHES = ["web", "papers", "internal"] as const;

/**
 * Plans one query per source from the topic.
 *
 * @example
 * ```ts
 * plan(initialResearchState("tides")); // { queries: ["tides"] }
 * ```
 */
export function plan(state: ResearchState): Partial<ResearchState> {
  return { queries: [state.topic] };
}

/**
 * A branch node that asks one source every planned query.
 *
 * @example
 * ```ts
 * const web = searchWith(async (query) => [`web: ${query}`]);
 * ```
 */
export function searchWith(source: ResearchSource): (state: ResearchState) => Promise<Partial<ResearchState>> {
  return async (state) => {
    const results = await Promise.all(state.queries.map((query) => source(query)));
    return { findings: results.flat() };
  };
}

/**
 * Writes the summary from every finding, in the merged (declaration) order.
 *
 * @example
 * ```ts
 * synthesize({ ...initialResearchState("tides"), findings: ["a", "b"] }).summary;
 * ```
 */
export function synthesize(state: ResearchState): Partial<ResearchState> {
  return { summary: `${state.findings.length} findings on ${state.topic}: ${state.findings.join("; ")}` };
}

/**
 * The papers specialist, a graph of its own run as one node of the research graph: it searches, then
 * notes how many papers it ranked. It shares the research state, so its writes come back to the parent
 * as one update.
 *
 * @example
 * ```ts
 * const papers = papersSpecialist(async (query) => [`paper on ${query}`]);
 * ```
 */
export function papersSpecialist(papers: ResearchSources["papers"]): CompiledGraph<ResearchState> {
  return stateGraph<ResearchState>()({ reducers: { findings: union }, fields: [...RESEARCH_FIELDS] })
    .addNode("search", searchWith(papers))
    .addNode("rank", (s) => ({ findings: [`papers: ${s.findings.filter((f) => f.startsWith("papers:")).length} papers ranked`] }))
    .addEdge(START, "search")
    .addEdge("search", "rank")
    .addEdge("rank", END)
    .compile();
}
