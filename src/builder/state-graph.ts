/**
 * The runtime builder. Its types are not public: the typed surface is in `types.ts`, and this class
 * is deliberately loose inside (the ts-pattern way). Each call returns a new builder, so a builder
 * value never changes behind the type that describes it.
 */
import { CompiledGraph, compileGraph } from "../engine/compiled-graph.js";
import { subgraph } from "../engine/subgraph.js";
import type { NodeFunction, RouterFunction } from "../engine/executable.js";
import { reducerNameOf, type AnyReducer } from "../engine/reducers.js";
import type { EdgeSpec, FanOutSpec, GraphSpec, JoinSpec, RouteSpec } from "../spec.js";
import type { CompileOptions, StateGraph as TypedStateGraph, StateGraphConstructor, StateGraphOptions } from "./types.js";

interface Declarations {
  readonly nodes: readonly string[];
  readonly nodeFunctions: Readonly<Record<string, NodeFunction<never>>>;
  readonly edges: readonly EdgeSpec[];
  readonly fanOuts: readonly FanOutSpec[];
  readonly joins: readonly JoinSpec[];
  readonly routes: readonly RouteSpec[];
  readonly routers: Readonly<Record<string, RouterFunction<never>>>;
}

const empty: Declarations = { nodes: [], nodeFunctions: {}, edges: [], fanOuts: [], joins: [], routes: [], routers: {} };

class StateGraphBuilder {
  readonly #options: StateGraphOptions<Record<string, unknown>>;
  readonly #declarations: Declarations;

  constructor(options: StateGraphOptions<Record<string, unknown>> = {}, declarations: Declarations = empty) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`new StateGraph: options must be an object such as { reducers, fields }; got ${String(options)}.`);
    }
    checkReducers(options.reducers);
    checkFields(options.fields);
    this.#options = options;
    this.#declarations = declarations;
  }

  get nodes(): readonly string[] {
    return [...this.#declarations.nodes];
  }

  addNode(name: string, nodeOrGraph: NodeFunction<never> | CompiledGraph<never>): StateGraphBuilder {
    const node = nodeOrGraph instanceof CompiledGraph ? (subgraph(nodeOrGraph) as NodeFunction<never>) : nodeOrGraph;
    if (typeof node !== "function") {
      throw new TypeError(`addNode: the node "${String(name)}" must be a function (state) => update, or a compiled graph; got ${typeof node}.`);
    }
    const d = this.#declarations;
    // Duplicates and reserved names are recorded and reported by compile(), with every other problem.
    const nodeFunctions = Object.hasOwn(d.nodeFunctions, name) ? d.nodeFunctions : { ...d.nodeFunctions, [name]: node };
    return this.#with({ nodes: [...d.nodes, name], nodeFunctions });
  }

  addEdge(from: string | readonly string[], to: string | readonly string[]): StateGraphBuilder {
    const d = this.#declarations;
    if (Array.isArray(from) && Array.isArray(to)) {
      throw new TypeError(`addEdge: a join leads to one node; got lists on both sides. Join into one node, then fan out from it.`);
    }
    if (Array.isArray(from)) return this.#with({ joins: [...d.joins, { from: [...from], to: to as string }] });
    if (Array.isArray(to)) return this.#with({ fanOuts: [...d.fanOuts, { from: from as string, to: [...to] }] });
    return this.#with({ edges: [...d.edges, { from: from as string, to: to as string }] });
  }

  addConditionalEdges(from: string, router: RouterFunction<never>, pathMap: Record<string, string> | readonly string[]): StateGraphBuilder {
    if (typeof router !== "function") {
      throw new TypeError(`addConditionalEdges: the router for "${from}" must be a function (state) => routeKey; got ${typeof router}.`);
    }
    if (typeof pathMap !== "object" || pathMap === null) {
      throw new TypeError(`addConditionalEdges: the path map for "${from}" must be an object { routeKey: destination } or a list of node names.`);
    }
    const d = this.#declarations;
    // A list of node names routes by name, and allows several names or Sends at once.
    const route: RouteSpec = Array.isArray(pathMap)
      ? { from, router: router.name || "router", paths: Object.fromEntries(pathMap.map((name: string) => [name, name])), sends: true }
      : { from, router: router.name || "router", paths: { ...(pathMap as Record<string, string>) } };
    return this.#with({ routes: [...d.routes, route], routers: { ...d.routers, [from]: router } });
  }

  compile(options: CompileOptions = {}): CompiledGraph<Record<string, unknown>> {
    const d = this.#declarations;
    const reducers = (this.#options.reducers ?? {}) as Record<string, AnyReducer | undefined>;
    const reducerEntries = Object.entries(reducers).filter((entry): entry is [string, AnyReducer] => entry[1] !== undefined);
    const spec: GraphSpec = {
      nodes: d.nodes,
      edges: d.edges,
      ...(d.fanOuts.length > 0 ? { fanOuts: d.fanOuts } : {}),
      ...(d.joins.length > 0 ? { joins: d.joins } : {}),
      routes: d.routes,
      reducers: reducerEntries.map(([field, reducer]) => ({ field, reducer: reducerNameOf(reducer) })),
      ...(this.#options.fields ? { fields: [...this.#options.fields] } : {}),
    };
    const { interruptBefore, interruptAfter, checkpointer } = options;
    const threads = { ...(interruptBefore && { interruptBefore }), ...(interruptAfter && { interruptAfter }), ...(checkpointer && { checkpointer }) };
    return compileGraph({ spec, nodes: d.nodeFunctions, routers: d.routers, reducers: Object.fromEntries(reducerEntries) }, threads);
  }

  #with(change: Partial<Declarations>): StateGraphBuilder {
    return new StateGraphBuilder(this.#options, { ...this.#declarations, ...change });
  }
}

function checkReducers(reducers: unknown): void {
  if (reducers === undefined) return;
  if (typeof reducers !== "object" || reducers === null) {
    throw new TypeError(`new StateGraph: reducers must be an object { field: reducer }; got ${String(reducers)}.`);
  }
  for (const [field, reducer] of Object.entries(reducers)) {
    if (reducer !== undefined && typeof reducer !== "function") {
      throw new TypeError(`new StateGraph: the reducer for "${field}" must be a function (current, update) => next; got ${typeof reducer}.`);
    }
  }
}

function checkFields(fields: unknown): void {
  if (fields === undefined) return;
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== "string" || f.trim() === "")) {
    throw new TypeError(`new StateGraph: fields must be an array of non-empty field names, e.g. ["messages", "error"].`);
  }
  const duplicate = fields.find((f, i) => fields.indexOf(f) !== i);
  if (duplicate !== undefined) throw new TypeError(`new StateGraph: fields lists "${String(duplicate)}" twice; list each field once.`);
}

/**
 * Declares a state graph. Node names, edges and routes are checked by the compiler; `compile()`
 * checks them again at run time and returns a runnable graph.
 *
 * @example
 * ```ts
 * const graph = new StateGraph<{ n: number }>()
 *   .addNode("inc", (s) => ({ n: s.n + 1 }))
 *   .addEdge(START, "inc")
 *   .addEdge("inc", END)
 *   .compile();
 * await graph.invoke({ n: 0 }); // { state: { n: 1 }, trace: ["inc"], steps: [...] }
 * ```
 */
export const StateGraph = StateGraphBuilder as unknown as StateGraphConstructor;
/** The builder's type: state `S`, declared nodes `N`, edges `E`, sources with a rule `R`. */
export type StateGraph<S extends object, N extends string = never, E = never, R extends string = never> = TypedStateGraph<S, N, E, R>;
