import {
  GraphExecutionError,
  GraphLimitError,
  InvalidOptionError,
  InvalidUpdateError,
  type ExecutionContext,
  type GraphExecutionCode,
} from "../errors.js";
import { END, START } from "../spec.js";
import { cloneState, isPlainObject } from "./clone.js";
import type { ExecutableGraph } from "./compiled-graph.js";
import { mergeUpdate, ReducerFailure } from "./merge.js";

/** The default bound on node executions per run (LangGraph's default recursion limit). */
export const DEFAULT_MAX_STEPS = 25;

/** Options for one run. */
export interface RunOptions {
  /** The most node executions this run may start: a positive integer. Default {@link DEFAULT_MAX_STEPS}. */
  readonly maxSteps?: number;
  /** Stops the run between steps; the error keeps the state reached so far. */
  readonly signal?: AbortSignal;
}

/** One completed node execution. Detached: mutating it affects nothing else. */
export interface Step<S> {
  readonly node: string;
  /** The update the node returned (`{}` when it returned nothing). */
  readonly update: Partial<S>;
  /** The state after merging the update. */
  readonly state: S;
}

/** What `invoke` resolves with. */
export interface RunResult<S> {
  readonly state: S;
  /** Completed nodes, in order. */
  readonly trace: string[];
  readonly steps: Step<S>[];
}

type State = Record<string, unknown>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * One run, advanced a step at a time. `invoke` and `stream` both drive it, so they cannot drift apart.
 * The committed state is owned by the run and never handed out: nodes, routers and callers get copies.
 */
class Run {
  #state: State;
  #next: string | undefined;
  readonly #trace: string[] = [];
  readonly #graph: ExecutableGraph;
  readonly #maxSteps: number;
  readonly #signal: AbortSignal | undefined;

