/**
 * Turns some rules of a draft into parallel ones: fan-outs, joins and list path maps. Internal to
 * `typed-state-graph/testing`.
 *
 * Each change keeps a well-formed draft well-formed (one rule per source, known names). Fan-outs and
 * list path maps only add or keep destinations, so a valid draft stays valid; a join replaces its
 * sources' rules, so with `keepValid` it is applied only when every node stays reachable from START
 * and able to reach END.
 */
import * as fc from "fast-check";
import { END, START } from "../../spec.js";
import { specOfDraft, type DraftRule, type DraftSpec } from "./draft-spec.js";
import { reachableFromStart, sourcesReachingEnd } from "./reachability.js";

/** Which rules to make parallel; each number picks a source or a destination, modulo the candidates. */
export interface ParallelChoices {
  /** Fixed edges that become fan-outs, each with one more destination; `join` also joins the two branches again. */
  readonly fanOuts: readonly { readonly at: number; readonly extra: number; readonly join: boolean }[];
  /** Routes whose path map becomes a list of their destinations. */
  readonly lists: readonly number[];
  /** Groups of 2 or 3 nodes whose rules become one join into a destination. */
  readonly joins: readonly { readonly at: number; readonly size: number; readonly to: number }[];
}

export const parallelChoices: fc.Arbitrary<ParallelChoices> = fc.record({
  fanOuts: fc.array(fc.record({ at: fc.nat(), extra: fc.nat(), join: fc.integer({ min: 0, max: 3 }).map((n) => n > 0) }), { maxLength: 3 }),
  lists: fc.array(fc.nat(), { maxLength: 2 }),
  joins: fc.array(fc.record({ at: fc.nat(), size: fc.integer({ min: 2, max: 3 }), to: fc.nat() }), { maxLength: 4 }),
});

/** A new draft with the chosen rules made parallel (`draft` is not modified). */
export function withParallelRules(draft: DraftSpec, choices: ParallelChoices, { keepValid }: { keepValid: boolean }): DraftSpec {
  const rules = new Map(draft.rules);
  const joins = [...(draft.joins ?? [])];
  const result: DraftSpec = { nodes: draft.nodes, rules, joins };
  const destinations = [...draft.nodes, END];
  const sourcesWith = (test: (rule: DraftRule) => boolean): string[] =>
    [START, ...draft.nodes].filter((source) => {
      const rule = rules.get(source);
      return rule !== undefined && test(rule);
    });

  const tryJoin = (from: readonly string[], target: string): void => {
    const before = new Map(from.map((source) => [source, rules.get(source)]));
    const index = joins.length;
    for (const source of from) rules.set(source, { join: index });
    joins.push(target);
    if (keepValid && !isValid(result)) {
      // Undo: this join would cut a node off from START or from END.
      joins.pop();
      for (const [source, rule] of before) {
        if (rule === undefined) rules.delete(source);
        else rules.set(source, rule);
      }
    }
  };

  for (const { at, extra, join } of choices.fanOuts) {
    const fixed = sourcesWith((rule) => "to" in rule);
    const source = fixed[at % Math.max(fixed.length, 1)];
    const rule = source === undefined ? undefined : rules.get(source);
    if (source === undefined || rule === undefined || !("to" in rule)) continue;
    const added = destinations.filter((to) => to !== rule.to)[extra % Math.max(destinations.length - 1, 1)];
    if (added === undefined) continue;
    rules.set(source, { fanOut: [rule.to, added] });
    // The usual shape: the branches meet again where the first one was going.
    const branches = [rule.to, added].filter((node) => node !== END && node !== source && !isJoined(rules.get(node)));
    const first = rules.get(rule.to);
    const onward = first === undefined ? [] : "to" in first ? [first.to] : "paths" in first ? first.paths.map(([, to]) => to) : [];
    // Meet at a node when the first branch leads to one (a join into END fires unseen), else at END.
    const meet =
      onward.find((to) => to !== END && !branches.includes(to)) ??
      draft.nodes.find((node) => !branches.includes(node) && node !== source) ??
      END;
    if (join && branches.length === 2) tryJoin(branches, meet);
  }
  for (const at of choices.lists) {
    const routed = sourcesWith((rule) => "paths" in rule && rule.sends !== true);
    const source = routed[at % Math.max(routed.length, 1)];
    const rule = source === undefined ? undefined : rules.get(source);
    if (source === undefined || rule === undefined || !("paths" in rule)) continue;
    // A list path map's keys are its destinations, as `addConditionalEdges(from, router, [...])` writes them.
    const targets = [...new Set(rule.paths.map(([, to]) => to))];
    rules.set(source, { paths: targets.map((to): [string, string] => [to, to]), sends: true });
  }
  for (const { at, size, to } of choices.joins) {
    const candidates = draft.nodes.filter((node) => !isJoined(rules.get(node)));
    if (candidates.length < 2) continue;
    const from = Array.from({ length: Math.min(size, candidates.length) }, (_, i) => candidates[(at + i) % candidates.length] as string);
    tryJoin(from, destinations[to % destinations.length] as string);
  }
  return result;
}

function isJoined(rule: DraftRule | undefined): boolean {
  return rule !== undefined && "join" in rule;
}

/** Every node reachable from START, and START and every node able to reach END. */
function isValid(draft: DraftSpec): boolean {
  const spec = specOfDraft(draft);
  const reachable = reachableFromStart(spec);
  const reaching = sourcesReachingEnd(spec);
  return draft.nodes.every((node) => reachable.has(node) && reaching.has(node)) && reaching.has(START);
}
