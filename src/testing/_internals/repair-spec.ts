/**
 * Turns any well-formed draft into one that validation accepts, by adding rules only: it keeps the
 * generated shape (cycles, several keys to one node) and adds exits and entries where they are missing.
 * Internal to `typed-state-graph/testing`.
 */
import { END, START } from "../../spec.js";
import { addPath, specOfDraft, type DraftSpec } from "./draft-spec.js";
import { reachableFromStart, sourcesReachingEnd } from "./reachability.js";

/** Repairs `draft` in place: every node reachable from START, and START and every node reaching END. */
export function repairDraft(draft: DraftSpec): void {
  const { nodes, rules } = draft;
  if (!rules.has(START)) rules.set(START, { to: nodes[0] ?? END });
  for (const node of nodes) if (!rules.has(node)) rules.set(node, { to: END });

  for (;;) {
    const reachable = reachableFromStart(specOfDraft(draft));
    const missing = nodes.find((node) => !reachable.has(node));
    if (missing === undefined) break;
    const sources = [START, ...nodes].filter((source) => reachable.has(source));
    // A choice that depends on the node's position, so shrinking moves the repair predictably.
    const source = sources[nodes.indexOf(missing) % sources.length] ?? START;
    addPath(draft, source, `to ${missing}`, missing);
  }
  for (;;) {
    const reaching = sourcesReachingEnd(specOfDraft(draft));
    const stuck = [START, ...nodes].find((source) => !reaching.has(source));
    if (stuck === undefined) break;
    addPath(draft, stuck, "exit", END);
  }
}
