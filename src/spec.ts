/**
 * The plain-data description of a graph. Exporters, coverage and diagrams read only this:
 * it is the hinge between declaring a graph and everything done with it.
 */

/** The entry marker. Edges from `START` choose the first node. */
export const START = "__start__";
/** The exit marker. Reaching `END` finishes a run. */
export const END = "__end__";

export type Start = typeof START;
export type End = typeof END;

/** A fixed edge: after `from` runs, `to` runs next. */
export interface EdgeSpec {
  readonly from: string;
  readonly to: string;
}

/** A conditional edge: a router on `from` returns one of the keys of `paths`. */
export interface RouteSpec {
  readonly from: string;
  /** The router's name, for diagrams and messages (the function's own name, or `"router"`). */
  readonly router: string;
  /** Route key → destination node (or `END`). */
  readonly paths: Readonly<Record<string, string>>;
}

/** Which reducer combines a field's updates. */
export interface ReducerSpec {
  readonly field: string;
  /** The reducer's name: a built-in's name (`append`, `sum`, …) or the function's own name. */
  readonly reducer: string;
}

/**
 * The JSON-serializable description of a compiled graph.
 *
 * @example
 * ```ts
 * const graph = new StateGraph<{ n: number }>()
 *   .addNode("inc", (s) => ({ n: s.n + 1 }))
 *   .addEdge(START, "inc")
 *   .addEdge("inc", END)
 *   .compile();
 * JSON.stringify(graph.spec); // {"nodes":["inc"],"edges":[…],"routes":[],"reducers":[]}
 * ```
 */
export interface GraphSpec {
  /** Node names, in declaration order. */
  readonly nodes: readonly string[];
  /** Fixed edges, in declaration order. `from` may be `START`, `to` may be `END`. */
  readonly edges: readonly EdgeSpec[];
  /** Conditional edges, in declaration order. */
  readonly routes: readonly RouteSpec[];
  /** Fields that have a reducer. Every other field is replaced by an update. */
  readonly reducers: readonly ReducerSpec[];
  /** Every state field, when the graph declared them with the `fields` option. */
  readonly fields?: readonly string[];
}

/** Every destination a source can lead to, fixed or routed, in declaration order. */
export function successorsOf(spec: GraphSpec, source: string): string[] {
  const out: string[] = [];
  for (const edge of spec.edges) if (edge.from === source) out.push(edge.to);
  for (const route of spec.routes) {
    if (route.from === source) for (const to of Object.values(route.paths)) out.push(to);
  }
  return out;
}
