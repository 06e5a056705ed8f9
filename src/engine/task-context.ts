/**
 * The values behind `NodeContext` and `RouterContext`. Built per call but cheap: the superstep's
 * AbortController is created only when a node first reads `signal`, and `writer` is a no-op unless
 * someone streams custom events, so `invoke` on a graph whose nodes take one parameter pays for neither.
 */
import type { NodeContext, RouterContext } from "./context.js";
import type { ObservedRun } from "./observed-run.js";
import type { RunObservation, RunObserver } from "./observer.js";
import type { Task } from "./step.js";
import type { ChildStream } from "./stream-modes.js";

/**
 * Where custom events go: the stream's queue, or nowhere. `path` is where the node that wrote it sits
 * through subgraphs (`["sub", "inner"]`), for an event a subgraph's node wrote. A stream with
 * `subgraphs: true` gives each task a sink of its own (`forTask`), which carries where a subgraph run
 * inside the task streams its chunks (`subgraphs`).
 */
export interface EventSink {
  (node: string, event: unknown, path?: readonly string[]): void;
  readonly forTask?: (task: Task) => EventSink;
  readonly subgraphs?: ChildStream;
}

/** Why a superstep's tasks were cancelled when a sibling failed (their `signal.reason`). */
export class SiblingFailed extends Error {
  override readonly name = "SiblingFailed";
}

/**
 * One superstep's cancellation. Its signal aborts when the run's signal does, or when {@link cancel}
 * is called (a sibling failed); it exists only once a node asked for it.
 */
export class SuperstepScope {
  /** The run's observation: the attempts of this superstep report to it. */
  readonly observed: ObservedRun | undefined;
  readonly #runSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #cancelled = false;

  constructor(runSignal: AbortSignal | undefined, observed?: ObservedRun) {
    this.#runSignal = runSignal;
    this.observed = observed;
  }

  get signal(): AbortSignal {
    if (this.#signal !== undefined) return this.#signal;
    this.#controller = new AbortController();
    if (this.#cancelled) this.#controller.abort(new SiblingFailed("a sibling in the same superstep failed"));
    // AbortSignal.any lets the combined signal be collected with the superstep: no listener left on the run's signal.
    this.#signal = this.#runSignal === undefined ? this.#controller.signal : AbortSignal.any([this.#runSignal, this.#controller.signal]);
    return this.#signal;
  }

  /** Whether the superstep was cancelled (a sibling failed). */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Cancels the superstep's other tasks: a sibling failed. */
  cancel(reason: string): void {
    this.#cancelled = true;
    this.#controller?.abort(new SiblingFailed(reason));
  }
}

const ignore: EventSink = () => undefined;

/** A node's context: its superstep's signal, where its events go, and where it runs. */
export class TaskContext implements NodeContext {
  readonly node: string;
  readonly superstep: number;
  readonly attempt: number;
  readonly threadId: string | undefined;
  readonly #scope: SuperstepScope;
  readonly #sink: EventSink;
  readonly #deadline: (() => AbortSignal) | undefined;
  readonly #first: TaskContext | undefined;
  #readSignal = false;
  #writer: ((event: unknown) => void) | undefined;

  constructor(
    scope: SuperstepScope,
    node: string,
    superstep: number,
    threadId: string | undefined,
    sink: EventSink = ignore,
    attempt = 1,
    deadline?: () => AbortSignal,
    first?: TaskContext,
  ) {
    this.#scope = scope;
    this.node = node;
    this.superstep = superstep;
    this.threadId = threadId;
    this.#sink = sink;
    this.attempt = attempt;
    this.#deadline = deadline;
    this.#first = first;
  }

  get signal(): AbortSignal {
    this.#readSignal = true;
    if (this.#first !== undefined) this.#first.#readSignal = true;
    return this.#deadline === undefined ? this.#scope.signal : AbortSignal.any([this.#scope.signal, this.#deadline()]);
  }

  /** The context of an attempt of the same task, whose signal also aborts at `deadline()` (its timeout). */
  forAttempt(attempt: number, deadline: (() => AbortSignal) | undefined): TaskContext {
    return new TaskContext(this.#scope, this.node, this.superstep, this.threadId, this.#sink, attempt, deadline, this.#first ?? this);
  }

  /** The superstep's signal (created if no node asked for it yet): what a retry's wait listens to. */
  get superstepSignal(): AbortSignal {
    return this.#scope.signal;
  }

  /** The run's observation, if any: what `runTask` reports this task's attempts to. */
  get observation(): RunObservation | undefined {
    return this.#scope.observed?.observation;
  }

  /** The run's observer, if any: a subgraph's run inherits it. */
  get observer(): RunObserver | undefined {
    return this.#scope.observed?.observer;
  }

  /** Bound once, so `const { writer } = context` works. */
  get writer(): (event: unknown) => void {
    this.#writer ??= (event: unknown) => this.#sink(this.node, event);
    return this.#writer;
  }

  /**
   * Where a subgraph run inside this task sends its nodes' events: on to this task's own sink, each
   * under this node in its `path` (LangGraph forwards a subgraph's custom events to its parent's stream,
   * namespaced). `undefined` when nobody streams them.
   */
  childSink(): EventSink | undefined {
    const sink = this.#sink;
    if (sink === ignore) return undefined;
    return (node, event, path) => sink(node, event, [this.node, ...(path ?? [node])]);
  }

  /** Where a subgraph run inside this task streams its chunks, when the stream asked for them (`subgraphs: true`). */
  childStream(): ChildStream | undefined {
    return this.#sink.subgraphs;
  }

  /** Whether the node (in any attempt) read its signal: only such a node can have stopped because it was cancelled. */
  get readSignal(): boolean {
    return this.#readSignal;
  }
}

const neverAborted = new AbortController().signal;

/** A router's context. */
export class RouterCallContext implements RouterContext {
  readonly node: string;
  readonly superstep: number;
  readonly threadId: string | undefined;
  readonly #runSignal: AbortSignal | undefined;

  constructor(runSignal: AbortSignal | undefined, node: string, superstep: number, threadId: string | undefined) {
    this.#runSignal = runSignal;
    this.node = node;
    this.superstep = superstep;
    this.threadId = threadId;
  }

  get signal(): AbortSignal {
    return this.#runSignal ?? neverAborted;
  }
}
