/**
 * A graph spec under construction: node names and at most one rule per source, as mutable data.
 * The spec arbitraries generate drafts, repair them into valid graphs, then freeze them as specs.
 * Internal to `typed-state-graph/testing`.
 */
import type { GraphSpec } from "../../spec.js";
import { START } from "../../spec.js";

/** A source's one rule: a fixed edge, or a route's `[key, destination]` pairs. */
export type DraftRule = { readonly to: string } | { readonly paths: Array<[string, string]> };

export interface DraftSpec {
  readonly nodes: readonly string[];
  /** Source (`START` or a node) → its rule; a source missing here is a dead end. */
  readonly rules: Map<string, DraftRule>;
}

/** The spec of a draft: rules in source order (`START` first), fixed edges apart from routes. */
export function specOfDraft(draft: DraftSpec): GraphSpec {
  const edges: { from: string; to: string }[] = [];
  const routes: { from: string; router: string; paths: Record<string, string> }[] = [];
  for (const from of [START, ...draft.nodes]) {
    const rule = draft.rules.get(from);
    if (rule === undefined) continue;
    // fromEntries defines own properties, so a key such as "__proto__" stays a route key.
    if ("to" in rule) edges.push({ from, to: rule.to });
    else routes.push({ from, router: "router", paths: Object.fromEntries(rule.paths) });
  }
  return { nodes: [...draft.nodes], edges, routes, reducers: [] };
}

/**
 * Adds a route key toward `to` on `source`, turning a fixed edge into a route when needed. The rule is
 * replaced, never modified: fast-check may map the same generated rule again while shrinking.
 */
export function addPath(draft: DraftSpec, source: string, base: string, to: string): void {
  const rule = draft.rules.get(source);
  const paths: Array<[string, string]> = rule === undefined ? [] : "to" in rule ? [["next", rule.to]] : [...rule.paths];
  let key = base;
  while (paths.some(([existing]) => existing === key)) key += "'";
  paths.push([key, to]);
  draft.rules.set(source, { paths });
}
