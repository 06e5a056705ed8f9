/** Which node functions run a compiled graph, and that graph's spec: recorded by `subgraph`, read by `compile`. */
import type { GraphSpec } from "../spec.js";

const childSpecs = new WeakMap<object, GraphSpec>();

/** Records that `node` runs the graph described by `spec`. */
export function recordSubgraph(node: object, spec: GraphSpec): void {
  childSpecs.set(node, spec);
}

/**
 * The child graph's spec when `node` was made by `subgraph`: `compile()` records it in
 * `spec.subgraphs`, so exporters and diagrams can see that a node is a graph.
 */
export function subgraphSpecOf(node: unknown): GraphSpec | undefined {
  return typeof node === "function" ? childSpecs.get(node) : undefined;
}
