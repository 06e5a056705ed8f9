/** The research example's state: a topic, parallel findings, a summary; and, for the Send variant, documents. */

/** One thing a source found, tagged with the source. */
export type Finding = string;

/** The research graph's state. */
export interface ResearchState {
  topic: string;
  /** What the plan asks each source for. */
  queries: string[];
  /** Added to by the parallel branches through `union`: commutative, so their order cannot matter. */
  findings: Finding[];
  summary: string | null;
}

/** Every field of {@link ResearchState}, for exporters that need all channels. */
export const RESEARCH_FIELDS = ["topic", "queries", "findings", "summary"] as const satisfies readonly (keyof ResearchState)[];

/**
 * The state before any node runs. The topic must be non-blank text.
 *
 * @example
 * ```ts
 * initialResearchState("tides"); // { topic: "tides", queries: [], findings: [], summary: null }
 * ```
 */
export function initialResearchState(topic: string): ResearchState {
  if (typeof topic !== "string" || topic.trim() === "") {
    throw new TypeError(`initialResearchState: the topic must be non-blank text; got ${JSON.stringify(topic)}.`);
  }
  return { topic: topic.trim(), queries: [], findings: [], summary: null };
}

/** The Send variant's state: documents summarized in parallel, one node run per document. */
export interface DigestState {
  documents: string[];
  summaries: string[];
  digest: string | null;
}

/** Every field of {@link DigestState}. */
export const DIGEST_FIELDS = ["documents", "summaries", "digest"] as const satisfies readonly (keyof DigestState)[];
