/**
 * A graph spec under construction: node names and at most one rule per source, as mutable data.
 * The spec arbitraries generate drafts, repair them into valid graphs, then freeze them as specs.
 * Internal to `typed-state-graph/testing`.
 */
import type { GraphSpec } from "../../spec.js";
import { START } from "../../spec.js";

/**
 * A source's one rule: a fixed edge, a route's `[key, destination]` pairs (`sends` for a list path
 * map, whose keys are the destinations), a fan-out, or membership of a join (its index in `joins`).
 */
export type DraftRule =
  | { readonly to: string }
  | { readonly paths: Array<[string, string]>; readonly sends?: true }
  | { readonly fanOut: readonly string[] }
  | { readonly join: number };

export interface DraftSpec {
  readonly nodes: readonly string[];
  /** Source (`START` or a node) → its rule; a source missing here is a dead end. */
  readonly rules: Map<string, DraftRule>;
  /** The joins' targets, by index; a join's sources are the sources whose rule names its index. */
  readonly joins?: readonly string[];
}

/** The spec of a draft: rules in source order (`START` first), fixed edges apart from routes, fan-outs and joins. */
export function specOfDraft(draft: DraftSpec): GraphSpec {
  const edges: { from: string; to: string }[] = [];
  const routes: { from: string; router: string; paths: Record<string, string>; sends?: true }[] = [];
  const fanOuts: { from: string; to: string[] }[] = [];
  const joinSources = (draft.joins ?? []).map((): string[] => []);
  for (const from of [START, ...draft.nodes]) {
    const rule = draft.rules.get(from);
    if (rule === undefined) continue;
    // fromEntries defines own properties, so a key such as "__proto__" stays a route key.
    if ("to" in rule) edges.push({ from, to: rule.to });
    else if ("fanOut" in rule) fanOuts.push({ from, to: [...rule.fanOut] });
    else if ("join" in rule) joinSources[rule.join]?.push(from);
    else routes.push({ from, router: "router", paths: Object.fromEntries(rule.paths), ...(rule.sends ? { sends: true as const } : {}) });
  }
  const joins = (draft.joins ?? []).flatMap((to, index) => {
    const from = joinSources[index] ?? [];
    return from.length > 0 ? [{ from, to }] : [];
  });
  return {
    nodes: [...draft.nodes],
    edges,
    routes,
    ...(fanOuts.length > 0 ? { fanOuts } : {}),
    ...(joins.length > 0 ? { joins } : {}),
    reducers: [],
  };
}

/**
 * Adds a route key toward `to` on `source`, turning a fixed edge into a route when needed. The rule is
 * replaced, never modified: fast-check may map the same generated rule again while shrinking.
 */
export function addPath(draft: DraftSpec, source: string, base: string, to: string): void {
  const rule = draft.rules.get(source);
  if (rule !== undefined && ("fanOut" in rule || "join" in rule || ("paths" in rule && rule.sends))) {
    throw new TypeError("addPath: repairs run before parallel rules are added; this draft already has one.");
  }
  const paths: Array<[string, string]> = rule === undefined ? [] : "to" in rule ? [["next", rule.to]] : [...rule.paths];
  let key = base;
  while (paths.some(([existing]) => existing === key)) key += "'";
  paths.push([key, to]);
  draft.rules.set(source, { paths });
}
