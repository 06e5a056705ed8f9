/**
 * Runs a compiled graph on LangGraph.js and reports it in the mini engine's shape: the same
 * `{ state, trace, steps, routes }`, and the same errors (GraphLimitError naming the node not
 * started, GraphExecutionError, InvalidUpdateError), so a caller switches engines without changing
 * a line of its output code.
 */
import { GraphExecutionError, GraphLimitError, InvalidOptionError, InvalidUpdateError, type ExecutionContext, type GraphExecutionCode } from "../errors.js";
import { cloneState, isPlainObject } from "../engine/clone.js";
import { executableOf, type CompiledGraph } from "../engine/compiled-graph.js";
import type { ExecutableGraph } from "../engine/executable.js";
import { ReducerFailure } from "../engine/merge.js";
import { limitMessage, resolveLimits } from "../engine/limits.js";
import { executionError, inputFailure } from "../engine/run-checks.js";
import type { RunResult, Step } from "../engine/run.js";
import { describeValue, messageOf, type RouteTaken, type State } from "../engine/step.js";
import { END, START } from "../spec.js";
import { loadLangGraph, type LangGraphModule } from "./_load.js";
import { RECORDER_KEY, RunRecorder } from "./_recorder.js";
import { LangGraphNodeError } from "./errors.js";
import { toLangGraph, type LangGraphGraph } from "./to-langgraph.js";

/** Options of a run on LangGraph.js: the mini engine's bounds. */
export interface LangGraphRunOptions {
  /** The most node executions the run may start, as on the mini engine. Default 25. */
  readonly maxSteps?: number;
  /** The most supersteps the run may start. Default: 25, or `maxSteps` when larger. */
  readonly recursionLimit?: number;
  /** Aborts the run (LangGraph.js stops it inside the running superstep). */
  readonly signal?: AbortSignal;
}

/**
 * The LangGraph `recursionLimit` that stops a sequential graph where `maxSteps` does. LangGraph counts
 * supersteps (one node each in a sequential graph) and raises after the last allowed one even when
 * the run would end there; `runOnLangGraph` recognises that case and returns the result.
 *
 * @example
 * ```ts
 * langGraphRecursionLimit({ maxSteps: 30 }); // 30
 * ```
 */
export function langGraphRecursionLimit(options: LangGraphRunOptions = {}): number {
  return bounds(options).limit;
}

/**
 * Runs `graph` on LangGraph.js to its end and resolves like `graph.invoke` does on the mini engine.
 *
 * @throws GraphLimitError when the bound is reached (its `node` is the node not started);
 * GraphExecutionError / InvalidUpdateError when a node, router or reducer fails;
 * LangGraphInteropError when the graph cannot be exported or LangGraph.js is not installed.
 * @example
 * ```ts
 * const { state, trace, steps } = await runOnLangGraph(buildReportGraph(), initialReportState(), { maxSteps: 30 });
 * ```
 */
export async function runOnLangGraph<S extends object>(graph: CompiledGraph<S>, input: S, options?: LangGraphRunOptions): Promise<RunResult<S>> {
  const run = new LangGraphRun(graph, input, options);
  const steps: Step<State>[] = [];
  for await (const step of run.steps()) steps.push(step);
  return { state: cloneState(run.state), trace: [...run.trace], steps, routes: [...run.routes], supersteps: run.supersteps } as unknown as RunResult<S>;
}

/**
 * Runs `graph` on LangGraph.js and yields each step as it commits, like `graph.stream` on the mini
 * engine. One LangGraph `stream` call in `["updates", "values"]` mode: a step's `update` is the node's
 * update event, its `state` the values event of its superstep.
 *
 * @example
 * ```ts
 * for await (const step of streamOnLangGraph(graph, input, { maxSteps: 30 })) console.log(step.node, Object.keys(step.update));
 * ```
 */
