/**
 * Deterministic fake sources. Each is async like a real search, so the branches genuinely overlap,
 * and injectable, so tests can hold a branch open or make it fail.
 */

/** A source: a topic in, findings out. */
export type ResearchSource = (query: string) => Promise<string[]>;

/** The three sources the research graph searches in parallel. */
export interface ResearchSources {
  readonly web: ResearchSource;
  readonly papers: ResearchSource;
  readonly internal: ResearchSource;
}

/**
 * The fixed fake sources: the same query always gives the same findings.
 *
 * @example
 * ```ts
 * await fakeSources().web("tides"); // ["web: tides explained for travellers"]
 * ```
 */
export function fakeSources(): ResearchSources {
  return {
    web: async (query) => [`web: ${query} explained for travellers`],
    papers: async (query) => [`papers: a survey of ${query}`, `papers: ${query}, measured over ten years`],
    internal: async (query) => [`internal: our notes on ${query}`],
  };
}
