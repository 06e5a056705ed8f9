import { GraphValidationError, type GraphProblem } from "../errors.js";
import type { GraphSpec } from "../spec.js";
import { START } from "../spec.js";
import { validateTopology } from "../validate/topology.js";
import type { ExecutableGraph, GraphDefinition, NodeFunction, RouterFunction, Transition } from "./executable.js";
import type { Reducer } from "./reducers.js";
import { subgraphSpecOf } from "./subgraph-specs.js";
import { orderWarnings, type GraphWarning } from "./warnings.js";
import {
  invokeRun,
  streamRun,
  type RunOptions,
  type RunResult,
  type Step,
  type StreamMode,
  type StreamOptions,
  type SuperstepValues,
} from "./run.js";

/** What `stream` yields with a list of modes. */
export type StreamChunk<S> = readonly ["updates", Step<S>] | readonly ["values", SuperstepValues<S>];

/**
 * A validated, frozen graph: run it with {@link CompiledGraph.invoke} or {@link CompiledGraph.stream},
 * or hand its {@link CompiledGraph.spec} to an exporter. It shares nothing between runs.
 *
 * @example
 * ```ts
 * const { state, trace } = await graph.invoke({ n: 0 });
 * for await (const step of graph.stream({ n: 0 })) console.log(step.node, step.update);
 * ```
 */
export class CompiledGraph<S extends object = Record<string, unknown>> {
  /** The plain-data description of the graph (JSON-serializable, frozen). */
  readonly spec: GraphSpec;
  /** Non-fatal findings of `compile()`, such as order-dependent parallel merges. */
  readonly warnings: readonly GraphWarning[];
  readonly #executable: ExecutableGraph;

  /** @internal Use `StateGraph.compile()` (or `compileGraph`) rather than this constructor. */
  constructor(spec: GraphSpec, executable: ExecutableGraph, warnings: readonly GraphWarning[] = []) {
    this.spec = spec;
    this.warnings = warnings;
    this.#executable = executable;
    executables.set(this, executable);
  }

