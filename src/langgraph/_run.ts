/**
 * One run on LangGraph.js, read in the mini engine's terms: what `runOnLangGraph` and
 * `streamOnLangGraph` drive for the top-level graph, and what a subgraph task drives for its child in a
 * threaded run (`_child.ts`), so a child's bounds, failures and interrupts are the mini engine's too.
 */
import { GraphExecutionError, GraphLimitError, type ExecutionContext } from "../errors.js";
import {
  checkedStart,
  executionError,
  isAborted,
  next,
  nodeOutput,
  onAbort,
  runOptionsOf,
  settle,
  StepFailure,
  superstepCeiling,
  type ExecutableGraph,
  type State,
} from "../engine/_kernel.js";
import { messageOf } from "../_describe.js";
import type { RouteTaken } from "../engine/index.js";
import { cloneState, isPlainObject, type Step } from "../engine/index.js";
import { START } from "../spec.js";
import { visibleState } from "./_hidden.js";
import { loadLangGraph, type LangGraphModule } from "./_load.js";
import { RECORDER_KEY, RunRecorder, SuperstepRefused, TaskRefused, TaskStarted, type TaskRecord } from "./_recorder.js";
import { LangGraphNodeError } from "./errors.js";
import type { LangGraphRunOptions } from "./_types.js";

/** The graph a run drives: its tables, and its LangGraph export (made on the run's first step). */
export interface RunGraph {
  readonly executable: ExecutableGraph;
  readonly langGraph: () => Promise<StreamingGraph>;
}

/**
 * What a run calls of its LangGraph graph: `stream`, with `writer: null`, which LangGraph reads as no
 * writer given (it fills in its own, writing to this run's stream) where leaving it out inherits the
 * writer of the LangGraph task the run is called from (a child's parent task). Its declared options do
 * not list `writer`, which it takes from any config.
 */
export interface StreamingGraph {
  stream(input: unknown, options: RunStreamOptions): Promise<AsyncIterable<unknown>>;
}

/** The options a run passes LangGraph's `stream`. */
interface RunStreamOptions {
  readonly streamMode: ("tasks" | "values" | "custom")[];
  readonly recursionLimit: number;
  readonly maxConcurrency?: number;
  readonly configurable: Record<string, unknown>;
  readonly signal?: AbortSignal;
  readonly writer: null;
}

/** Where a run starts: LangGraph's input, and what the thread's run did before this invocation. */
export interface RunStart {
  /** What LangGraph's `stream` gets: the input state, `null`, or LangGraph's Command. */
  readonly input: unknown;
  /** Whether `input` is a new input state, checked as the mini engine checks one. */
  readonly checkInput: boolean;
  /** The thread's `configurable` (its `thread_id`), if any. */
  readonly configurable: Readonly<Record<string, unknown>>;
  readonly trace: readonly string[];
  readonly supersteps: number;
}

/** A task LangGraph announced for the next superstep. */
interface LangGraphTask {
  readonly id: string;
  readonly node: string;
  /** A Send's task (LangGraph runs those after the plain ones; the order among them is the Sends' order). */
  readonly sent: boolean;
}

/** LangGraph's `tasks` stream event for a task about to run (a finished task's event has `result`). */
function startedTask(payload: Record<string, unknown>): LangGraphTask | undefined {
  const { id, name, triggers } = payload;
  if (typeof id !== "string" || typeof name !== "string" || !Array.isArray(triggers) || "result" in payload) return undefined;
  return { id, node: name, sent: triggers.includes("__pregel_push") };
}

/**
 * One run. LangGraph announces a superstep's tasks (`tasks` events), runs them, then emits the merged
 * state (`values`, only when some field changed). The run admits a superstep's nodes only after
 * checking its bounds (each node waits at the recorder's gate), and commits the superstep when its
 * values arrive, or when the next superstep is announced, or when the stream ends.
 */
export class LangGraphRun {
  #state: State = {};
  #values: State = {};
  #supersteps: number;
  /** The tasks announced for the next superstep, not admitted yet, in LangGraph's order. */
  #announced: LangGraphTask[] = [];
  /** The admitted superstep, in declaration order, until it commits. */
  #running: readonly LangGraphTask[] | undefined;
  #startRoutesClaimed = false;
  #signal: AbortSignal | undefined;
  readonly trace: string[];
  readonly routes: RouteTaken[] = [];
  /** The nodes of the last superstep this invocation committed. */
  lastSuperstep: readonly string[] = [];
  readonly #graph: RunGraph;
  readonly #executable: ExecutableGraph;
  readonly #start: RunStart;
  readonly #options: LangGraphRunOptions;
  readonly recorder: RunRecorder;
  readonly #api: string;

