/**
 * `defineGraph<S>()({ nodes, edges, routes })`: a graph declared as one value. It compiles through the
 * same runtime builder as the chained form, so both give the same compiled graph, the same spec and
 * the same validation.
 */
import { describeValue, quote } from "../_describe.js";
import { invalidArgument } from "../errors.js";
import type { CompiledGraph, LoopBound, NodeOptions, NodePolicy } from "../engine/index.js";
import type { InputOf, StateOf, StateSchema } from "../engine/index.js";
import { nodeOptions } from "./node-options.js";
import type { CompileOptions, ReducersFor } from "./types.js";
import type { DefinedGraph, DefineOptions, EdgeDeclaration, GraphDeclaration, NodeTableConstraint } from "./define-types.js";
import type { RouteDeclaration } from "./route.js";
import { createStateGraph } from "./state-graph.js";

/** The loose view of the runtime builder that declarative forms drive. */
export interface LooseBuilder {
  addNode(name: string, node: unknown, options?: NodeOptions<never>): LooseBuilder;
  addEdge(from: string | readonly string[], to: string | readonly string[]): LooseBuilder;
  addConditionalEdges(from: string, router: unknown, paths: Readonly<Record<string, string>> | readonly string[]): LooseBuilder;
  compile(options?: DefineOptions): CompiledGraph<never>;
}

/** Starts a loose builder with the given options (and state schema). */
export function looseBuilder(
  options: { reducers?: unknown; fields?: unknown; orderedMerge?: unknown; fieldSchemas?: unknown; loops?: unknown },
  stateSchema?: unknown,
): LooseBuilder {
  return createStateGraph(options, "defineGraph", stateSchema) as LooseBuilder;
}

/**
 * What `defineGraph<S>()` (or `defineGraph(schema)`) returns: the function that takes the declaration.
 * `Input` is what `invoke` takes (a state schema's input type), `S` the state the nodes read.
 */
export type GraphDefiner<S extends object, Input extends object = S> = <
  const Nodes extends NodeTableConstraint<S, Inputs>,
  const Edges extends readonly EdgeDeclaration<keyof Nodes & string>[],
  const Routes = {},
  const O extends DefineOptions = {},
  const Ends = {},
  Inputs = {},
  Reducers extends ReducersFor<S> = {},
>(
  declaration: GraphDeclaration<S, Nodes, Edges, Routes, O, Ends, Inputs, Reducers>,
  options?: O & CompileOptions<NoInfer<keyof Nodes & string>, S>,
) => DefinedGraph<CompiledGraph<S, keyof Nodes & string, Input>, Nodes, Edges, Routes, O, Ends>;

/**
 * Declares a graph as one object: `nodes` by name, `edges` as `[from, to]` pairs (a list on the right
 * fans out, a list on the left joins), `routes` by source built with `route(router, pathMap)`. It carries
 * the builder's compile-time checks and returns the same compiled graph; when the topology is wrong
 * (a node without an exit, unreachable, or unable to reach END) the result's type is the list of
 * problems, so the first use of the result is a compile error that reads them.
 *
 * @example
 * ```ts
 * const graph = defineGraph<{ n: number }>()({
 *   nodes: { inc: (s) => ({ n: s.n + 1 }) },
 *   edges: [[START, "inc"]],
 *   routes: { inc: route((s: { n: number }) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END }) },
 * });
 * ```
 */
export function defineGraph<S extends object>(): GraphDefiner<S>;
/**
 * Declares a graph as one object, its state given by a Standard Schema (zod 4, valibot, arktype…):
 * the nodes read the schema's output type, `invoke` takes its input type, and every state that enters
 * the run is validated by the schema before it is committed.
 *
 * @example
 * ```ts
 * const graph = defineGraph(z.object({ n: z.number() }))({
 *   nodes: { inc: (s) => ({ n: s.n + 1 }) },
 *   edges: [[START, "inc"], ["inc", END]],
 * });
 * ```
 */
export function defineGraph<const Schema extends StateSchema>(schema: Schema): GraphDefiner<StateOf<Schema>, InputOf<Schema>>;
export function defineGraph(...schema: [] | [unknown]): GraphDefiner<Record<string, unknown>> {
  return function define(
    declaration: GraphDeclaration<Record<string, unknown>, {}, readonly [], {}, {}>,
    options?: DefineOptions,
  ): CompiledGraph<never> {
    if (
      typeof declaration !== "object" ||
      declaration === null ||
      typeof declaration.nodes !== "object" ||
      !Array.isArray(declaration.edges)
    ) {
      throw invalidArgument(
        `defineGraph: expected { nodes: { name: fn }, edges: [[from, to], …], routes?: { from: route(router, paths) } }; got ${describeValue(declaration)}.`,
      );
    }
    let builder = looseBuilder(
      {
        reducers: declaration.reducers,
        fields: declaration.fields,
        orderedMerge: declaration.orderedMerge,
        ...(declaration.fieldSchemas === undefined ? {} : { fieldSchemas: declaration.fieldSchemas }),
        ...(declaration.loops === undefined ? {} : { loops: declaration.loops }),
      },
      schema.length === 0 ? undefined : schema[0],
    );
    const bounds = (declaration.bounds ?? {}) as Readonly<Record<string, LoopBound | undefined>>;
    const policies = (declaration.policies ?? {}) as Readonly<Record<string, NodePolicy<never> | undefined>>;
    const ends = (declaration.ends ?? {}) as Readonly<Record<string, readonly string[] | undefined>>;
    const deferred = deferredNodes(declaration.defer, declaration.nodes);
    for (const [name, node] of Object.entries(declaration.nodes)) {
      const options = nodeOptions(
        Object.hasOwn(policies, name) ? policies[name] : undefined,
        Object.hasOwn(ends, name) ? ends[name] : undefined,
        Object.hasOwn(bounds, name) ? bounds[name] : undefined,
        deferred.has(name),
      );
      builder = builder.addNode(name, node, options);
    }
    for (const edge of declaration.edges as readonly unknown[]) {
      if (!Array.isArray(edge) || edge.length !== 2) {
        throw invalidArgument(`defineGraph: each edge is a pair [from, to]; got ${quote(edge)}.`);
      }
      builder = builder.addEdge(edge[0] as string, edge[1] as string);
    }
    const routes = (declaration.routes ?? {}) as Readonly<Record<string, RouteDeclaration<never>>>;
    for (const [from, declared] of Object.entries(routes)) {
      if (typeof declared !== "object" || declared === null || typeof declared.router !== "function") {
        throw invalidArgument(
          `defineGraph: the route from ${quote(from)} must be made with route(router, pathMap); got ${describeValue(declared)}.`,
        );
      }
      builder = builder.addConditionalEdges(from, declared.router, declared.sends ? Object.keys(declared.paths) : declared.paths);
    }
    return builder.compile(options);
  } as unknown as GraphDefiner<Record<string, unknown>>;
}

/** `defineGraph`'s `defer`: a list of names of its nodes (a name it does not declare would be deferred silently nowhere). */
function deferredNodes(defer: unknown, nodes: object): ReadonlySet<string> {
  if (defer === undefined) return new Set();
  const names = Array.isArray(defer) ? (defer as readonly unknown[]) : undefined;
  const wrong = names === undefined ? defer : names.find((name) => typeof name !== "string" || !Object.hasOwn(nodes, name));
  if (names === undefined || wrong !== undefined) {
    throw invalidArgument(
      `defineGraph: defer lists the nodes that wait until no other node has a task pending, e.g. defer: ["reduce"]; ${quote(wrong)} is not one of its nodes.`,
    );
  }
  return new Set(names as readonly string[]);
}
