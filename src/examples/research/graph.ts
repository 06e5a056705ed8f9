/**
 * The research graph: START → plan → {web, papers, internal} → synthesize → END. The three branches run
 * in one superstep; `synthesize` waits for all of them (a join) and runs once.
 */
import { END, START, stateGraph, union, type CompiledGraph } from "../../index.js";
import { papersSpecialist, plan, searchWith, synthesize } from "./nodes.js";
import { fakeSources, type ResearchSources } from "./sources.js";
import { RESEARCH_FIELDS, type ResearchState } from "./state.js";

/** Options of {@link buildResearchGraph}. */
export interface ResearchGraphOptions {
  /** The sources the branches ask. Default: {@link fakeSources}. */
  readonly sources?: ResearchSources;
}

/**
 * Builds and compiles the research graph. `findings` uses `union`, which claims commutativity and
 * associativity, so the graph has no order warning.
 *
 * @example
 * ```ts
 * const { state } = await buildResearchGraph().invoke(initialResearchState("tides"));
 * ```
 */
export function buildResearchGraph(options: ResearchGraphOptions = {}): CompiledGraph<ResearchState> {
  const sources = options.sources ?? fakeSources();
  return stateGraph<ResearchState>()({ reducers: { findings: union }, fields: [...RESEARCH_FIELDS] })
    .addNode("plan", plan)
    .addNode("web", searchWith(sources.web))
    .addNode("papers", papersSpecialist(sources.papers))
    .addNode("internal", searchWith(sources.internal))
    .addNode("synthesize", synthesize)
    .addEdge(START, "plan")
    .addEdge("plan", ["web", "papers", "internal"])
    .addEdge(["web", "papers", "internal"], "synthesize")
    .addEdge("synthesize", END)
    .compile();
}
