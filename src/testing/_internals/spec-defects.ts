/**
 * Ways to make a well-formed spec malformed, each one enough on its own for validation to reject it.
 * Internal to `typed-state-graph/testing`.
 */
import type { GraphSpec } from "../../spec.js";
import { END, START } from "../../spec.js";

export const defectKinds = [
  "duplicate-node",
  "reserved-name",
  "empty-path-map",
  "blank-route-key",
  "two-rules",
  "unknown-name",
  "end-as-source",
  "start-as-target",
] as const;

export type DefectKind = (typeof defectKinds)[number];

/** A defect and a number choosing where it goes. */
export interface Defect {
  readonly kind: DefectKind;
  readonly at: number;
}

/** `spec` with the defects added (a new spec; `spec` is not modified). */
export function withDefects(spec: GraphSpec, defects: readonly Defect[]): GraphSpec {
  const nodes = [...spec.nodes];
  const edges = [...spec.edges];
  const routes = [...spec.routes];
  const sources = [START, ...spec.nodes];
  for (const { kind, at } of defects) {
    const source = sources[at % sources.length] ?? START;
    switch (kind) {
      case "duplicate-node": {
        const name = spec.nodes[at % Math.max(spec.nodes.length, 1)];
        if (name === undefined) nodes.push("a", "a");
        else nodes.push(name);
        break;
      }
      case "reserved-name":
        nodes.push([START, END, "", " "][at % 4] ?? START);
        break;
      case "empty-path-map":
        routes.push({ from: source, router: "router", paths: {} });
        break;
      case "blank-route-key":
        routes.push({ from: source, router: "router", paths: { [["", " ", "\t"][at % 3] ?? ""]: END } });
        break;
      case "two-rules":
        edges.push({ from: source, to: END }, { from: source, to: END });
        break;
      case "unknown-name": {
        let ghost = "ghost";
        while (spec.nodes.includes(ghost)) ghost += "!";
        edges.push(at % 2 === 0 ? { from: source, to: ghost } : { from: ghost, to: END });
        break;
      }
      case "end-as-source":
        edges.push({ from: END, to: spec.nodes[0] ?? END });
        break;
      case "start-as-target":
        edges.push({ from: source, to: START });
        break;
    }
  }
  return { nodes, edges, routes, reducers: spec.reducers };
}
