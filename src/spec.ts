/**
 * The plain-data description of a graph. Exporters, coverage and diagrams read only this:
 * it is the hinge between declaring a graph and everything done with it.
 */

/** The entry marker. Edges from `START` choose the first node. */
export const START = "__start__";
/**
 * The exit marker. Reaching `END` finishes a run. Typed `"__end__"` without widening, so a generic
 * call that reads it (`new Command({ goto: END })`) keeps the literal.
 */
export const END = "__end__" as const;

/** The type of {@link START}, for signatures that name it. @example `const from: Start = START;` */
export type Start = typeof START;
/** The type of {@link END}, for signatures that name it. @example `const to: End = END;` */
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
  /**
   * `true` when the path map was given as a list of node names: the router may then return several
   * of them, or `Send`s, so its destinations can run in parallel.
   */
  readonly sends?: true;
}

/**
 * A fan-out: after `from` runs, every node of `to` runs, together, in the next superstep.
 * Declared on purpose with `addEdge(from, [a, b, c])`; it is `from`'s one rule.
 */
export interface FanOutSpec {
  readonly from: string;
  readonly to: readonly string[];
}

/**
 * A join (a barrier): `to` runs once, after every node of `from` has run. Declared with
 * `addEdge([a, b, c], to)`; it is the one rule of each of its sources.
 */
export interface JoinSpec {
  readonly from: readonly string[];
  readonly to: string;
}

/**
 * Where a node may go with a `Command` it returns (LangGraph's `ends`): declared with
 * `addNode(name, fn, { ends: ["a", "b"] })`. The node's own edge or route (if it has one) still applies;
 * its `goto` adds these destinations, and names only them. `to` may hold `END`.
 */
export interface EndsSpec {
  readonly from: string;
  readonly to: readonly string[];
}

/**
 * A node's loop bound: it runs at most `max` times per run (a new input on a thread starts a new run).
 * When its bound is reached, the run goes to `exit` (a node or `END`) instead; without an exit it fails
 * with `LOOP_BOUND`. Declared with `addNode(name, fn, { bound: { max, exit } })`.
 */
export interface BoundSpec {
  readonly node: string;
  /** Visits per run: an integer ≥ 0 (`0`: the node never runs, the run goes straight to `exit`). */
  readonly max: number;
  /** Where the run goes instead of the node once it ran `max` times; without it, `LOOP_BOUND`. */
  readonly exit?: string;
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
  /** Fan-outs, when the graph has any. */
  readonly fanOuts?: readonly FanOutSpec[];
  /** Joins (barriers), when the graph has any. */
  readonly joins?: readonly JoinSpec[];
  /** The destinations of the nodes that return a `Command` with `goto`, when the graph has any. */
  readonly ends?: readonly EndsSpec[];
  /** The nodes' loop bounds, when the graph declares any. */
  readonly bounds?: readonly BoundSpec[];
  /**
   * The deferred nodes (`addNode(name, fn, { defer: true })`, LangGraph's `defer`), in declaration
   * order, when the graph has any: such a node, once an edge, route, join or `Command` leads to it,
   * waits until no task of another node is pending (a `Send` to it is not deferred).
   */
  readonly deferred?: readonly string[];
  /** Fields that have a reducer. Every other field is replaced by an update. */
  readonly reducers: readonly ReducerSpec[];
  /** Every state field, when the graph declared them with the `fields` option. */
  readonly fields?: readonly string[];
  /** The spec of each node that runs a compiled graph (a subgraph), by node name. */
  readonly subgraphs?: Readonly<Record<string, GraphSpec>>;
}

/**
 * Every pair (source, destination) the spec can take, whatever the rule: fixed edges, fan-outs,
 * joins, routes and the nodes' `Command` ends, in that order. Reachability and diagrams read it.
 *
 * @example
 * ```ts
 * transitionPairs(graph.spec); // [{ from: "__start__", to: "plan" }, { from: "plan", to: "web" }, …]
 * ```
 */
export function transitionPairs(spec: GraphSpec): EdgeSpec[] {
  const pairs: EdgeSpec[] = spec.edges.map(({ from, to }) => ({ from, to }));
  for (const fanOut of spec.fanOuts ?? []) for (const to of fanOut.to) pairs.push({ from: fanOut.from, to });
  for (const join of spec.joins ?? []) for (const from of join.from) pairs.push({ from, to: join.to });
  for (const route of spec.routes) for (const to of Object.values(route.paths)) pairs.push({ from: route.from, to });
  for (const ends of spec.ends ?? []) for (const to of ends.to) pairs.push({ from: ends.from, to });
  return pairs;
}