export function streamOnLangGraph<S extends object>(graph: CompiledGraph<S>, input: S, options?: LangGraphRunOptions): AsyncGenerator<Step<S>> {
  return new LangGraphRun(graph, input, options).steps() as unknown as AsyncGenerator<Step<S>>;
}

const langGraphs = new WeakMap<object, Promise<LangGraphGraph>>();

/** One export per compiled graph: the LangGraph graph keeps no run data, so runs can share it. */
function langGraphOf(graph: CompiledGraph<object>): Promise<LangGraphGraph> {
  let exported = langGraphs.get(graph);
  if (exported === undefined) {
    exported = toLangGraph(graph as CompiledGraph<State>);
    langGraphs.set(graph, exported);
    exported.catch(() => langGraphs.delete(graph));
  }
  return exported;
}

interface Bounds {
  readonly maxSteps: number;
  readonly recursionLimit: number;
  /** The LangGraph recursionLimit: supersteps, one node each in a sequential graph. */
  readonly limit: number;
}

function bounds(options: LangGraphRunOptions): Bounds {
  const { maxSteps, recursionLimit } = resolveLimits(options);
  return { maxSteps, recursionLimit, limit: Math.min(maxSteps, recursionLimit) };
}

interface PendingStep {
  readonly node: string;
  readonly update: State;
}

/**
 * One run. LangGraph emits a node's update when its task finishes, and the merged state only when a
 * superstep changed some channel; so an update waits in `#pending` until its superstep's values event
 * (or, when the node wrote nothing, the next update) shows it committed.
 */
class LangGraphRun {
  #state: State = {};
  #pending: PendingStep[] = [];
  #supersteps = 0;
  readonly trace: string[] = [];
  readonly routes: RouteTaken[] = [];
  readonly #graph: CompiledGraph<object>;
  readonly #executable: ExecutableGraph;
  readonly #input: unknown;
  readonly #options: LangGraphRunOptions;
  readonly #recorder = new RunRecorder();
  /** The route each committed node took, by node, for the node not started after a limit. */
  readonly #lastRoute = new Map<string, RouteTaken>();

  constructor(graph: CompiledGraph<object>, input: unknown, options: LangGraphRunOptions | undefined) {
    this.#graph = graph;
    this.#executable = executableOf(graph);
    this.#input = input;
    this.#options = options ?? {};
  }

  get state(): State {
    return this.#state;
  }

  get supersteps(): number {
    return this.#supersteps;
  }