  constructor(graph: ExecutableGraph, input: unknown, options: RunOptions | undefined) {
    this.#graph = graph;
    this.#maxSteps = checkMaxSteps(options?.maxSteps);
    this.#signal = checkSignal(options?.signal);
    this.#state = {};
    if (!isPlainObject(input)) {
      throw this.#fail("INVALID_INPUT", START, `invoke: the input state must be a plain object; got ${describe(input)}.`);
    }
    const undeclared = graph.fields ? Object.keys(input).filter((key) => !graph.fields?.has(key)) : [];
    if (undeclared.length > 0) {
      throw this.#fail(
        "INVALID_INPUT",
        START,
        `invoke: the input has fields the graph does not declare: ${undeclared.join(", ")}. Add them to \`fields\` or remove them.`,
      );
    }
    this.#state = cloneState(input);
  }

  get state(): State {
    return cloneState(this.#state);
  }

  get trace(): string[] {
    return [...this.#trace];
  }

  /** Runs the next node; resolves with its step, or `undefined` once the run reached END. */
  async advance(): Promise<Step<State> | undefined> {
    const node = this.#next ?? (await this.#route(START));
    if (node === END) return undefined;
    if (this.#signal?.aborted) {
      throw this.#fail("ABORTED", node, `invoke: the run was aborted before "${node}" started.`, { cause: this.#signal.reason });
    }
    if (this.#trace.length >= this.#maxSteps) {
      throw new GraphLimitError(
        `invoke: the step limit (maxSteps: ${this.#maxSteps}) was reached before "${node}" could start. ` +
          `If the graph loops on purpose, raise maxSteps; otherwise check the route that leads back to "${node}".`,
        this.#context(node),
      );
    }
    const update = await this.#runNode(node);
    try {
      this.#state = mergeUpdate(this.#state, update, this.#graph.reducers);
    } catch (error) {
      const field = error instanceof ReducerFailure ? error.field : "?";
      const cause = error instanceof ReducerFailure ? error.cause : error;
      throw this.#fail(
        "REDUCER_FAILED",
        node,
        `invoke: the reducer for "${field}" threw while merging the update of "${node}"; no field was changed. ${messageOf(cause)}`,
        { cause },
      );
    }
    this.#trace.push(node);
    this.#next = await this.#route(node);
    return { node, update: cloneState(update), state: cloneState(this.#state) };
  }

  async #runNode(node: string): Promise<State> {
    const fn = this.#graph.nodes.get(node) as (state: State) => unknown;
    let output: unknown;
    try {
      output = fn(cloneState(this.#state));
      if (isThenable(output)) output = await output;
    } catch (error) {
      throw this.#fail("NODE_FAILED", node, `invoke: node "${node}" threw: ${messageOf(error)}`, { cause: error });
    }
    return this.#acceptUpdate(node, output);
  }

  #acceptUpdate(node: string, output: unknown): State {
    if (output === undefined) return {};
    if (!isPlainObject(output)) {
      throw new InvalidUpdateError(
        `invoke: node "${node}" returned ${describe(output)}; a node returns a plain object of changed fields, or undefined for no change.`,
        this.#context(node),
      );
    }
    const keys = Object.keys(output);
    const invalid = keys.filter((key) => key === "__proto__" || (this.#graph.fields !== undefined && !this.#graph.fields.has(key)));
    if (invalid.length > 0 || Object.getOwnPropertySymbols(output).length > 0) {
      const named = invalid.length > 0 ? invalid.join(", ") : "symbol keys";
      throw new InvalidUpdateError(
        `invoke: node "${node}" returned fields the state does not declare: ${named}. Return only declared fields (see the \`fields\` option).`,
        this.#context(node),
      );
    }
    // The node may keep a reference to what it returned; the run keeps its own copy.
    return cloneState(output);
  }

  async #route(source: string): Promise<string> {
    const transition = this.#graph.transitions.get(source);
    if (transition === undefined) throw new Error(`invoke: no rule for "${source}" (the graph was not validated)`);
    if (transition.kind === "edge") return transition.to;
    let key: unknown;
    try {
      key = (transition.router as (state: State) => unknown)(cloneState(this.#state));
      if (isThenable(key)) key = await key;
    } catch (error) {
      throw this.#fail("ROUTER_FAILED", source, `invoke: the router after "${source}" threw: ${messageOf(error)}`, { cause: error });
    }
    const destination = typeof key === "string" && Object.hasOwn(transition.paths, key) ? transition.paths[key] : undefined;
    if (destination === undefined) {
      throw this.#fail(
        "UNKNOWN_ROUTE_KEY",
        source,
        `invoke: the router after "${source}" returned ${JSON.stringify(key) ?? String(key)}, which is not a key of its path map ` +
          `(${Object.keys(transition.paths).map((k) => JSON.stringify(k)).join(", ")}). Return a declared key or add it to the path map.`,
      );
    }
    return destination;
  }

  #context(node: string, extra: { cause?: unknown } = {}): ExecutionContext {
    return { node, state: cloneState(this.#state), trace: [...this.#trace], ...extra };
  }

  #fail(code: GraphExecutionCode, node: string, message: string, extra: { cause?: unknown } = {}): GraphExecutionError {
    return new GraphExecutionError(code, message, this.#context(node, extra));
  }
}

function checkMaxSteps(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_STEPS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`invoke: maxSteps must be a positive integer; got ${describe(value)}. Omit it for the default of ${DEFAULT_MAX_STEPS}.`);
  }
  return value;
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidOptionError(`invoke: signal must be an AbortSignal; got ${describe(value)}.`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an instance of ${(value as object).constructor?.name ?? "an unknown class"}`;
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a graph to END. Rejects (never throws synchronously) on bad input, bad options or a failed step. */
export async function invokeRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): Promise<RunResult<State>> {
  const run = new Run(graph, input, options);
  const steps: Step<State>[] = [];
  for (let step = await run.advance(); step !== undefined; step = await run.advance()) steps.push(step);
  return { state: run.state, trace: run.trace, steps };
}

/** Runs a graph, yielding each step as it completes. */
export async function* streamRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): AsyncGenerator<Step<State>> {
  const run = new Run(graph, input, options);
  for (let step = await run.advance(); step !== undefined; step = await run.advance()) yield step;
}
