/**
 * The mini engine's driver of the run kernel (`kernel/`): it decides *when* (run the admitted
 * tasks, at most `maxConcurrency` at once, each on its own copy of the committed state; run the routers
 * one after another; stop at once when the signal aborts) and asks the kernel *what* (admit, commit,
 * advance). `invoke`, `stream`, threaded runs and the XState superstep machine all drive this class.
 */
import type { GraphStamp } from "./graph-stamp.js";
import type { ExecutionContext, GraphExecutionError, PendingWrite } from "../errors.js";
import { START } from "../spec.js";
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import { resolveConcurrency, type RunLimits } from "./kernel/limits.js";
import { graphLimits } from "./kernel/recursion-limit.js";
import { andThen, type MaybePromise } from "./maybe-promise.js";
import { checkSignal, detachInput, executionError, inputFailure, interruptOutsideThread, startingState } from "./run-checks.js";
import type { Step } from "./run-types.js";
import type { RunSettings, RunStart, TaskRunner, TaskWrite } from "./run-settings.js";
import { detachedStep, NO_RECORDS, stepRecords, type StepLog, type StepRecord } from "./step-record.js";
import { runTask } from "./attempts.js";
import { ObservedRun } from "./observed-run.js";
import type { ObservedInterrupt } from "./observer.js";
import { admit, commit, type AdmitView, type RunSnapshot } from "./kernel/superstep.js";
import { countVisits, visitCounts } from "./kernel/bounds.js";
import type { Advance } from "./kernel/advance.js";
import { FROM_START, fixedSuccessorTable, isPending, type RouteTaken, type State, type Successors, type Task } from "./step.js";
import { routeSources, type RouteHost } from "./run-route.js";
import { TaskLauncher, type TaskHost } from "./run-tasks.js";
import { runRestOfSuperstep } from "./superstep-rest.js";
import { RouteLog } from "./route-log.js";
import type { InterruptError, InterruptHost } from "./interrupt-scope.js";
import type { EventSink } from "./task-context.js";

/**
 * One run, advanced a superstep at a time. The committed state is owned by the run and never handed
 * out: nodes, routers and callers get copies.
 * @internal Exported for the threads layer and the XState machine, which drive it superstep by superstep.
 */
export class Run {
  #state: State;
  #tasks: readonly Task[] | undefined;
  #joins: readonly (readonly string[])[];
  #deferred: readonly Task[] = []; // deferred nodes' tasks waiting for the others' (the kernel's deferTasks decides)
  #supersteps = 0;
  readonly #trace: string[] = [];
  readonly #routes = new RouteLog();
  readonly #graph: ExecutableGraph;
  readonly #limits: RunLimits;
  readonly #signal: AbortSignal | undefined;
  readonly #threadId: string | undefined;
  readonly #api: string;
  readonly #interrupts: InterruptHost | undefined;
  /** Checked once per run: an unobserved run tests this one field per hook and allocates nothing for it. */
  readonly #observed: ObservedRun | undefined;
  readonly #onTasks: RunSettings["onTasks"];
  /** The updates already known for the next superstep's tasks, by position: those tasks do not run again. */
  #done: ReadonlyMap<number, State> | undefined;
  /** Runs each superstep's admitted tasks (see run-tasks.ts). */
  readonly #launcher: TaskLauncher;
  /** What routing and running tasks read of this run (see run-route.ts, run-tasks.ts): made once, read through getters. */
  readonly #host: RouteHost & TaskHost;
  /** How many times each bounded node ran: the trace counted as it grows, so admitting a task never walks it. */
  #visits: Map<string, number>;

