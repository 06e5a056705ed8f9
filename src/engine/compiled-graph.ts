import { describeValue, quote } from "../_describe.js";
import { GraphValidationError, invalidArgument, InvalidOptionError, type GraphProblem } from "../errors.js";
import { checkCompileOptions } from "../validate/compile-options.js";
import type { GraphSpec } from "../spec.js";
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
import type { Checkpoint, Checkpointer } from "./threads/checkpointer.js";
import {
  getThreadHistory,
  getThreadState,
  invokeThread,
  isThreadRun,
  updateThreadState,
  type ThreadReadOptions,
  type ThreadRunOptions,
  type ThreadRunResult,
  type ThreadSettings,
  type UpdateStateOptions,
} from "./threads/threads.js";

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
  readonly #threads: ThreadSettings;

  /** @internal Use `StateGraph.compile()` (or `compileGraph`) rather than this constructor. */
  constructor(spec: GraphSpec, executable: ExecutableGraph, warnings: readonly GraphWarning[] = [], threads: ThreadSettings = noThreadSettings) {
    this.spec = spec;
    this.warnings = warnings;
    this.#executable = executable;
    this.#threads = threads;
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
  invoke(input: S | null, options: ThreadRunOptions): Promise<ThreadRunResult<S>>;
  invoke(input: S, options?: RunOptions): Promise<RunResult<S>>;
  invoke(input: S | null, options?: RunOptions | ThreadRunOptions): Promise<RunResult<S>> {
    if (isThreadRun(options)) return invokeThread(this.#executable, this.#threads, input, options) as Promise<ThreadRunResult<S>>;
    if (this.#threads !== noThreadSettings) return Promise.reject(this.#threadRequired());
    return invokeRun(this.#executable, input, options) as Promise<RunResult<S>>;
  }

  /**
   * The thread's latest checkpoint (or the one named by `checkpointId`): its `state` and the `next`
   * nodes. `undefined` for a thread with no checkpoint.
   *
   * @example
   * ```ts
   * const { state, next } = (await graph.getState("order-42", { checkpointer }))!; // next: ["publish"]
   * ```
   */
  getState(threadId: string, options?: ThreadReadOptions & { readonly checkpointId?: string }): Promise<Checkpoint<S> | undefined> {
    return getThreadState(this.#threads, threadId, options) as Promise<Checkpoint<S> | undefined>;
  }

  /**
   * Applies `update` to the thread through the reducers, as if `asNode` had returned it, and records it
   * as a new checkpoint; resuming continues from there. With `asNode`, what runs next is what follows it.
   *
   * @example
   * ```ts
   * await graph.updateState("order-42", { draft: edited, review: null }, { asNode: "revise_draft", checkpointer });
   * await graph.invoke(null, { threadId: "order-42", checkpointer }); // check_draft runs next
   * ```
   */
  updateState(threadId: string, update: Partial<S>, options?: UpdateStateOptions): Promise<Checkpoint<S>> {
    return updateThreadState(this.#executable, this.#threads, threadId, update, options) as Promise<Checkpoint<S>>;
  }

  /**
   * The thread's checkpoints, newest first, every branch included (`parentId` links them).
   *
   * @example
   * ```ts
   * const [latest, ...older] = await graph.getStateHistory("order-42", { checkpointer });
   * await graph.invoke(null, { threadId: "order-42", checkpointer, checkpointId: older[2]!.id }); // a new branch
   * ```
   */
  getStateHistory(threadId: string, options?: ThreadReadOptions & { readonly limit?: number }): Promise<Checkpoint<S>[]> {
    return getThreadHistory(this.#threads, threadId, options) as Promise<Checkpoint<S>[]>;
  }

  #threadRequired(): InvalidOptionError {
    const { interruptBefore, interruptAfter } = this.#threads;
    const interrupts = [...interruptBefore, ...interruptAfter];
    const why = interrupts.length > 0 ? `it pauses at interrupts (${interrupts.join(", ")})` : "it was compiled with a checkpointer";
    return new InvalidOptionError(`invoke: this graph runs on threads, because ${why}; pass { threadId } (and a checkpointer) so the run can be saved and resumed.`);
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

const noThreadSettings: ThreadSettings = { interruptBefore: new Set(), interruptAfter: new Set() };

/** What `compile()` fixes for threaded runs. */
export interface ThreadCompileOptions {
  /** Pause before these nodes start (a threaded run only). */
  readonly interruptBefore?: readonly string[];
  /** Pause after these nodes ran (a threaded run only). */
  readonly interruptAfter?: readonly string[];
  /** The checkpointer of threaded runs that pass none. */
  readonly checkpointer?: Checkpointer;
}

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
export function compileGraph<S extends object = Record<string, unknown>>(definition: GraphDefinition, options: ThreadCompileOptions = {}): CompiledGraph<S> {
  checkCompileOptions(options, "compileGraph");
  checkDefinition(definition);
  const problems: GraphProblem[] = validateTopology(definition.spec);
  // A spec that is not spec-shaped (edges missing, say) cannot be checked any further.
  if (problems.some((p) => p.code === "INVALID_SPEC")) throw new GraphValidationError(problems, "compileGraph");
  problems.push(...missingImplementations(definition), ...unknownInterrupts(definition, options));
  if (problems.length > 0) throw new GraphValidationError(problems);
  return new CompiledGraph<S>(freezeSpec(withSubgraphs(definition)), buildExecutable(definition), orderWarnings(definition), threadSettings(options));
}

function checkDefinition(definition: unknown): void {
  const isTable = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
  const tables = isTable(definition) ? (["spec", "nodes", "routers", "reducers"] as const).filter((name) => !isTable((definition as Record<string, unknown>)[name])) : ["definition"];
  if (tables.length > 0) {
    throw invalidArgument(`compileGraph: expected { spec, nodes, routers, reducers }, each an object; ${tables.join(", ")} ${tables.length === 1 ? "is" : "are"} not. Got ${describeValue(definition)}.`);
  }
}

function unknownInterrupts(definition: GraphDefinition, options: ThreadCompileOptions): GraphProblem[] {
  const nodes = new Set(definition.spec.nodes);
  return (["interruptBefore", "interruptAfter"] as const).flatMap((option) =>
    (options[option] ?? [])
      .filter((node) => !nodes.has(node))
      .map((node): GraphProblem => ({ code: "UNKNOWN_NODE", node: String(node), message: `${option} names ${quote(node)}, which is not a node. Name declared nodes only.` })),
  );
}

function threadSettings(options: ThreadCompileOptions): ThreadSettings {
  const { interruptBefore = [], interruptAfter = [], checkpointer } = options;
  if (interruptBefore.length === 0 && interruptAfter.length === 0 && checkpointer === undefined) return noThreadSettings;
  return { interruptBefore: new Set(interruptBefore), interruptAfter: new Set(interruptAfter), ...(checkpointer === undefined ? {} : { checkpointer }) };
}

function missingImplementations(definition: GraphDefinition): GraphProblem[] {
  const problems: GraphProblem[] = [];
  for (const node of definition.spec.nodes) {
    if (!Object.hasOwn(definition.nodes, node) || typeof definition.nodes[node] !== "function") {
      problems.push({ code: "MISSING_IMPLEMENTATION", node, message: `Node ${quote(node)} has no function. Pass a function (state) => update.` });
    }
  }
  for (const route of definition.spec.routes) {
    if (!Object.hasOwn(definition.routers, route.from) || typeof definition.routers[route.from] !== "function") {
      problems.push({
        code: "MISSING_IMPLEMENTATION",
        node: route.from,
        message: `The route from ${quote(route.from)} has no router function. Pass a function (state) => routeKey.`,
      });
    }
  }
  for (const { field } of definition.spec.reducers ?? []) {
    if (!Object.hasOwn(definition.reducers, field) || typeof definition.reducers[field] !== "function") {
      problems.push({ code: "MISSING_IMPLEMENTATION", node: field, message: `The reducer of ${quote(field)} has no function. Pass a function (current, update) => next.` });
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
