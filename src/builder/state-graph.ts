/**
 * The runtime builder. Its types are not public: the typed surface is in `types.ts`, and this class
 * is deliberately loose inside (the ts-pattern way). Each call returns a new builder, so a builder
 * value never changes behind the type that describes it.
 */
import { CompiledGraph, compileGraph } from "../engine/index.js";
import { subgraph } from "../engine/index.js";
import type { GraphDefinition, NodeFunction, NodeOptions, NodePolicy, RouterFunction } from "../engine/index.js";
import { reducerNameOf, type AnyReducer } from "../engine/index.js";
import type { BoundSpec, EdgeSpec, EndsSpec, FanOutSpec, GraphSpec, JoinSpec, RouteSpec } from "../spec.js";
import { describeValue, quote } from "../_describe.js";
import { invalidArgument, InvalidOptionError } from "../errors.js";
import { checkCompileOptions } from "../validate/compile-options.js";
import { boundOption } from "./bound-option.js";
import type { CompileOptions, StateGraph as TypedStateGraph, StateGraphConstructor, StateGraphOptions } from "./types.js";

/** The builder's options, with the state schema `stateGraph(schema)` and `defineGraph(schema)` give it. */
type BuilderOptions = StateGraphOptions<Record<string, unknown>> & { readonly stateSchema?: unknown };

/** One builder call, as the spec records it. */
type Declaration =
  | {
      readonly kind: "node";
      readonly name: string;
      readonly node: NodeFunction<never>;
      readonly policy: NodePolicy<never> | undefined;
      readonly ends: readonly string[] | undefined;
      readonly bound: BoundSpec | undefined;
      readonly defer: boolean;
    }
  | { readonly kind: "edge"; readonly edge: EdgeSpec }
  | { readonly kind: "fanOut"; readonly fanOut: FanOutSpec }
  | { readonly kind: "join"; readonly join: JoinSpec }
  | { readonly kind: "route"; readonly route: RouteSpec; readonly router: RouterFunction<never> };

/**
 * The calls so far, newest first, each linked to the ones before it. A new builder adds one link and
 * shares the rest with the builder it came from, so each call costs O(1) and a builder still never
 * changes: declaring 100k nodes is linear, where copying the tables on every call was quadratic.
 */
interface History {
  readonly last: Declaration;
  readonly before: History | undefined;
}

/** The tables `compile()` reads, built once per builder from its history (a builder never changes). */
interface Tables {
  readonly nodes: readonly string[];
  readonly nodeFunctions: Readonly<Record<string, NodeFunction<never>>>;
  readonly edges: readonly EdgeSpec[];
  readonly fanOuts: readonly FanOutSpec[];
  readonly joins: readonly JoinSpec[];
  readonly ends: readonly EndsSpec[];
  readonly bounds: readonly BoundSpec[];
  readonly deferred: readonly string[];
  readonly routes: readonly RouteSpec[];
  readonly routers: Readonly<Record<string, RouterFunction<never>>>;
  readonly policies: Readonly<Record<string, NodePolicy<never>>>;
}

/** Lets the builder make its successors without re-checking options it already checked. */
const derived = Symbol("derived builder");

class StateGraphBuilder {
  readonly #options: BuilderOptions;
  readonly #history: History | undefined;
  #tables: Tables | undefined;

  constructor(options: BuilderOptions = {}, history?: typeof derived, calls?: History) {
    if (history !== derived) checkOptions(options, "new StateGraph");
    this.#options = options;
    this.#history = calls;
  }

