/**
 * `bindSpec(spec, implementations)`: a graph whose topology is plain data (written in TypeScript, or
 * loaded from JSON) bound to the functions that implement it. A TypeScript spec is checked at compile
 * time; every spec is checked at run time, schema first, then topology, through the same builder as
 * the other forms.
 */
import type { CompiledGraph } from "../engine/compiled-graph.js";
import { append, mergeById, replace, sum, union, type AnyReducer } from "../engine/reducers.js";
import { GraphValidationError, type GraphProblem } from "../errors.js";
import type { GraphSpec } from "../spec.js";
import { checkSpecSchema } from "../validate/spec-schema.js";
import { validateTopology } from "../validate/topology.js";
import { looseBuilder } from "./define-graph.js";
import type { BindableSpec, CheckedImplementations, Implementations, StateOfImplementations } from "./define-types.js";

const builtInReducers: Readonly<Record<string, AnyReducer>> = { append, replace, sum, union, mergeById };

/**
 * Binds a spec to its implementations and compiles it. A spec written in TypeScript (`as const`) is
 * checked at compile time: every node and route implemented, nothing extra, routers returning exactly
 * the spec's keys. A spec typed `unknown` (parsed JSON) is checked at run time only. Built-in reducer
 * names (`append`, `sum`, …) resolve by themselves; any other reducer comes from
 * `implementations.reducers`. Throws `GraphValidationError` listing every problem: schema, missing or
 * extra implementations, topology.
 *
 * @example
 * ```ts
 * const spec = {
 *   nodes: ["inc"],
 *   edges: [{ from: START, to: "inc" }],
 *   routes: [{ from: "inc", paths: { again: "inc", done: END } }],
 * } as const;
 * const graph = bindSpec(spec, {
 *   nodes: { inc: (s: { n: number }) => ({ n: s.n + 1 }) },
 *   routers: { inc: (s: { n: number }) => (s.n < 3 ? "again" : "done") },
 * });
 * ```
 */
export function bindSpec<const Sp, const Impl extends Implementations>(
  spec: Sp,
  implementations: Impl & (Sp extends BindableSpec ? CheckedImplementations<Sp, Impl> : unknown),
): Sp extends BindableSpec ? CompiledGraph<StateOfImplementations<Impl>> : CompiledGraph<Record<string, unknown>>;
export function bindSpec(spec: unknown, implementations: Implementations): CompiledGraph<never> {
  const schemaProblems = checkSpecSchema(spec);
  if (schemaProblems.length > 0) throw new GraphValidationError(schemaProblems);
  const data = spec as BindableSpec;
  if (typeof implementations !== "object" || implementations === null || typeof implementations.nodes !== "object" || implementations.nodes === null) {
    throw new TypeError("bindSpec: implementations must be { nodes: { name: fn }, routers?: { source: fn }, reducers?: { field: fn } }.");
  }
  const missing = data.nodes.filter((name) => !Object.hasOwn(implementations.nodes, name) || typeof implementations.nodes[name] !== "function");
  const missingRouters = data.routes.filter((r) => typeof (Object.hasOwn(implementations.routers ?? {}, r.from) ? implementations.routers?.[r.from] : undefined) !== "function");
  const extra = Object.keys(implementations.nodes).filter((name) => !data.nodes.includes(name));
  const extraRouters = Object.keys(implementations.routers ?? {}).filter((from) => !data.routes.some((r) => r.from === from));
  const unknownReducers = (data.reducers ?? []).filter(
    (r) => !Object.hasOwn(builtInReducers, r.reducer) && !Object.hasOwn(implementations.reducers ?? {}, r.field),
  );
  const problems: GraphProblem[] = [
    ...missing.map((node) => ({ code: "UNKNOWN_NODE" as const, node, message: `bindSpec: node "${node}" has no implementation. Add implementations.nodes["${node}"].` })),
    ...missingRouters.map((r) => ({ code: "UNKNOWN_NODE" as const, node: r.from, message: `bindSpec: the route from "${r.from}" has no router. Add implementations.routers["${r.from}"].` })),
    ...extra.map((node) => ({ code: "UNKNOWN_NODE" as const, node, message: `bindSpec: "${node}" is implemented but is not a node of the spec. Remove it, or add it to the spec.` })),
    ...extraRouters.map((node) => ({ code: "UNKNOWN_NODE" as const, node, message: `bindSpec: a router is given for "${node}", which has no route in the spec. Remove it.` })),
    ...unknownReducers.map((r) => ({
      code: "UNKNOWN_REDUCER_FIELD" as const,
      node: r.field,
      message: `bindSpec: the reducer "${r.reducer}" of "${r.field}" is not built in; pass it as implementations.reducers.${r.field}.`,
    })),
  ];
  // Every problem at once: the topology's too, so fixing the implementations does not reveal more.
  problems.push(...validateTopology(asGraphSpec(data)));
  if (problems.length > 0) throw new GraphValidationError(problems);

  const reducers = Object.fromEntries((data.reducers ?? []).map((r) => [r.field, implementations.reducers?.[r.field] ?? builtInReducers[r.reducer]]));
  let builder = looseBuilder({ reducers, ...(data.fields ? { fields: [...data.fields] } : {}) });
  for (const node of data.nodes) builder = builder.addNode(node, implementations.nodes[node]);
  for (const edge of data.edges) builder = builder.addEdge(edge.from, edge.to);
  for (const fanOut of data.fanOuts ?? []) builder = builder.addEdge(fanOut.from, fanOut.to);
  for (const join of data.joins ?? []) builder = builder.addEdge(join.from, join.to);
  for (const route of data.routes) {
    builder = builder.addConditionalEdges(route.from, implementations.routers?.[route.from], route.sends ? Object.keys(route.paths) : route.paths);
  }
  return builder.compile({ typeLevelTopology: false });
}

/** The topology as validation reads it (a bindable spec may omit router names and reducers; subgraphs are checked when bound). */
function asGraphSpec({ subgraphs: _children, ...data }: BindableSpec): GraphSpec {
  return {
    ...data,
    routes: data.routes.map((route) => ({ from: route.from, router: route.router ?? "router", paths: route.paths, ...(route.sends ? { sends: true as const } : {}) })),
    reducers: data.reducers ?? [],
  };
}