  constructor(graph: ExecutableGraph, input: unknown, options: RunSettings | undefined, start: RunStart = "input") {
    this.#graph = graph;
    this.#api = options?.api ?? "invoke";
    this.#limits = graphLimits(graph, options, this.#api);
    this.#signal = checkSignal(options?.signal, this.#api);
    const maxConcurrency = resolveConcurrency(options?.maxConcurrency, this.#api);
    this.#threadId = options?.threadId;
    this.#interrupts = options?.interrupts;
    this.#observed = ObservedRun.open(graph, options, this.#api, this.#threadId, start === "restored");
    this.#onTasks = options?.onTasks;
    this.#joins = graph.joins.map(() => []);
    this.#host = new Run.#Host(this, options, maxConcurrency);
    this.#launcher = new TaskLauncher(this.#host);
    this.#visits = visitCounts(graph, []);
    this.#state = {};
    const failure = inputFailure(graph, input);
    if (failure !== undefined) throw this.#error(failure, START);
    try {
      // A restored or merged state was committed (checked) already: only a new run's input is checked here.
      this.#state = start === "input" ? startingState(graph, input) : detachInput(input);
    } catch (error) {
      throw this.#error(error, START);
    }
  }

  /**
   * A run that continues from a snapshot: nothing it committed runs again. `done` are updates of the
   * next superstep's tasks that already succeeded (a thread's pending writes): only the other tasks run,
   * on the snapshot's state, and the superstep commits all of them together, in declaration order.
   */
  static restore(graph: ExecutableGraph, snapshot: RunSnapshot, options: RunSettings | undefined, done?: readonly TaskWrite[]): Run {
    const run = new Run(graph, snapshot.state, options, "restored");
    if (done !== undefined && done.length > 0) run.#done = new Map(done.map((write) => [write.task, write.update]));
    run.#tasks = snapshot.tasks.map((task) => ({ ...task }));
    run.#trace.push(...snapshot.trace);
    run.#visits = visitCounts(graph, snapshot.trace);
    for (const route of snapshot.routes) run.#routes.push(route);
    run.#supersteps = snapshot.supersteps;
    run.#joins = snapshot.joins.map((sources) => [...sources]);
    if (snapshot.deferred !== undefined) run.#deferred = snapshot.deferred.map((task) => ({ ...task }));
    return run;
  }

  /** What a checkpoint records of the graph this run runs (its version and spec hash). */
  get stamp(): GraphStamp {
    return this.#graph.stamp;
  }

  get state(): State {
    return cloneState(this.#state);
  }

  /** The committed state itself: never mutate it. For invoke's replay of steps. */
  get committedState(): State {
    return this.#state;
  }

  get trace(): string[] {
    return this.#trace.slice();
  }

  get routes(): RouteTaken[] {
    return this.#routes.copies();
  }

  get supersteps(): number {
    return this.#supersteps;
  }

  /** The tasks of the next superstep, or `undefined` before START's successors were computed. */
  get pending(): readonly Task[] | undefined {
    return this.#tasks;
  }

  /** Computes START's successors, so the first snapshot can name the first tasks. */
  async begin(): Promise<void> {
    if (this.#tasks === undefined) this.#take(await routeSources(this.#host, FROM_START));
  }

  /** Where the run stands; see {@link RunSnapshot}. Its state is the committed one: serialize it before the next superstep. */
  snapshot(): RunSnapshot {
    return {
      state: this.#state,
      tasks: this.#tasks ?? [],
      trace: [...this.#trace],
      routes: this.#routes.shared(),
      supersteps: this.#supersteps,
      joins: this.#joins.map((sources) => [...sources]),
      ...(this.#deferred.length === 0 ? {} : { deferred: [...this.#deferred] }),
    };
  }

  /**
   * Merges `update` through the reducers as if `asNode` had returned it, then activates what follows
   * `asNode` (its router reads the merged state). Without `asNode` the next tasks stay as they were.
   */
  async commitAs(asNode: string | undefined, update: State): Promise<void> {
    if (asNode !== undefined) return this.commitAsNodes([asNode], [update]);
    const committed = commit(this.#graph, this.#state, [{ node: "updateState", sent: false }], [update]);
    if (!committed.ok) throw this.#error(committed.failure, committed.node);
    this.#state = committed.state;
  }

  /**
   * Merges `updates` as one superstep in which `asNodes` ran (by position, in order, as a superstep's
   * tasks commit), then activates what follows them all, in place of the next tasks (`bulkUpdateState`).
   */
  async commitAsNodes(asNodes: readonly string[], updates: readonly State[]): Promise<void> {
    const sources = asNodes.map((node) => ({ node, sent: false }));
    const committed = commit(this.#graph, this.#state, sources, updates);
    if (!committed.ok) throw this.#error(committed.failure, committed.node);
    this.#state = committed.state;
    this.#take(await routeSources(this.#host, sources));
  }

  /** Runs the next superstep; resolves with its detached steps, or `undefined` once the run is over. */
  async superstep(): Promise<Step<State>[] | undefined> {
    const records = await this.superstepRecords();
    const state = this.#state;
    return records?.map((record) => detachedStep(record, state));
  }

  /**
   * Runs the next superstep and returns its records, or `undefined` once the run is over. Synchronous
   * nodes and routers run a whole superstep without awaiting, so `invoke` pays for no microtask per
   * step; anything async switches to promises from that point on. Given a `log`, the steps go into it
   * and the list returned is empty (`invoke`: no record object per step).
   */
  superstepRecords(log?: StepLog): MaybePromise<StepRecord[] | undefined> {
    if (this.#tasks !== undefined) return this.#runSuperstep(log);
    return andThen(routeSources(this.#host, FROM_START), (advanced) => {
      this.#take(advanced);
      return this.#runSuperstep(log);
    });
  }

  #runSuperstep(log: StepLog | undefined): MaybePromise<StepRecord[] | undefined> {
    const admission = admit(this.#graph, this.#view(), this.#limits, this.#signal);
    if (admission.kind === "end") {
      this.endObservation("done");
      return undefined;
    }
    if (admission.kind === "stop") throw this.#error(admission.failure, admission.node);
    const { tasks } = admission;
    // The kernel may have sent a task past its loop bound to the bound's exit: the superstep runs what was admitted.
    if (tasks !== this.#tasks) this.#tasks = tasks;
    const observed = this.#observed;
    observed?.superstepStart(this.#supersteps + 1, tasks);
    this.#onTasks?.(this.#supersteps + 1, tasks, this.#state);
    const done = this.#done;
    this.#done = undefined;
    // Named methods rather than closures: a synchronous superstep allocates no function.
    const updates =
      done === undefined
        ? this.#launcher.run(tasks)
        : runRestOfSuperstep(tasks, done, (rest, positions, kept) => this.#launcher.run(rest, positions, kept));
    return isPending(updates)
      ? updates.then((ready) => this.#commitSuperstep(tasks, ready, log))
      : this.#commitSuperstep(tasks, updates, log);
  }

  /** The superstep's updates are in: commit them, then run the routers of its nodes. */
  #commitSuperstep(tasks: readonly Task[], updates: readonly State[], log: StepLog | undefined): MaybePromise<StepRecord[]> {
    const paused = this.#interrupts?.pausedAt(tasks, updates);
    if (paused !== undefined) throw paused;
    const committed = commit(this.#graph, this.#state, tasks, updates);
    if (!committed.ok) throw this.#error(committed.failure, committed.node);
    this.#state = committed.state;
    for (const task of tasks) this.#trace.push(task.node);
    countVisits(this.#graph, this.#visits, tasks);
    this.#supersteps += 1;
    const advanced = routeSources(this.#host, tasks, updates);
    return isPending(advanced)
      ? advanced.then((ready) => this.#endSuperstep(tasks, updates, ready, log))
      : this.#endSuperstep(tasks, updates, advanced, log);
  }

  /** The routers have chosen: the next superstep's tasks are known, and its steps are recorded. */
  #endSuperstep(tasks: readonly Task[], updates: readonly State[], advanced: Advance, log: StepLog | undefined): StepRecord[] {
    this.#take(advanced);
    this.#observed?.superstepEnd(undefined);
    if (log !== undefined) {
      log.add(tasks, updates, advanced.keys);
      return NO_RECORDS;
    }
    return stepRecords(tasks, updates, advanced.keys);
  }

  /** What the kernel reads of the run, without copying its lists. */
  #view(): AdmitView {
    return { tasks: this.#tasks ?? [], trace: this.#trace, supersteps: this.#supersteps, joins: this.#joins, visits: this.#visits };
  }

  #take(advanced: Advance): void {
    this.#tasks = advanced.tasks;
    this.#deferred = advanced.deferred;
    this.#joins = advanced.joins;
    for (const route of advanced.routes) {
      this.#routes.push(route);
      this.#observed?.route(route);
    }
  }

  /** Ends the run's observation: `done` at END (a threaded run's driver sees it first), `abandoned` when a stream's consumer stopped. */
  endObservation(status: "done" | "abandoned"): void {
    this.#observed?.end({ status, supersteps: this.#supersteps });
  }

  /** Tells the observer a threaded run paused at an interrupt, and ends the run's observation. */
  observeInterrupt(interrupt: ObservedInterrupt): void {
    this.#observed?.observation.interrupt?.(interrupt);
    this.#observed?.end({ status: "interrupted", supersteps: this.#supersteps });
  }

  /** Tells the observer a threaded run saved a checkpoint. */
  observeCheckpoint(id: string, step: number, source: string): void {
    this.#observed?.checkpoint({ id, step, source });
  }

  #error(error: unknown, node: string, pendingWrites?: readonly PendingWrite[]): GraphExecutionError | InterruptError {
    const misuse = interruptOutsideThread(this.#api, node, error);
    if (misuse !== undefined) return misuse;
    const context: ExecutionContext = {
      node,
      state: cloneState(this.#state),
      trace: [...this.#trace],
      ...(pendingWrites === undefined || pendingWrites.length === 0 ? {} : { pendingWrites }),
    };
    const failure = executionError(this.#api, error, context);
    // Every such error is thrown: the run's observation ends with it.
    this.#observed?.failed(failure, this.#supersteps);
    return failure;
  }

  /**
   * What routing and running tasks read of a run: its settings, and its state and tables as they stand
   * (getters). One class for every run, so that those reads stay monomorphic on the hot path (an object
   * literal with getters would give each run's host its own shape).
   */
  static readonly #Host = class RunHost implements RouteHost, TaskHost {
    readonly #run: Run;
    // What only the host keeps (the run reads none of it); the rest it reads from the run.
    readonly fixed: ReadonlyMap<string, Successors>;
    readonly maxConcurrency: number;
    readonly sink: EventSink | undefined;
    readonly onWrite: ((write: TaskWrite) => void) | undefined;
    readonly runTask: TaskRunner;

    constructor(run: Run, options: RunSettings | undefined, maxConcurrency: number) {
      this.#run = run;
      this.fixed = fixedSuccessorTable(run.#graph);
      this.maxConcurrency = maxConcurrency;
      this.sink = options?.sink;
      this.onWrite = options?.onWrite;
      this.runTask = options?.runTask ?? runTask;
    }

    get graph(): ExecutableGraph {
      return this.#run.#graph;
    }

    get signal(): AbortSignal | undefined {
      return this.#run.#signal;
    }

    get threadId(): string | undefined {
      return this.#run.#threadId;
    }

    get observed(): ObservedRun | undefined {
      return this.#run.#observed;
    }

    get interrupts(): InterruptHost | undefined {
      return this.#run.#interrupts;
    }

    get tasks(): readonly Task[] | undefined {
      return this.#run.#tasks;
    }

    get state(): State {
      return this.#run.#state;
    }

    get supersteps(): number {
      return this.#run.#supersteps;
    }

    get joins(): readonly (readonly string[])[] {
      return this.#run.#joins;
    }

    get visits(): Map<string, number> {
      return this.#run.#visits;
    }

    get deferred(): readonly Task[] {
      return this.#run.#deferred;
    }

    fail(error: unknown, node: string, pendingWrites?: readonly PendingWrite[]): GraphExecutionError | InterruptError {
      return this.#run.#error(error, node, pendingWrites);
    }
  };
}