  /**
   * Runs the graph to END and resolves with the final state, the trace and every step.
   * It never throws synchronously: bad input or options reject the Promise.
   *
   * @example
   * ```ts
   * const { state, trace, steps } = await graph.invoke(initial, { maxSteps: 30 });
   * ```
   */
  invoke(input: S, options?: RunOptions): Promise<RunResult<S>> {
    return invokeRun(this.#executable, input, options) as Promise<RunResult<S>>;
  }

  /**
   * Runs the graph and yields each step as it completes. Each call is a new run: calling `invoke`
   * after `stream` runs the graph a second time. `streamMode: "values"` yields the merged state once
   * per superstep instead; a list of modes yields `[mode, payload]` pairs, from the same single run.
   *
   * @example
   * ```ts
   * for await (const step of graph.stream(initial)) console.log(`${step.node} updated:`, Object.keys(step.update));
   * ```
   */
  stream(input: S, options?: StreamOptions<"updates">): AsyncIterable<Step<S>>;
  stream(input: S, options: StreamOptions<"values">): AsyncIterable<SuperstepValues<S>>;
  stream(input: S, options: StreamOptions<readonly StreamMode[]>): AsyncIterable<StreamChunk<S>>;
  stream(input: S, options?: StreamOptions<StreamMode | readonly StreamMode[]>): AsyncIterable<unknown> {
    return streamRun(this.#executable, input, options);
  }
}

const executables = new WeakMap<object, ExecutableGraph>();

/**
 * The frozen tables behind a compiled graph: its node functions, transitions (with routers) and
 * reducers. For this package's own runners and exporters (XState, LangGraph), which must run a node
 * exactly as the engine does; not part of the public API.
 */
export function executableOf<S extends object>(graph: CompiledGraph<S>): ExecutableGraph {
  const executable = executables.get(graph);
  if (executable === undefined) {
    throw new TypeError("executableOf: expected a graph returned by StateGraph.compile() or compileGraph().");
  }
  return executable;
}

/**
 * Validates a definition and builds its compiled graph. Throws {@link GraphValidationError}
 * listing every problem. The builder's `compile()` calls this; so can code that builds graphs from data.
 *
 * @example
 * ```ts
 * const graph = compileGraph({ spec, nodes: { inc: (s) => ({ n: s.n + 1 }) }, routers: {}, reducers: {} });
 * ```
 */
export function compileGraph<S extends object = Record<string, unknown>>(definition: GraphDefinition): CompiledGraph<S> {
  const problems: GraphProblem[] = validateTopology(definition.spec);
  problems.push(...missingImplementations(definition));
  if (problems.length > 0) throw new GraphValidationError(problems);
  return new CompiledGraph<S>(freezeSpec(withSubgraphs(definition)), buildExecutable(definition), orderWarnings(definition));
}

function missingImplementations(definition: GraphDefinition): GraphProblem[] {
  const problems: GraphProblem[] = [];
  for (const node of definition.spec.nodes) {
    if (!Object.hasOwn(definition.nodes, node) || typeof definition.nodes[node] !== "function") {
      problems.push({ code: "UNKNOWN_NODE", node, message: `Node "${node}" has no function. Pass a function (state) => update.` });
    }
  }
  for (const route of definition.spec.routes) {
    if (!Object.hasOwn(definition.routers, route.from) || typeof definition.routers[route.from] !== "function") {
      problems.push({
        code: "UNKNOWN_NODE",
        node: route.from,
        message: `The route from "${route.from}" has no router function. Pass a function (state) => routeKey.`,
      });
    }
  }
  return problems;
}

function buildExecutable(definition: GraphDefinition): ExecutableGraph {
  const { spec } = definition;
  const transitions = new Map<string, Transition>();
  for (const edge of spec.edges) transitions.set(edge.from, { kind: "edge", to: edge.to });
  for (const fanOut of spec.fanOuts ?? []) transitions.set(fanOut.from, { kind: "fanOut", to: Object.freeze([...fanOut.to]) });
  const joins = (spec.joins ?? []).map((join, index) => {
    for (const from of join.from) transitions.set(from, { kind: "join", join: index });
    return { sources: new Set(join.from), to: join.to };
  });
  for (const route of spec.routes) {
    const router = definition.routers[route.from] as RouterFunction<never>;
    transitions.set(route.from, { kind: "route", router, paths: Object.freeze({ ...route.paths }) });
  }
  const nodes = new Map<string, NodeFunction<unknown>>();
  for (const name of spec.nodes) nodes.set(name, definition.nodes[name] as NodeFunction<unknown>);
  const reducers = new Map<string, Reducer<unknown>>();
  for (const { field } of spec.reducers) reducers.set(field, definition.reducers[field] as Reducer<unknown>);
  const order = new Map(spec.nodes.map((name, index) => [name, index]));
  return { nodes, transitions, joins, order, reducers, fields: spec.fields ? new Set(spec.fields) : undefined };
}

/** The spec, with `subgraphs` recorded for every node that runs a compiled graph. */
function withSubgraphs(definition: GraphDefinition): GraphSpec {
  const subgraphs = Object.fromEntries(
    definition.spec.nodes.flatMap((node) => {
      const child = subgraphSpecOf(definition.nodes[node]);
      return child === undefined ? [] : [[node, child]];
    }),
  );
  return Object.keys(subgraphs).length > 0 ? { ...definition.spec, subgraphs } : definition.spec;
}

function freezeSpec(spec: GraphSpec): GraphSpec {
  const frozen: GraphSpec = {
    nodes: Object.freeze([...spec.nodes]),
    edges: Object.freeze(spec.edges.map((e) => Object.freeze({ from: e.from, to: e.to }))),
    routes: Object.freeze(
      spec.routes.map((r) =>
        Object.freeze({ from: r.from, router: r.router, paths: Object.freeze({ ...r.paths }), ...(r.sends ? { sends: true as const } : {}) }),
      ),
    ),
    ...(spec.fanOuts?.length ? { fanOuts: Object.freeze(spec.fanOuts.map((f) => Object.freeze({ from: f.from, to: Object.freeze([...f.to]) }))) } : {}),
    ...(spec.joins?.length ? { joins: Object.freeze(spec.joins.map((j) => Object.freeze({ from: Object.freeze([...j.from]), to: j.to }))) } : {}),
    reducers: Object.freeze(spec.reducers.map((r) => Object.freeze({ field: r.field, reducer: r.reducer }))),
    ...(spec.fields ? { fields: Object.freeze([...spec.fields]) } : {}),
    // A child's spec is already frozen: it comes from its own compiled graph.
    ...(spec.subgraphs ? { subgraphs: Object.freeze({ ...spec.subgraphs }) } : {}),
  };
  return Object.freeze(frozen);
}

export type { ExecutableGraph, GraphDefinition, NodeFunction, RouterFunction, Transition } from "./executable.js";
