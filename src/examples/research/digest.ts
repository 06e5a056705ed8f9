/**
 * The Send variant: summarize N documents in parallel, N unknown when the graph is built. The router
 * returns one `Send` per document; each runs `summarize` with its own document; `digest` runs once after.
 */
import { END, Send, START, stateGraph, union, type CompiledGraph } from "../../index.js";
import { DIGEST_FIELDS, type DigestState } from "./state.js";

/** What one `summarize` run receives: its own document, not the graph state. */
export interface DocumentInput {
  readonly document: string;
}

/**
 * A deterministic fake summary: the first five words.
 *
 * @example
 * ```ts
 * summarize({ document: "Tides follow the moon and the sun" }); // { summaries: ["Tides follow the moon and"] }
 * ```
 */
export function summarize({ document }: DocumentInput): Partial<DigestState> {
  return { summaries: [document.split(/\s+/).slice(0, 5).join(" ")] };
}

/**
 * Builds the digest graph. With no documents the router goes straight to END.
 *
 * @example
 * ```ts
 * const { state } = await buildDigestGraph().invoke({ documents: ["a b c", "d e f"], summaries: [], digest: null });
 * ```
 */
export function buildDigestGraph(): CompiledGraph<DigestState> {
  return stateGraph<DigestState>()({ reducers: { summaries: union }, fields: [...DIGEST_FIELDS] })
    .addNode("split", () => ({}))
    .addNode("summarize", summarize)
    .addNode("write_digest", (s) => ({ digest: `${s.summaries.length} summaries: ${s.summaries.join(" | ")}` }))
    .addEdge(START, "split")
    .addConditionalEdges(
      "split",
      (s) => (s.documents.length === 0 ? END : s.documents.map((document) => new Send("summarize", { document }))),
      ["summarize", END],
    )
    .addEdge("summarize", "write_digest")
    .addEdge("write_digest", END)
    .compile();
}
