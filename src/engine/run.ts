/**
 * The scheduler: BSP supersteps. In each superstep every active node reads (a copy of) the same
 * committed state; their updates merge in declaration order only after all of them finished; then the
 * next active set is computed from the merged state. A sequential graph is the special case of one
 * node per superstep.
 */
import { type GraphExecutionError, GraphLimitError, InvalidOptionError, type ExecutionContext } from "../errors.js";
import { END, START } from "../spec.js";
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import { limitMessage, resolveLimits } from "./limits.js";
import { checkSignal, executionError, inputFailure } from "./run-checks.js";
import {
  commitUpdate,
  isThenable,
  parallelWriteFailure,
  runNode,
  StepFailure,
  successorsOf,
  type RouteTaken,
  type State,
  type Successors,
  type Task,
} from "./step.js";

export { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "./limits.js";

/** What `stream` yields: per-node steps (`"updates"`), the merged state per superstep (`"values"`), or both. */
export type StreamMode = "updates" | "values";

/** Options for one run. */
export interface RunOptions {
  /** The most node executions this run may start: a positive integer. Default {@link DEFAULT_MAX_STEPS}. */
  readonly maxSteps?: number;
  /**
   * The most supersteps this run may start: a positive integer. Default {@link DEFAULT_RECURSION_LIMIT},
   * or `maxSteps` when that is larger, so a sequential graph stops exactly where `maxSteps` says.
   */
  readonly recursionLimit?: number;
  /** Stops the run between supersteps; the error keeps the state reached so far. */
  readonly signal?: AbortSignal;
}

/** Options for `stream`. */
export interface StreamOptions<M extends StreamMode | readonly StreamMode[] = "updates"> extends RunOptions {
  /** `"updates"` (the default) yields each node's step; `"values"` the merged state per superstep; a list yields `[mode, payload]` pairs. */
  readonly streamMode?: M;
}

/** One completed node execution. Detached: mutating it affects nothing else. */
export interface Step<S> {
  readonly node: string;
  /** The update the node returned (`{}` when it returned nothing). */
  readonly update: Partial<S>;
  /** The state after its superstep merged (for a sequential graph: after this node's update). */
  readonly state: S;
  /** The route key the router returned after this node: a list when it returned several keys or Sends. */
  readonly route?: string | readonly string[];
}

/** The merged state after one superstep (`streamMode: "values"`). */
export interface SuperstepValues<S> {
  /** 1 for the first superstep. */
  readonly superstep: number;
  /** The nodes that ran in it, in declaration order. */
  readonly nodes: readonly string[];
  readonly state: S;
}

/** What `invoke` resolves with. */
export interface RunResult<S> {
  readonly state: S;
  /** Completed nodes, in order (superstep by superstep, declaration order within one). */
  readonly trace: string[];
  readonly steps: Step<S>[];
  /** Every conditional choice, in order (START's included): what coverage reports read. */
  readonly routes: RouteTaken[];
  /** How many supersteps ran. */
  readonly supersteps: number;
}

/**
 * Everything a run needs to continue exactly where it stopped: what a checkpoint stores. `state` is
 * the committed state itself, not a copy: serialize it before the next superstep.
 */
export interface RunSnapshot {
  readonly state: State;
  /** The tasks of the next superstep (Sends keep their input); empty once the run reached END. */
  readonly tasks: readonly Task[];
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
  readonly supersteps: number;
  /** For each join, in declaration order: the sources that arrived since it last fired. */
  readonly joins: readonly (readonly string[])[];
}

/**
 * One run, advanced a superstep at a time. `invoke` and `stream` both drive it, so they cannot drift
 * apart. The committed state is owned by the run and never handed out: nodes, routers and callers get copies.
 * @internal Exported for the persistence layer, which drives it between checkpoints.
 */
export class Run {
  #state: State = {};
  #active: readonly Task[] | undefined;
  #supersteps = 0;
  readonly #trace: string[] = [];
  readonly #routes: RouteTaken[] = [];
  readonly #arrived: Set<string>[];
  readonly #graph: ExecutableGraph;
  readonly #maxSteps: number;
  readonly #recursionLimit: number;
  readonly #signal: AbortSignal | undefined;

  constructor(graph: ExecutableGraph, input: unknown, options: RunOptions | undefined) {
    this.#graph = graph;
    ({ maxSteps: this.#maxSteps, recursionLimit: this.#recursionLimit } = resolveLimits(options));
    this.#signal = checkSignal(options?.signal);
    this.#arrived = graph.joins.map(() => new Set<string>());
    const failure = inputFailure(graph, input);
    if (failure !== undefined) throw this.#error(failure, START);
    this.#state = cloneState(input as State);
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

  get supersteps(): number {
    return this.#supersteps;
  }

  /** The tasks of the next superstep, or `undefined` before START's successors were computed. */
  get pending(): readonly Task[] | undefined {
    return this.#active;
  }

  /** A run that continues from a snapshot: nothing it committed runs again. */
  static restore(graph: ExecutableGraph, snapshot: RunSnapshot, options: RunOptions | undefined): Run {
    const run = new Run(graph, snapshot.state, options);
    run.#active = snapshot.tasks.map((task) => ({ ...task }));
    run.#trace.push(...snapshot.trace);
    run.#routes.push(...snapshot.routes);
    run.#supersteps = snapshot.supersteps;
    snapshot.joins.forEach((sources, index) => sources.forEach((source) => run.#arrived[index]?.add(source)));
    return run;
  }

  /** Computes START's successors, so the first snapshot can name the first tasks. */
  async begin(): Promise<void> {
    this.#active ??= (await this.#activate([START])).tasks;
  }

  /** What a checkpoint stores; see {@link RunSnapshot}. */
  snapshot(): RunSnapshot {
    return {
      state: this.#state,
      tasks: this.#active ?? [],
      trace: [...this.#trace],
      routes: [...this.#routes],
      supersteps: this.#supersteps,
      joins: this.#arrived.map((sources) => [...sources]),
    };
  }

  /**
   * Merges `update` through the reducers as if `asNode` had returned it, then activates what follows
   * `asNode` (its router reads the merged state). Without `asNode` the next tasks stay as they were.
   */
  async commitAs(asNode: string | undefined, update: State): Promise<void> {
    this.#state = this.#merge([{ node: asNode ?? "updateState", sent: false }], [update]);
    if (asNode !== undefined) this.#active = (await this.#activate([asNode])).tasks;
  }

  /** Runs the next superstep; resolves with its steps, or `undefined` once no node is active. */
  async superstep(): Promise<Step<State>[] | undefined> {
    const records = await this.superstepRecords();
    return records?.map((r) => detachedStep(r.node, r.update, r.state, r.route));
  }

  /**
   * {@link superstep}, returning the committed values themselves rather than step objects: for `invoke`,
   * which copies them only if its caller reads `steps`.
   */
  superstepRecords(): MaybePromise<StepRecord[] | undefined> {
    // Synchronous nodes and routers run a whole superstep without awaiting: `invoke` then pays for no
    // microtask per step. Anything async switches to promises from that point on.
    if (this.#active !== undefined) return this.#runSuperstep(this.#active);
    return then(this.#activate([START]), ({ tasks }) => {
      this.#active = tasks;
      return this.#runSuperstep(tasks);
    });
  }

  #runSuperstep(active: readonly Task[]): MaybePromise<StepRecord[] | undefined> {
    if (active.length === 0) {
      this.#checkNoJoinWaiting();
      return undefined;
    }
    this.#checkBeforeStarting(active);
    return then(this.#runAll(active), (updates) => {
      this.#state = this.#merge(active, updates);
      for (const task of active) this.#trace.push(task.node);
      this.#supersteps += 1;
      return then(this.#activate(active.map((task) => task.node)), ({ tasks, keys }) => {
        this.#active = tasks;
        const state = this.#state;
        return active.map((task, index) => ({ node: task.node, update: updates[index] as State, state, route: keys[index] }));
      });
    });
  }

  /**
   * A run that ends with a join still waiting took a branch that never reaches the join: the join's node
   * never ran, and ending "successfully" would hide it (the silent end LangGraph gives).
   */
  #checkNoJoinWaiting(): void {
    for (const [index, arrived] of this.#arrived.entries()) {
      const join = this.#graph.joins[index];
      if (join === undefined || arrived.size === 0) continue;
      const missing = [...join.sources].filter((source) => !arrived.has(source));
      const failure = new StepFailure(
        "JOIN_INCOMPLETE",
        `the run ended with the join into "${join.to}" still waiting for ${missing.map((n) => `"${n}"`).join(", ")} ` +
          `(${[...arrived].map((n) => `"${n}"`).join(", ")} ran). A route took a branch that never reaches the join: ` +
          `route every branch to it, or join fewer sources.`,
      );
      throw this.#error(failure, join.to);
    }
  }

  #checkBeforeStarting(active: readonly Task[]): void {
    const first = (active[0] as Task).node;
    if (this.#signal?.aborted) {
      throw this.#error(new StepFailure("ABORTED", `the run was aborted before "${first}" started.`, { cause: this.#signal.reason }), first);
    }
    // maxSteps first: in a sequential graph both limits fall on the same superstep, and maxSteps is the one the caller set.
    const room = this.#maxSteps - this.#trace.length;
    if (active.length > room) {
      const node = (active[room] as Task).node;
      throw new GraphLimitError(limitMessage("maxSteps", this.#maxSteps, node), this.#context(node));
    }
    if (this.#supersteps >= this.#recursionLimit) {
      throw new GraphLimitError(limitMessage("recursionLimit", this.#recursionLimit, first), this.#context(first));
    }
  }

  /** Runs every active node on its own copy of the same committed state. */
  #runAll(active: readonly Task[]): MaybePromise<State[]> {
    if (active.length === 1) {
      const task = active[0] as Task;
      let pending: MaybePromise<State>;
      try {
        pending = runNode(this.#graph, task.node, this.#state, task);
      } catch (error) {
        throw this.#error(error, task.node);
      }
      if (!isThenable(pending)) return [pending];
      return pending.then(
        (update) => [update],
        (error: unknown) => {
          throw this.#error(error, task.node);
        },
      );
    }
    return Promise.allSettled(active.map(async (task) => runNode(this.#graph, task.node, this.#state, task))).then((settled) => {
      // Report the first failure in declaration order, whatever order the nodes failed in.
      const failed = settled.findIndex((result) => result.status === "rejected");
      if (failed >= 0) throw this.#error((settled[failed] as PromiseRejectedResult).reason, (active[failed] as Task).node);
      return settled.map((result) => (result as PromiseFulfilledResult<State>).value);
    });
  }

  /** Merges a superstep's updates in declaration order; nothing is committed unless all of them merge. */
  #merge(active: readonly Task[], updates: readonly State[]): State {
    let next = this.#state;
    const writers = new Map<string, string>();
    for (const [index, task] of active.entries()) {
      const update = updates[index] as State;
      if (active.length > 1) this.#checkParallelWrites(task.node, update, writers);
      try {
        next = commitUpdate(this.#graph, task.node, next, update);
      } catch (error) {
        throw this.#error(error, task.node);
      }
    }
    return next;
  }

  #checkParallelWrites(node: string, update: State, writers: Map<string, string>): void {
    const failure = parallelWriteFailure(this.#graph, node, update, writers);
    if (failure !== undefined) throw this.#error(failure, node);
  }


  /**
   * The next active set: every source's successors, joins that completed, END dropped, de-duplicated, in
   * declaration order. `keys[i]` is the route key(s) `sources[i]` took: per task, since Sends can run one
   * node several times in a superstep, each routing its own way.
   */
  #activate(sources: readonly string[]): MaybePromise<Activation> {
    const tasks: Task[] = [];
    const keys: (string | string[] | undefined)[] = [];
    const take = (successors: Successors): void => {
      tasks.push(...successors.tasks);
      this.#routes.push(...successors.routes);
      const taken = successors.routes.map((route) => route.key);
      keys.push(successors.routes.length > 0 || successors.list ? (successors.list ? taken : (taken[0] as string)) : undefined);
    };
    // Routers run one after another, in declaration order; an async one continues the rest once it settles.
    const from = (start: number): MaybePromise<Activation> => {
      for (let index = start; index < sources.length; index++) {
        const source = sources[index] as string;
        const transition = this.#graph.transitions.get(source);
        if (transition?.kind === "join") {
          keys.push(undefined);
          this.#arrive(transition.join, source, tasks);
          continue;
        }
        let pending: MaybePromise<Successors>;
        try {
          pending = successorsOf(this.#graph, source, this.#state);
        } catch (error) {
          throw this.#error(error, source);
        }
        if (isThenable(pending)) {
          return pending.then(
            (successors) => {
              take(successors);
              return from(index + 1);
            },
            (error: unknown) => {
              throw this.#error(error, source);
            },
          );
        }
        take(pending);
      }
      return { tasks: this.#schedule(tasks), keys };
    };
    return from(0);
  }

  /** A join source ran: the join's target is activated once every source has. */
  #arrive(joinIndex: number, source: string, tasks: Task[]): void {
    const join = this.#graph.joins[joinIndex];
    const arrived = this.#arrived[joinIndex];
    if (join === undefined || arrived === undefined) return;
    arrived.add(source);
    if (arrived.size === join.sources.size) {
      arrived.clear();
      tasks.push({ node: join.to, sent: false });
    }
  }


  #schedule(tasks: readonly Task[]): Task[] {
    if (tasks.length === 1) return tasks[0]?.node === END ? [] : [...tasks];
    const seen = new Set<string>();
    const scheduled = tasks.filter((task) => {
      if (task.node === END) return false;
      if (task.sent) return true;
      if (seen.has(task.node)) return false;
      seen.add(task.node);
      return true;
    });
    const order = this.#graph.order;
    // Array.prototype.sort is stable: Sends to one node keep the order the router returned them in.
    return scheduled.sort((a, b) => (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0));
  }

  #context(node: string, cause?: { cause: unknown }): ExecutionContext {
    return { node, state: cloneState(this.#state), trace: [...this.#trace], ...cause };
  }

  #error(error: unknown, node: string): GraphExecutionError {
    return executionError("invoke", error, this.#context(node));
  }

}

/**
 * A step whose `update` and `state` are copied on first read. The run never mutates a committed
 * state (merging builds a new one), so copying later gives the same detached value as copying now,
 * and a caller who reads only the final state pays for no per-step snapshot.
 */
function detachedStep(node: string, committedUpdate: State, committedState: State, route: string | string[] | undefined): Step<State> {
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
    ...(route === undefined ? {} : { route: typeof route === "string" ? route : [...route] }),
  };
}

function checkStreamMode(value: unknown): { updates: boolean; values: boolean; tagged: boolean } {
  if (value === undefined || value === "updates") return { updates: true, values: false, tagged: false };
  if (value === "values") return { updates: false, values: true, tagged: false };
  if (Array.isArray(value) && value.length > 0 && value.every((mode) => mode === "updates" || mode === "values")) {
    return { updates: value.includes("updates"), values: value.includes("values"), tagged: true };
  }
  throw new InvalidOptionError(`stream: streamMode must be "updates", "values" or a non-empty list of them; got ${JSON.stringify(value)}.`);
}

/** Runs a graph to its end. Rejects (never throws synchronously) on bad input, bad options or a failed step. */
export async function invokeRun(graph: ExecutableGraph, input: unknown, options?: RunOptions): Promise<RunResult<State>> {
  const run = new Run(graph, input, options);
  const records: StepRecord[] = [];
  for (;;) {
    const pending = run.superstepRecords();
    const superstep = isThenable(pending) ? await pending : pending;
    if (superstep === undefined) break;
    records.push(...superstep);
  }
  let steps: Step<State>[] | undefined;
  return {
    state: run.state,
    trace: run.trace,
    // Committed values are never mutated, so copying them on first read gives the same detached steps as
    // copying them during the run; a caller who reads only the final state pays for no step copies.
    get steps() {
      return (steps ??= records.map(materializedStep));
    },
    set steps(value: Step<State>[]) {
      steps = value;
    },
    routes: run.routes,
    supersteps: run.supersteps,
  };
}

type MaybePromise<T> = T | Promise<T>;

/** Continues with `next` now when `value` is ready, or once it settles. */
function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable(value) ? (value as Promise<T>).then(next) : next(value as T);
}

/** The next active set, and the route key(s) each source took. */
interface Activation {
  readonly tasks: Task[];
  readonly keys: (string | string[] | undefined)[];
}

/** A step as the scheduler records it: the committed update and state, shared until copied. */
interface StepRecord {
  readonly node: string;
  readonly update: State;
  readonly state: State;
  readonly route: string | string[] | undefined;
}

function materializedStep({ node, update, state, route }: StepRecord): Step<State> {
  const step = { node, update: cloneState(update), state: cloneState(state) };
  return route === undefined ? step : { ...step, route: typeof route === "string" ? route : [...route] };
}

/** Runs a graph, yielding each step (and/or each superstep's merged state) as it completes. */
export async function* streamRun(graph: ExecutableGraph, input: unknown, options?: StreamOptions<StreamMode | readonly StreamMode[]>): AsyncGenerator<unknown> {
  const modes = checkStreamMode(options?.streamMode);
  const run = new Run(graph, input, options);
  for (let superstep = await run.superstep(); superstep !== undefined; superstep = await run.superstep()) {
    if (modes.updates) for (const step of superstep) yield modes.tagged ? ["updates", step] : step;
    if (modes.values) {
      const values: SuperstepValues<State> = { superstep: run.supersteps, nodes: superstep.map((s) => s.node), state: run.state };
      yield modes.tagged ? ["values", values] : values;
    }
  }
}