  get nodes(): readonly string[] {
    return [...this.#read().nodes];
  }

  addNode(name: string, nodeOrGraph: NodeFunction<never> | CompiledGraph<never>, options?: NodeOptions<never>): StateGraphBuilder {
    checkNames("StateGraph.addNode", "the node name", name, false);
    const node = nodeOrGraph instanceof CompiledGraph ? (subgraph(nodeOrGraph) as NodeFunction<never>) : nodeOrGraph;
    if (typeof node !== "function") {
      throw invalidArgument(
        `StateGraph.addNode: the node ${quote(name)} must be a function (state) => update, or a compiled graph; got ${describeValue(node)}.`,
      );
    }
    // Duplicates and reserved names are recorded and reported by compile(), with every other problem.
    // A bad policy is a problem compile() lists with the others, not an error here.
    const { policy, ends, bound, defer } = splitNodeOptions(name, options);
    return this.#with({ kind: "node", name, node, policy, ends, bound, defer });
  }

  addEdge(from: string | readonly string[], to: string | readonly string[]): StateGraphBuilder {
    checkNames("StateGraph.addEdge", "the source", from, true);
    checkNames("StateGraph.addEdge", "the destination", to, true);
    if (Array.isArray(from) && Array.isArray(to)) {
      throw invalidArgument(
        `StateGraph.addEdge: a join leads to one node; got lists on both sides. Join into one node, then fan out from it.`,
      );
    }
    if (Array.isArray(from)) return this.#with({ kind: "join", join: { from: [...from], to: to as string } });
    if (Array.isArray(to)) return this.#with({ kind: "fanOut", fanOut: { from: from as string, to: [...to] } });
    return this.#with({ kind: "edge", edge: { from: from as string, to: to as string } });
  }

  addConditionalEdges(from: string, router: RouterFunction<never>, pathMap: Record<string, string> | readonly string[]): StateGraphBuilder {
    checkNames("StateGraph.addConditionalEdges", "the source", from, false);
    if (typeof router !== "function") {
      throw invalidArgument(
        `StateGraph.addConditionalEdges: the router for ${quote(from)} must be a function (state) => routeKey; got ${describeValue(router)}.`,
      );
    }
    if (typeof pathMap !== "object" || pathMap === null) {
      throw invalidArgument(
        `StateGraph.addConditionalEdges: the path map for ${quote(from)} must be an object { routeKey: destination } or a list of node names; got ${describeValue(pathMap)}.`,
      );
    }
    if (Array.isArray(pathMap)) checkNames("StateGraph.addConditionalEdges", `the destination list for ${quote(from)}`, pathMap, true);
    // A list of node names routes by name, and allows several names or Sends at once.
    const route: RouteSpec = Array.isArray(pathMap)
      ? {
          from,
          router: router.name || "router",
          paths: Object.fromEntries(Array.from(pathMap as readonly string[], (name) => [name, name])),
          sends: true,
        }
      : { from, router: router.name || "router", paths: { ...(pathMap as Record<string, string>) } };
    return this.#with({ kind: "route", route, router });
  }

  compile(options: CompileOptions = {}): CompiledGraph<Record<string, unknown>> {
    checkCompileOptions(options, "StateGraph.compile");
    const d = this.#read();
    const reducers = (this.#options.reducers ?? {}) as Record<string, AnyReducer | undefined>;
    const reducerEntries = Object.entries(reducers).filter((entry): entry is [string, AnyReducer] => entry[1] !== undefined);
    const spec: GraphSpec = {
      nodes: d.nodes,
      edges: d.edges,
      ...(d.fanOuts.length > 0 ? { fanOuts: d.fanOuts } : {}),
      ...(d.joins.length > 0 ? { joins: d.joins } : {}),
      ...(d.ends.length > 0 ? { ends: d.ends } : {}),
      ...(d.bounds.length > 0 ? { bounds: d.bounds } : {}),
      ...(d.deferred.length > 0 ? { deferred: d.deferred } : {}),
      routes: d.routes,
      reducers: reducerEntries.map(([field, reducer]) => ({ field, reducer: reducerNameOf(reducer) })),
      ...(this.#options.fields ? { fields: [...this.#options.fields] } : {}),
    };
    const { interruptBefore, interruptAfter, checkpointer, retry, timeout, errorHandler, cacheStore, version, migrations, interrupts } =
      options;
    const compiled = {
      ...(errorHandler && { errorHandler }),
      ...(interruptBefore && { interruptBefore }),
      ...(interruptAfter && { interruptAfter }),
      ...(checkpointer && { checkpointer }),
      ...(retry && { retry }),
      ...(timeout !== undefined && { timeout }),
      ...(cacheStore && { cacheStore }),
      ...(version !== undefined && { version }),
      ...(migrations !== undefined && { migrations }),
      ...(interrupts !== undefined && { interrupts }),
    };
    const { orderedMerge, stateSchema, fieldSchemas, loops } = this.#options;
    return compileGraph(
      {
        spec,
        nodes: d.nodeFunctions,
        routers: d.routers,
        reducers: Object.fromEntries(reducerEntries),
        policies: d.policies,
        ...(orderedMerge && { orderedMerge }),
        // compile() reports a state schema that is not one (INVALID_STATE_SCHEMA), with the other problems.
        ...(stateSchema !== undefined && { stateSchema: stateSchema as NonNullable<GraphDefinition["stateSchema"]> }),
        // compile() reports a field schema that is not one, or names no field (INVALID_STATE_SCHEMA).
        ...(fieldSchemas !== undefined && { fieldSchemas: fieldSchemas as NonNullable<GraphDefinition["fieldSchemas"]> }),
        ...(loops && { loops }),
      },
      compiled,
    );
  }

  #with(last: Declaration): StateGraphBuilder {
    return new StateGraphBuilder(this.#options, derived, { last, before: this.#history });
  }

  #read(): Tables {
    return (this.#tables ??= tablesOf(this.#history));
  }
}

/** The declarations in call order. A loop, not recursion: a history may be 100k calls long. */
function tablesOf(history: History | undefined): Tables {
  const calls: Declaration[] = [];
  for (let link = history; link !== undefined; link = link.before) calls.push(link.last);
  calls.reverse();
  const nodes: string[] = [];
  const nodeFunctions: Record<string, NodeFunction<never>> = {};
  const edges: EdgeSpec[] = [];
  const fanOuts: FanOutSpec[] = [];
  const joins: JoinSpec[] = [];
  const ends: EndsSpec[] = [];
  const bounds: BoundSpec[] = [];
  const deferred: string[] = [];
  const routes: RouteSpec[] = [];
  const routers: Record<string, RouterFunction<never>> = {};
  const policies: Record<string, NodePolicy<never>> = {};
  for (const call of calls) {
    switch (call.kind) {
      case "node":
        nodes.push(call.name);
        // The first declaration of a name keeps its function; compile() reports the duplicate.
        if (!Object.hasOwn(nodeFunctions, call.name)) {
          defineEntry(nodeFunctions, call.name, call.node);
          if (call.policy !== undefined) defineEntry(policies, call.name, call.policy);
          if (call.ends !== undefined) ends.push({ from: call.name, to: call.ends });
          if (call.bound !== undefined) bounds.push(call.bound);
          if (call.defer) deferred.push(call.name);
        }
        break;
      case "edge":
        edges.push(call.edge);
        break;
      case "fanOut":
        fanOuts.push(call.fanOut);
        break;
      case "join":
        joins.push(call.join);
        break;
      case "route":
        routes.push(call.route);
        defineEntry(routers, call.route.from, call.router);
        break;
    }
  }
  return { nodes, nodeFunctions, edges, fanOuts, joins, ends, bounds, deferred, routes, routers, policies };
}

/** `addNode`'s third argument, split: the node's policy, and what the spec records apart. */
interface SplitOptions {
  readonly policy: NodePolicy<never> | undefined;
  readonly ends: readonly string[] | undefined;
  readonly bound: BoundSpec | undefined;
  readonly defer: boolean;
}

/**
 * `addNode`'s third argument: the node's policies, its `ends` (where its Command may go), its loop
 * `bound` and `defer`, which the spec records apart. `ends` must be a non-empty list of names, `defer`
 * a boolean; a policy is checked by compile().
 */
function splitNodeOptions(name: string, options: NodeOptions<never> | undefined): SplitOptions {
  if (typeof options !== "object" || options === null) return { policy: options, ends: undefined, bound: undefined, defer: false };
  const { bound: declared, defer: deferOption, ...rest } = options;
  const bound = boundOption(name, declared);
  const defer = deferOf(name, deferOption);
  if (!Object.hasOwn(rest, "ends")) return { policy: Object.keys(rest).length > 0 ? rest : undefined, ends: undefined, bound, defer };
  const { ends, ...policy } = rest;
  checkNames("StateGraph.addNode", `the ends of ${quote(name)}`, ends, true);
  if (!Array.isArray(ends) || ends.length === 0) {
    throw invalidArgument(
      `StateGraph.addNode: the ends of ${quote(name)} must list the nodes its Command may go to, e.g. { ends: ["a", "b"] }; got ${quote(ends)}.`,
    );
  }
  return { policy: Object.keys(policy).length > 0 ? policy : undefined, ends: [...(ends as readonly string[])], bound, defer };
}

/** `addNode`'s `defer` option: `true`, `false` or left out; anything else is a mistake worth naming (`"yes"` is not `true`). */
function deferOf(name: string, defer: unknown): boolean {
  if (defer === undefined || typeof defer === "boolean") return defer === true;
  throw invalidArgument(
    `StateGraph.addNode: the defer option of ${quote(name)} must be true or false (true: the node waits until no other node has a task pending); got ${quote(defer)}.`,
  );
}

/**
 * Node names are strings (a list of them where `lists` allows one): anything else would be turned into
 * a property key later, which can throw (an object without a prototype) or collide ("[object Object]").
 */
function checkNames(api: string, what: string, value: unknown, lists: boolean): void {
  const ok =
    typeof value === "string" ||
    (lists && Array.isArray(value) && Array.from(value as readonly unknown[]).every((name) => typeof name === "string"));
  if (!ok)
    throw invalidArgument(`${api}: ${what} must be a node name (a string)${lists ? " or a list of them" : ""}; got ${quote(value)}.`);
}

/** Sets an own entry, even for a name such as `__proto__` that plain assignment would turn into a prototype. */
function defineEntry<T>(table: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(table, key, { value, writable: true, enumerable: true, configurable: true });
  else table[key] = value;
}

/** The API a builder's options were given to, as its messages name it. */
type OptionsApi = "new StateGraph" | "stateGraph" | "defineGraph";

function checkOptions(options: unknown, api: OptionsApi): void {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: options must be an object such as { reducers, fields }; got ${describeValue(options)}.`);
  }
  const { reducers, fields, orderedMerge, loops, fieldSchemas } = options as StateGraphOptions<Record<string, unknown>>;
  if (loops !== undefined && loops !== "bounded") {
    throw new InvalidOptionError(
      `${api}: loops must be "bounded" (every cycle crosses a bounded node), or left out; got ${describeValue(loops)}.`,
    );
  }
  checkReducers(reducers, api);
  checkFields(fields, api);
  checkFieldSchemas(fieldSchemas, api);
  checkOrderedMerge(orderedMerge, reducers, api);
}

/**
 * A new runtime builder whose options were given to `api` (`stateGraph<S>()(options)`): checked, and
 * reported under that name. Loosely typed, as the class is: the caller gives it its typed surface.
 */
export function createStateGraph(options: unknown, api: OptionsApi, stateSchema?: unknown): unknown {
  checkOptions(options, api);
  const given = options as StateGraphOptions<Record<string, unknown>>;
  return new StateGraphBuilder(stateSchema === undefined ? given : { ...given, stateSchema }, derived);
}

/** `orderedMerge` acknowledges the merge order of reducer fields: a field without a reducer has none to acknowledge. */
function checkOrderedMerge(orderedMerge: unknown, reducers: Readonly<Record<string, unknown>> | undefined, api: OptionsApi): void {
  if (orderedMerge === undefined) return;
  if (!Array.isArray(orderedMerge) || orderedMerge.some((f) => typeof f !== "string")) {
    throw new InvalidOptionError(
      `${api}: orderedMerge must be an array of field names, e.g. ["events"]; got ${describeValue(orderedMerge)}.`,
    );
  }
  for (const field of orderedMerge as string[]) {
    if (reducers === undefined || !Object.hasOwn(reducers, field) || reducers[field] === undefined) {
      throw new InvalidOptionError(
        `${api}: orderedMerge lists ${quote(field)}, which has no reducer; list only fields with a reducer (parallel writes of any other field are an error, not a merge).`,
      );
    }
  }
}

function checkReducers(reducers: unknown, api: OptionsApi): void {
  if (reducers === undefined) return;
  if (typeof reducers !== "object" || reducers === null) {
    throw new InvalidOptionError(`${api}: reducers must be an object { field: reducer }; got ${describeValue(reducers)}.`);
  }
  for (const [field, reducer] of Object.entries(reducers)) {
    if (reducer !== undefined && typeof reducer !== "function") {
      throw new InvalidOptionError(
        `${api}: the reducer for ${quote(field)} must be a function (current, update) => next; got ${describeValue(reducer)}.`,
      );
    }
  }
}

function checkFieldSchemas(fieldSchemas: unknown, api: OptionsApi): void {
  if (fieldSchemas === undefined || (typeof fieldSchemas === "object" && fieldSchemas !== null && !Array.isArray(fieldSchemas))) return;
  throw new InvalidOptionError(
    `${api}: fieldSchemas must be an object { field: schema }, such as { amount: z.number() }; got ${describeValue(fieldSchemas)}.`,
  );
}

function checkFields(fields: unknown, api: OptionsApi): void {
  if (fields === undefined) return;
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== "string" || f.trim() === "")) {
    throw new InvalidOptionError(`${api}: fields must be an array of non-empty field names, e.g. ["messages", "error"].`);
  }
  const seen = new Set<string>();
  for (const field of fields as string[]) {
    if (seen.has(field)) throw new InvalidOptionError(`${api}: fields lists ${quote(field)} twice; list each field once.`);
    seen.add(field);
  }
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
/**
 * The builder's type: state `S`, declared nodes `N`, edges `E`, sources with a rule `R`, `I` the
 * nodes that take their own input (`Send` targets) by name, and `W` the fields each node surely writes
 * (for the parallel-write check; `unknown`, the default, records none).
 */
export type StateGraph<
  S extends object,
  N extends string = never,
  E = never,
  R extends string = never,
  I extends object = {},
  W = unknown,
> = TypedStateGraph<S, N, E, R, I, W>;