  constructor(graph: RunGraph, start: RunStart, options: LangGraphRunOptions | undefined, api: string, recorder = new RunRecorder()) {
    this.recorder = recorder;
    this.#api = api;
    this.#graph = graph;
    this.#executable = graph.executable;
    this.#start = start;
    this.trace = [...start.trace];
    this.#supersteps = start.supersteps;
    this.#options = options ?? {};
  }

  /** The state the run stands at, as the graph sees it. */
  get state(): State {
    return this.#state;
  }

  /** LangGraph's last values of the run, hidden channels included (a child's folded updates). */
  get values(): State {
    return this.#values;
  }

  get supersteps(): number {
    return this.#supersteps;
  }

  async *steps(): AsyncGenerator<Step<State>> {
    const { limits, signal, maxConcurrency } = runOptionsOf(this.#options, this.#api, this.#executable);
    this.#signal = signal;
    const onCustomEvent = this.#options.onCustomEvent;
    const [lg, langGraph] = await Promise.all([loadLangGraph(), this.#graph.langGraph()]);
    // A new input is checked as on the mini engine; `null` or LangGraph's Command continues the thread.
    const input = (this.#start.checkInput ? cloneState((this.#state = this.#checkInput())) : this.#start.input) as State | null;
    let chunks: ChunkReader | undefined;
    let refused: Error | undefined;
    try {
      // Inside the try: LangGraph runs the input's superstep (START's router) before its stream returns.
      chunks = new ChunkReader(
        await langGraph.stream(input, {
          // `custom` always: a gated node tells the run there that its superstep's announcement is over.
          streamMode: ["tasks", "values", "custom"],
          recursionLimit: superstepCeiling(limits) + 1,
          // LangGraph's own bound on the tasks of a superstep running at once: the same meaning.
          ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
          configurable: { ...this.#start.configurable, [RECORDER_KEY]: this.recorder },
          // An already aborted signal is the kernel's to refuse (before the first node), not LangGraph's.
          ...(signal === undefined || isAborted(signal) ? {} : { signal }),
          // The run's own stream takes its nodes' writes, not the stream of the task it runs in (a child's).
          writer: null,
        }),
        signal,
      );
      for (let chunk = await chunks.next(); chunk.done !== true; chunk = await chunks.next()) {
        if (chunk.value === ABORTED) {
          refused = this.#aborted(signal as AbortSignal);
          break;
        }
        const [mode, payload] = chunk.value as [unknown, unknown];
        if (mode === "custom") {
          if (payload instanceof TaskStarted) refused = this.#started(payload, limits);
          else if (isPlainObject(payload)) onCustomEvent?.({ node: String(payload["node"]), event: payload["event"] });
          if (refused !== undefined) break;
          continue;
        }
        if (!isPlainObject(payload)) continue;
        if (mode === "values") {
          // A paused run ends with LangGraph's interrupts in a values chunk: the thread's snapshot has them.
          if (INTERRUPTS in payload) continue;
          this.#values = payload;
          this.#state = visibleState(payload);
          yield* this.#commit();
        } else if (mode === "tasks") {
          const task = startedTask(payload);
          if (task === undefined) continue;
          yield* this.#commit(); // the previous superstep changed no field, so no values event came for it
          this.#announced.push(task);
        }
      }
      if (refused === undefined) yield* this.#commit();
    } catch (error) {
      await this.#fail(lg, error);
    } finally {
      this.recorder.close(); // a superstep not admitted yet never starts, so LangGraph's run ends
      await chunks?.close();
      this.#claimStartRoutes();
    }
    if (refused !== undefined) throw refused;
  }

  /**
   * The input checked as the mini engine checks it, the state schema's included. Each superstep's merged
   * state is checked before LangGraph commits it (see {@link LangGraphRun.#refusal}).
   */
  #checkInput(): State {
    return checkedStart(this.#executable, this.#start.input, this.#api);
  }

  /**
   * The run's signal aborted while LangGraph was running a superstep (between supersteps, `admit`
   * refuses the next one): the run ends at once, as on the mini engine, naming the first running task
   * in declaration order that had not finished; the superstep commits nothing.
   */
  #aborted(signal: AbortSignal): Error {
    const tasks = this.#running ?? this.#announced;
    this.#running = undefined;
    const { failed } = settle(this.#executable, undefined, tasks, this.#records(tasks), signal);
    const node = failed?.node ?? START;
    return executionError(this.#api, failed?.failure, this.#context(node));
  }

  /**
   * A task reached the gate. LangGraph starts a superstep's tasks only once it has announced them all,
   * so when the task is one announced here, the superstep's announcement is over: it is admitted, or
   * refused (the error the run ends with). A later task of an admitted superstep changes nothing.
   */
  #started(started: TaskStarted, limits: Limits): Error | undefined {
    if (!this.#announced.some((task) => task.id === started.id)) return undefined;
    return this.#admit(limits);
  }

  /**
   * Asks the kernel whether the announced superstep may start (the signal, then the bounds, as on the
   * mini engine), and lets its nodes start; or refuses them all and returns the error the run ends with.
   * LangGraph decides which tasks run; the kernel decides their order.
   */
  #admit(limits: Limits): Error | undefined {
    const announced = this.#announced;
    this.#announced = [];
    const view = { tasks: announced, trace: this.trace, supersteps: this.#supersteps, joins: [] };
    const decision = next(this.#executable, view, limits, this.#signal);
    if (decision.kind === "stop") {
      const stop = executionError(this.#api, decision.failure, this.#context(decision.node));
      this.recorder.refuse(
        announced.map((task) => task.id),
        new TaskRefused(stop.message),
      );
      return stop;
    }
    const tasks = decision.kind === "run" ? decision.tasks : [];
    const ids = tasks.map((task) => task.id);
    this.#running = tasks;
    const { stateCheck, fieldChecks } = this.#executable; // with neither, only a handoff (Command.PARENT) is refused
    const schema = stateCheck !== undefined || fieldChecks !== undefined;
    const handsOff = () => tasks.some((task) => nodeOutput(this.recorder.recorded(task.id)?.update ?? {}).handoff);
    this.recorder.admit(ids, () => (schema || handsOff() ? this.#refusal(tasks) : undefined));
    return undefined;
  }

  /**
   * With a state schema or field schemas, the kernel's commit of the superstep's updates (its merge and
   * the schemas' checks), asked once every node returned and before LangGraph merges them: a refused
   * superstep fails, so LangGraph commits nothing of it, and {@link LangGraphRun.#failure} reports the
   * kernel's `INVALID_STATE` (or `INVALID_FIELD`).
   */
  #refusal(tasks: readonly LangGraphTask[]): Error | undefined {
    const { failed } = settle(this.#executable, this.#state, tasks, this.#records(tasks));
    return failed === undefined
      ? undefined
      : new SuperstepRefused(`the superstep of ${tasks.map((task) => `"${task.node}"`).join(", ")} cannot commit`);
  }

  /** Commits the running superstep against the current state and yields its steps in declaration order. */
  *#commit(): Generator<Step<State>> {
    const tasks = this.#running;
    if (tasks === undefined) return;
    this.#running = undefined;
    const records = this.#records(tasks);
    // A superstep some of whose nodes paused at an interrupt commits nothing, on LangGraph as here.
    if (records.some((record) => record?.paused === true)) return;
    this.#supersteps += 1;
    this.lastSuperstep = tasks.map((task) => task.node);
    this.#claimStartRoutes();
    // LangGraph merged it: the kernel reads the routes it took and the updates its steps show.
    const { routes, updates } = settle(this.#executable, undefined, tasks, records);
    for (const task of tasks) this.trace.push(task.node);
    this.routes.push(...routes);
    const state = this.#state;
    for (const [index, task] of tasks.entries()) yield stepOf(task.node, records[index], updates[index] as State, state);
  }

  #records(tasks: readonly LangGraphTask[]): (TaskRecord | undefined)[] {
    return tasks.map((task) => this.recorder.recorded(task.id));
  }

  #claimStartRoutes(): void {
    if (this.#startRoutesClaimed) return;
    this.#startRoutesClaimed = true;
    this.routes.unshift(...this.recorder.startRoutes);
  }

  /** Turns what LangGraph threw into the error the mini engine raises at the same point. */
  async #fail(lg: LangGraphModule, error: unknown): Promise<never> {
    if (this.#signal !== undefined && isAborted(this.#signal) && this.#running !== undefined) throw this.#aborted(this.#signal);
    // A child's run that paused: LangGraph raises its GraphInterrupt to the parent's task, which pauses.
    if (lg.isGraphInterrupt(error)) throw error;
    if (error instanceof lg.GraphRecursionError) {
      // Unreachable while the bounds are checked before each superstep; kept as a backstop.
      const node = this.#running?.[0]?.node ?? START;
      throw new GraphLimitError(`${this.#api}: ${error.message}`, this.#context(node, error));
    }
    const tasks = this.#running ?? [];
    this.#running = undefined; // LangGraph committed none of the failed superstep
    // The mini engine waits for every node of the superstep; LangGraph may stop waiting once one failed.
    await Promise.all(tasks.map((task) => this.recorder.recorded(task.id)?.finished));
    throw this.#failure(tasks, error);
  }

  /**
   * The mini engine's error for a superstep LangGraph did not commit: the one the kernel reports (a
   * node's, else the merge's, else a router's); else LangGraph's own failure.
   */
  #failure(tasks: readonly LangGraphTask[], error: unknown): GraphExecutionError {
    const { failed } = settle(this.#executable, this.#state, tasks, this.#records(tasks));
    if (failed !== undefined) return executionError(this.#api, failed.failure, this.#context(failed.node));
    if (error instanceof LangGraphNodeError) {
      const failure = new StepFailure(error.code, error.message, "cause" in error ? { cause: error.cause } : undefined);
      return executionError(this.#api, failure, this.#context(error.node));
    }
    const node = tasks[0]?.node ?? START;
    return new GraphExecutionError(
      "LANGGRAPH_FAILED",
      `${this.#api}: LangGraph.js failed at "${node}", not in a node: ${messageOf(error)}`,
      this.#context(node, error),
    );
  }

  #context(node: string, cause?: unknown): ExecutionContext {
    return { node, state: cloneState(this.#state), trace: [...this.trace], ...(cause === undefined ? {} : { cause }) };
  }
}

/** A committed step: the node's update (as the kernel shows it), the superstep's merged state, the route its router took, and its Command goto. */
function stepOf(node: string, record: TaskRecord | undefined, update: State, state: State): Step<State> {
  const routes = record?.routes ?? [];
  const keys = routes.map((route) => route.key);
  const route = record?.list === true ? keys : keys[0];
  const goto = record?.goto?.map((task) => task.node);
  return {
    node,
    update: cloneState(update),
    state: cloneState(state),
    ...(route === undefined ? {} : { route }),
    ...(goto === undefined ? {} : { goto }),
  };
}

/** The bounds the run was given, as the kernel reads them. */
type Limits = ReturnType<typeof runOptionsOf>["limits"];

/** LangGraph's stream, read one chunk at a time, that ends early when the run's signal aborts. */
class ChunkReader {
  readonly #iterator: AsyncIterator<unknown>;
  readonly #aborted: Promise<IteratorResult<unknown>> | undefined;

  constructor(stream: AsyncIterable<unknown>, signal: AbortSignal | undefined) {
    this.#iterator = stream[Symbol.asyncIterator]();
    this.#aborted =
      signal === undefined
        ? undefined
        : new Promise((resolve) => {
            onAbort(signal, () => resolve({ done: false, value: ABORTED }));
          });
  }

  /** The next chunk, or {@link ABORTED} as soon as the run's signal aborts. */
  next(): Promise<IteratorResult<unknown>> {
    const next = this.#iterator.next();
    if (this.#aborted === undefined) return next;
    next.catch(() => undefined); // once aborted, LangGraph's own AbortError is not the run's error
    return Promise.race([this.#aborted, next]);
  }

  /** Stops reading; LangGraph ends its run (its refused or aborted tasks reject). */
  async close(): Promise<void> {
    try {
      await this.#iterator.return?.();
    } catch {
      // the run already failed or was stopped: nothing more to report
    }
  }
}

/** The key under which LangGraph's values chunk carries a paused run's interrupts. */
const INTERRUPTS = "__interrupt__";

/** What {@link ChunkReader.next} yields once the run's signal aborted. */
const ABORTED = Symbol("aborted");
