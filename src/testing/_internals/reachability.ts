/**
 * Reachability over a spec, computed here rather than borrowed from `validate/`, so the testing
 * helpers check the validator instead of repeating it. Internal to `typed-state-graph/testing`.
 */
import type { GraphSpec } from "../../spec.js";
import { END, START } from "../../spec.js";

/** Source → every destination of its rules (fixed edges, fan-outs, joins, route paths), `START` included. */
export function successorMap(spec: GraphSpec): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const list = out.get(from);
    if (list) list.push(to);
    else out.set(from, [to]);
  };
  for (const edge of spec.edges) add(edge.from, edge.to);
  for (const fanOut of spec.fanOuts ?? []) for (const to of fanOut.to) add(fanOut.from, to);
  for (const join of spec.joins ?? []) for (const from of join.from) add(from, join.to);
  for (const route of spec.routes) for (const to of Object.values(route.paths)) add(route.from, to);
  return out;
}

/** The sources (`START` and nodes) with at least one path to `END`: a fixpoint over the successors. */
export function sourcesReachingEnd(spec: GraphSpec): Set<string> {
  const successors = successorMap(spec);
  const reaching = new Set<string>([END]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [source, targets] of successors) {
      if (!reaching.has(source) && targets.some((to) => reaching.has(to))) {
        reaching.add(source);
        grew = true;
      }
    }
  }
  reaching.delete(END);
  return reaching;
}

/** Everything reachable from `START` (itself included), following every rule. */
export function reachableFromStart(spec: GraphSpec): Set<string> {
  const successors = successorMap(spec);
  const seen = new Set<string>([START]);
  const pending = [START];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const to of successors.get(node) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        pending.push(to);
      }
    }
  }
  return seen;
}