  async *steps(): AsyncGenerator<Step<State>> {
    const { limit, maxSteps, recursionLimit } = bounds(this.#options);
    const [lg, langGraph] = await Promise.all([loadLangGraph(), langGraphOf(this.#graph)]);
    this.#state = this.#checkInput();
    const { signal } = this.#options;
    try {
      const stream = await langGraph.stream(cloneState(this.#state), {
        streamMode: ["updates", "values"],
        recursionLimit: limit,
        configurable: { [RECORDER_KEY]: this.#recorder },
        ...(signal === undefined ? {} : { signal }),
      });
      for await (const chunk of stream as AsyncIterable<unknown>) {
        const [mode, payload] = chunk as [unknown, unknown];
        if (mode === "values" && isPlainObject(payload)) {
          this.#state = payload;
          yield* this.#commit();
        } else if (mode === "updates" && isPlainObject(payload)) {
          yield* this.#commit(); // the previous superstep wrote nothing, so no values event came for it
          this.#receive(payload);
        }
      }
      yield* this.#commit();
    } catch (error) {
      yield* this.#fail(lg, error, maxSteps <= recursionLimit ? "maxSteps" : "recursionLimit", limit);
    } finally {
      this.#claimRoutes(START);
    }
  }

  #checkInput(): State {
    const failure = inputFailure(this.#executable, this.#input);
    if (failure !== undefined) throw executionError("invoke", failure, this.#context(START));
    return cloneState(this.#input as State);
  }

  /** An update event: held until its superstep is known to have committed. */
  #receive(payload: Record<string, unknown>): void {
    for (const [node, update] of Object.entries(payload)) this.#pending.push({ node, update: isPlainObject(update) ? update : {} });
  }

  /** Commits the held updates (one superstep) against the current state and yields their steps. */
  *#commit(): Generator<Step<State>> {
    if (this.#pending.length === 0) return;
    const committed = this.#pending;
    this.#pending = [];
    this.#supersteps += 1;
    this.#claimRoutes(START);
    for (const { node, update } of committed) {
      this.trace.push(node);
      const route = this.#claimRoutes(node);
      yield { node, update: cloneState(update), state: cloneState(this.#state), ...(route === undefined ? {} : { route: route.key }) };
    }
  }

  /** Moves the routes recorded from `source` into the run's routes; returns the last one. */
  #claimRoutes(source: string): RouteTaken | undefined {
    let last: RouteTaken | undefined;
    for (let route = this.#recorder.takeRoute(source); route !== undefined; route = this.#recorder.takeRoute(source)) {
      this.routes.push(route);
      this.#lastRoute.set(source, route);
      last = route;
    }
    return last;
  }

  /** Turns what LangGraph threw into the error the mini engine raises at the same point. */
  async *#fail(lg: LangGraphModule, error: unknown, bound: "maxSteps" | "recursionLimit", limit: number): AsyncGenerator<Step<State>> {
    if (error instanceof lg.GraphRecursionError) {
      yield* this.#commit();
      const next = this.#nextNode();
      // LangGraph raises after its last allowed superstep even when the run ends there; the mini engine does not.
      if (next === END) return;
      throw new GraphLimitError(limitMessage(bound, limit, next), this.#context(next, error));
    }
    // A node that failed before returning sent no update event, so the held updates are an earlier,
    // committed superstep's. Otherwise the last held update is the failed task's own (LangGraph emits it
    // before running the router) or the one whose merge failed: LangGraph committed none of it.
    const beforeUpdate = this.#recorder.started.length > this.trace.length + this.#pending.length;
    const voided = beforeUpdate ? undefined : this.#pending.pop();
    yield* this.#commit();
    const node = error instanceof LangGraphNodeError ? error.node : (voided?.node ?? this.#recorder.started.at(-1) ?? START);
    if (this.#options.signal?.aborted) {
      throw this.#error("ABORTED", `invoke: the run was aborted before "${node}" completed.`, node, this.#options.signal.reason);
    }
    if (error instanceof LangGraphNodeError) throw this.#error(error.code, `invoke: ${error.message}`, node, error.cause);
    if (error instanceof ReducerFailure) {
      const message = `invoke: the reducer for "${error.field}" threw while merging the update of "${node}"; no field was changed. ${messageOf(error.cause)}`;
      throw this.#error("REDUCER_FAILED", message, node, error.cause);
    }
    throw this.#error("NODE_FAILED", `invoke: LangGraph.js failed at "${node}": ${messageOf(error)}`, node, error);
  }

  /** Where the run goes after its last committed node: a fixed edge, or the route its router took on LangGraph. */
  #nextNode(): string {
    const last = this.trace.at(-1) ?? START;
    const transition = this.#executable.transitions.get(last);
    if (transition?.kind === "edge") return transition.to;
    return this.#lastRoute.get(last)?.to ?? "?";
  }

  #context(node: string, cause?: unknown): ExecutionContext {
    return { node, state: cloneState(this.#state), trace: [...this.trace], ...(cause === undefined ? {} : { cause }) };
  }

  #error(code: GraphExecutionCode, message: string, node: string, cause?: unknown): GraphExecutionError {
    const context = this.#context(node, cause);
    return code === "INVALID_UPDATE" ? new InvalidUpdateError(message, context) : new GraphExecutionError(code, message, context);
  }
}
