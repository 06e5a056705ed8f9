import { GraphExecutionError, GraphLimitError, InvalidOptionError, InvalidUpdateError, type ExecutionContext } from "../errors.js";
import { END, START } from "../spec.js";
import { cloneState, isPlainObject } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import {
  chooseNext,
  commitUpdate,
  describeValue,
  isThenable,
  runNode,
  StepFailure,
  type NextNode,
  type RouteTaken,
  type State,
} from "./step.js";

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
  /** The route key the router returned after this node, when its rule is conditional. */
  readonly route?: string;
}

/** What `invoke` resolves with. */
export interface RunResult<S> {
  readonly state: S;
  /** Completed nodes, in order. */
  readonly trace: string[];
  readonly steps: Step<S>[];
  /** Every conditional choice, in order (START's included): what coverage reports read. */
  readonly routes: RouteTaken[];
}

/**
 * One run, advanced a step at a time. `invoke` and `stream` both drive it, so they cannot drift apart.
 * The committed state is owned by the run and never handed out: nodes, routers and callers get copies.
 */
class Run {
  #state: State = {};
  #next: NextNode | undefined;
  readonly #trace: string[] = [];
  readonly #routes: RouteTaken[] = [];
  readonly #graph: ExecutableGraph;
  readonly #maxSteps: number;
  readonly #signal: AbortSignal | undefined;

  constructor(graph: ExecutableGraph, input: unknown, options: RunOptions | undefined) {
    this.#graph = graph;
    this.#maxSteps = checkMaxSteps(options?.maxSteps);
    this.#signal = checkSignal(options?.signal);
    if (!isPlainObject(input)) {
      throw this.#error(new StepFailure("INVALID_INPUT", `the input state must be a plain object; got ${describeValue(input)}.`), START);
    }
    const undeclared = graph.fields ? Object.keys(input).filter((key) => !graph.fields?.has(key)) : [];
    if (undeclared.length > 0) {
      const message = `the input has fields the graph does not declare: ${undeclared.join(", ")}. Add them to \`fields\` or remove them.`;
      throw this.#error(new StepFailure("INVALID_INPUT", message), START);
    }
    this.#state = cloneState(input);
  }

  get state(): State {
    return cloneState(this.#state);
  }

  get trace(): string[] {
    return [...this.#trace];
  }

  get routes(): RouteTaken[] {
    return [...this.#routes];
  }

  /** Runs the next node; resolves with its step, or `undefined` once the run reached END. */
  async advance(): Promise<Step<State> | undefined> {
    const node = (this.#next ??= await this.#chooseNext(START)).to;
    if (node === END) return undefined;
    if (this.#signal?.aborted) {
      const failure = new StepFailure("ABORTED", `the run was aborted before "${node}" started.`, { cause: this.#signal.reason });
      throw this.#error(failure, node);
    }
    if (this.#trace.length >= this.#maxSteps) {
      throw new GraphLimitError(
        `invoke: the step limit (maxSteps: ${this.#maxSteps}) was reached before "${node}" could start. ` +
          `If the graph loops on purpose, raise maxSteps; otherwise check the route that leads back to "${node}".`,
        this.#context(node),
      );
    }
    let update: State;
    try {
      const pending = runNode(this.#graph, node, this.#state);
      update = isThenable(pending) ? await pending : pending;
      this.#state = commitUpdate(this.#graph, node, this.#state, update);
    } catch (error) {
      throw this.#error(error, node);
    }
    this.#trace.push(node);
    this.#next = await this.#chooseNext(node);
    return detachedStep(node, update, this.#state, this.#next.route?.key);
  }

  async #chooseNext(source: string): Promise<NextNode> {
    try {
      const pending = chooseNext(this.#graph, source, this.#state);
      const next = isThenable(pending) ? await pending : pending;
      if (next.route) this.#routes.push(next.route);
      return next;
    } catch (error) {
      throw this.#error(error, source);
    }
  }

  #context(node: string, cause?: { cause: unknown }): ExecutionContext {
    return { node, state: cloneState(this.#state), trace: [...this.#trace], ...cause };
  }

  #error(error: unknown, node: string): GraphExecutionError {
    if (!(error instanceof StepFailure)) return new GraphExecutionError("NODE_FAILED", `invoke: ${String(error)}`, this.#context(node, { cause: error }));
    const cause = "cause" in error ? { cause: error.cause } : undefined;
    const context = this.#context(node, cause);
    const message = `invoke: ${error.message}`;
    return error.code === "INVALID_UPDATE" ? new InvalidUpdateError(message, context) : new GraphExecutionError(error.code, message, context);
  }
}

/**
 * A step whose `update` and `state` are copied on first read. The run never mutates a committed
 * state (merging builds a new one), so copying later gives the same detached value as copying now,
 * and a caller who reads only the final state pays for no per-step snapshot.
 */
function detachedStep(node: string, committedUpdate: State, committedState: State, route: string | undefined): Step<State> {
  let update: State | undefined;
  let state: State | undefined;
  return {
    node,
    get update() {
      return (update ??= cloneState(committedUpdate));
    },
    set update(value: State) {
      update = value;
    },
    get state() {
      return (state ??= cloneState(committedState));
    },
    set state(value: State) {
      state = value;
    },
    ...(route === undefined ? {} : { route }),
  };
}

function checkMaxSteps(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_STEPS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`invoke: maxSteps must be a positive integer; got ${describeValue(value)}. Omit it for the default of ${DEFAULT_MAX_STEPS}.`);
  }
  return value;
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidOptionError(`invoke: signal must be an AbortSignal; got ${describeValue(value)}.`);
}

/** Runs a graph to END. Rejects (never throws synchronously) on bad input, bad options or a failed step. */
export async function invokeRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): Promise<RunResult<State>> {
  const run = new Run(graph, input, options);
  const steps: Step<State>[] = [];
  for (let step = await run.advance(); step !== undefined; step = await run.advance()) steps.push(step);
  return { state: run.state, trace: run.trace, steps, routes: run.routes };
}

/** Runs a graph, yielding each step as it completes. */
export async function* streamRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): AsyncGenerator<Step<State>> {
  const run = new Run(graph, input, options);
  for (let step = await run.advance(); step !== undefined; step = await run.advance()) yield step;
}
