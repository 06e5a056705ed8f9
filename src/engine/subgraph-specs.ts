/** Which node functions run a compiled graph, and that graph's spec: recorded by `subgraph`, read by `compile`. */
import type { GraphSpec } from "../spec.js";
import type { ExecutableGraph } from "./executable.js";

const childSpecs = new WeakMap<object, GraphSpec>();
const childGraphs = new WeakMap<object, ExecutableGraph>();

/** Records that `node` runs the graph described by `spec`, whose tables are `graph`. */
export function recordSubgraph(node: object, spec: GraphSpec, graph: ExecutableGraph): void {
  childSpecs.set(node, spec);
  childGraphs.set(node, graph);
}

/** The child graph's tables when `node` was made by `subgraph` (`getState` reads a child's thread with them). */
export function subgraphOf(node: unknown): ExecutableGraph | undefined {
  return typeof node === "function" ? childGraphs.get(node) : undefined;
}

/**
 * The child graph's spec when `node` was made by `subgraph`: `compile()` records it in
 * `spec.subgraphs`, so exporters and diagrams can see that a node is a graph.
 */
export function subgraphSpecOf(node: unknown): GraphSpec | undefined {
  return typeof node === "function" ? childSpecs.get(node) : undefined;
}

/** A subgraph node's child graph: the tables it runs on and the spec it was compiled from. */
export interface ChildGraph {
  readonly graph: ExecutableGraph;
  readonly spec: GraphSpec;
}

/**
 * The child graph a node made by `subgraph` runs, its tables and its spec together (a driver that runs
 * the child needs the one, one that exports it the other); `undefined` for any other node.
 *
 * @example
 * ```ts
 * const child = childGraphOf(executable.nodes.get("booking")); // { graph, spec } for a subgraph node
 * ```
 */
export function childGraphOf(node: unknown): ChildGraph | undefined {
  const graph = subgraphOf(node);
  const spec = subgraphSpecOf(node);
  return graph === undefined || spec === undefined ? undefined : { graph, spec };
}
