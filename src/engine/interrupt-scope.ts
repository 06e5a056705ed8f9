/**
 * Where `interrupt()` finds the task it was called from: the threaded run's driver runs each task
 * inside an AsyncLocalStorage frame (so a node calls `interrupt(payload)` without its context, sync or
 * async, as LangGraph's does). The pure kernel knows nothing of it: the driver asks {@link InterruptHost}
 * whether a superstep paused before it commits.
 */
import { GraphError } from "../errors.js";
import type { State, Task } from "./step.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { Checkpointer, JsonValue, PendingInterrupt } from "./checkpointer.js";
import { NodePaused } from "./node-paused.js";
import { writesKeptOnPause } from "./kernel/writes.js";
import { INTERRUPT_ERROR_CODES } from "./interrupt-codes.js";

export { INTERRUPT_ERROR_CODES };

/** The codes an {@link InterruptError} can carry. */
export type InterruptErrorCode = (typeof INTERRUPT_ERROR_CODES)[number];

/**
 * `interrupt()` was called where a run cannot pause, or a resume does not fit the pending interrupts.
 *
 * @example
 * ```ts
 * await graph.invoke(new Command({ resume: "yes" }), { threadId: "t1" }).catch((e: InterruptError) => e.code); // "NO_PENDING_INTERRUPT"
 * ```
 */
export class InterruptError extends GraphError<InterruptErrorCode> {
  override readonly name = "InterruptError";
  /** The interrupt it is about, when there is one. */
  readonly interruptId?: string;
  constructor(code: InterruptErrorCode, message: string, options: { readonly interruptId?: string; readonly cause?: unknown } = {}) {
    super(code, message, "cause" in options ? { cause: options.cause } : undefined);
    if (options.interruptId !== undefined) this.interruptId = options.interruptId;
  }
}

/**
 * What a node's `interrupt` call asks of the run it is in: the answer to this call, or the pause. The
 * mini engine's threaded driver gives each task a {@link TaskFrame}; another driver (the LangGraph
 * export) brings its own and runs the task with {@link runInInterruptFrame}.
 * @internal
 */
export interface InterruptFrame {
  /** Whether the task asked for a value nobody gave yet: it pauses, whatever it returns. */
  readonly paused: boolean;
  /** The resume value of this call, or the pause. */
  call(value: JsonValue, name: string | undefined): { readonly resumed: true; readonly value: unknown } | { readonly resumed: false };
  /**
   * Runs a subgraph node's child graph (`child`, a compiled graph) on the driver's own engine, which
   * keeps the child's checkpoints (the LangGraph export: LangGraph's `checkpoint_ns`). Resolves with the
   * child's final state and its nodes' updates folded; a pause inside the child pauses this task.
   * `undefined` when the driver cannot run this child: the engine runs it as without a thread.
   * `refusal` is the kernel's `childPauseRefusal` of the child (built once, by `subgraph()`), when the
   * child was compiled with static interrupts.
   */
  runChild?(
    child: object,
    input: unknown,
    limits: SubgraphLimits,
    refusal: Error | undefined,
  ): Promise<{ readonly state: State; readonly update: State }> | undefined;
  /** The answer the task's last call returned was refused by its interrupt's schema (`INVALID_RESUME`): the driver must not keep it. */
  refuse?(): void;
  /** A retry policy starts the task's next attempt: its calls count from the first again. */
  retry?(): void;
}

/** A subgraph's own bounds (`subgraph(child, { maxSteps, recursionLimit })`). */
export interface SubgraphLimits {
  readonly maxSteps?: number;
  readonly recursionLimit?: number;
}

/**
 * What a node's `interrupt` call needs from the run: its id, and the resume value when there is one.
 * @internal Exported for the durable drivers (DBOS) that record a paused task and replay it.
 */
export class TaskFrame implements InterruptFrame {
  readonly #host: InterruptHost;
  readonly #node: string;
  readonly #superstep: number;
  readonly #position: () => number;
  #calls = 0;
  /** The id of the last call that was answered (what {@link refuse} refuses). */
  #answered: string | undefined;
  /** Set once the task asked for a value nobody gave yet: the task pauses, whatever it returns. */
  paused = false;
  /** The interrupts this task raised, for a driver that records them (the DBOS step). */
  readonly raised: PendingInterrupt[] = [];

  constructor(host: InterruptHost, node: string, superstep: number, position: () => number) {
    this.#host = host;
    this.#node = node;
    this.#superstep = superstep;
    this.#position = position;
  }

  /** The host of the run this task belongs to. */
  get host(): InterruptHost {
    return this.#host;
  }

  /** How the ids of interrupts raised inside this task's subgraph begin: `node:superstep:task/`. */
  get idPrefix(): string {
    return `${this.#node}:${this.#superstep}:${this.#position()}/`;
  }

  /** Where this task stands in its superstep (its namespace tells parallel Sends to one subgraph apart). */
  get position(): number {
    return this.#position();
  }

  get node(): string {
    return this.#node;
  }

  /** Pauses this task for interrupts raised inside it (its subgraph's), ids already prefixed. */
  raise(interrupts: readonly PendingInterrupt[]): never {
    this.replayPause(interrupts);
    throw new NodePaused(`subgraph: "${this.#node}" paused, waiting for a resume value`);
  }

  /** The resume value of this call, or the pause. */
  call(value: JsonValue, name: string | undefined): { readonly resumed: true; readonly value: unknown } | { readonly resumed: false } {
    // A node that caught the pause and called again (or a retry of it) asks nothing more: it is paused already.
    if (this.paused) throw new NodePaused("interrupt: this node already paused");
    const id = `${this.#node}:${this.#superstep}:${this.#position()}:${this.#calls++}`;
    const resumes = this.#host.resumes;
    if (Object.hasOwn(resumes, id)) {
      this.#answered = id;
      return { resumed: true, value: resumes[id] };
    }
    this.paused = true;
    const raised: PendingInterrupt = { id, node: this.#node, ...(name === undefined ? {} : { name }), value };
    this.raised.push(raised);
    this.#host.raised.push(raised);
    return { resumed: false };
  }

  retry(): void {
    this.#calls = 0;
    this.#answered = undefined;
  }

  refuse(): void {
    if (this.#answered !== undefined) this.#host.refused.add(this.#answered);
  }

  /**
   * Pauses the task as a recorded run did, without running its node: a durable driver (DBOS) that
   * replays a task recorded as paused raises the same interrupts again, so the superstep pauses again.
   */
  replayPause(interrupts: readonly PendingInterrupt[]): void {
    this.paused = true;
    this.raised.push(...interrupts);
    this.#host.raised.push(...interrupts);
  }
}

/** The thread a run's subgraph tasks keep their checkpoints under. */
export interface SubgraphHome {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
}

/** Where the current task's frame is kept while its node runs. */
interface FrameStorage {
  run<R>(frame: InterruptFrame, body: () => R): R;
  getStore(): InterruptFrame | undefined;
}

/**
 * AsyncLocalStorage where the platform has it (Node, Deno, Bun: through `process.getBuiltinModule`, so
 * the core imports no `node:` module); elsewhere the frame lasts for the synchronous part of the node,
 * so an async node must call `interrupt` before its first `await`.
 */
function frameStorage(): FrameStorage {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const hooks = host.process?.getBuiltinModule?.("node:async_hooks") as typeof import("node:async_hooks") | undefined;
  if (hooks?.AsyncLocalStorage !== undefined) return new hooks.AsyncLocalStorage<InterruptFrame>();
  let current: InterruptFrame | undefined;
  return {
    run(frame, body) {
      const outer = current;
      current = frame;
      try {
        return body();
      } finally {
        current = outer;
      }
    },
    getStore: () => current,
  };
}

const frames = frameStorage();

/** The mini engine's frame of the task running now, or `undefined` outside a threaded run's task. */
export function currentFrame(): TaskFrame | undefined {
  const frame = frames.getStore();
  return frame instanceof TaskFrame ? frame : undefined;
}

/**
 * Frames lent to a child graph run inside their task ({@link inLentFrame}), with how many such runs are
 * under way in the task.
 */
const lent = new WeakMap<InterruptFrame, number>();

/**
 * Runs `body`, a child graph's run without a thread of its own, in the running task's frame: the
 * child's nodes ask that frame, so a child's `interrupt()` pauses the task. While it runs, a retry of
 * one of the child's nodes is not the task's next attempt: see {@link restartTaskCalls}.
 * @internal
 */
export async function inLentFrame<R>(body: () => Promise<R>): Promise<R> {
  const frame = frames.getStore();
  if (frame === undefined) return body();
  lent.set(frame, (lent.get(frame) ?? 0) + 1);
  try {
    return await body();
  } finally {
    const runs = (lent.get(frame) ?? 1) - 1;
    if (runs === 0) lent.delete(frame);
    else lent.set(frame, runs);
  }
}

/**
 * A retry policy starts the running task's next attempt: its `interrupt` calls count from the first
 * again, so an answered one gets its answer (LangGraph resets its counter the same way). Not when the
 * retried node belongs to a child graph run in the task's frame: resetting the task's count there would
 * hand the child node the answer of an earlier call of another node; its calls keep counting instead
 * (a call it repeats asks again).
 * @internal
 */
export function restartTaskCalls(): void {
  const frame = frames.getStore();
  if (frame !== undefined && !lent.has(frame)) frame.retry?.();
}

/** The frame that answers the running task's `interrupt` calls, whichever driver gave it. */
export function currentInterruptFrame(): InterruptFrame | undefined {
  return frames.getStore();
}

/**
 * Runs `body` (a task) with `frame` answering its `interrupt` calls: how a driver other than the mini
 * engine's threaded one (the LangGraph export) gives in-node interrupts their meaning.
 * @internal
 */
export function runInInterruptFrame<R>(frame: InterruptFrame, body: () => R): R {
  return frames.run(frame, body);
}

/**
 * Orders interrupts by their task's position, then by the call's index within the node. An interrupt
 * raised inside a subgraph task has the task's id as a prefix (`node:superstep:task/` + the child's id):
 * it is ordered by the outer task first, then by its id inside the child, at every depth.
 */
function byTaskThenCall(a: PendingInterrupt, b: PendingInterrupt): number {
  const keyA = positionOf(a.id);
  const keyB = positionOf(b.id);
  for (let index = 0; index < Math.min(keyA.length, keyB.length); index++) {
    const order = (keyA[index] as number) - (keyB[index] as number);
    if (order !== 0) return order;
  }
  return keyA.length - keyB.length;
}

/**
 * `node:superstep:task/…/node:superstep:task:call` → the task of each level, then the call. Read from
 * each level's end, and a level ends at a `/` after `:superstep:task`, so a node's name may hold a colon.
 */
function positionOf(id: string): number[] {
  const levels = id.split(/(?<=:\d+:\d+)\//);
  const innermost = (levels.pop() ?? "").split(":");
  const outer = levels.map((level) => Number(level.slice(level.lastIndexOf(":") + 1)));
  return [...outer, Number(innermost[innermost.length - 2]), Number(innermost[innermost.length - 1])];
}

/** A superstep that paused: its interrupts, and the updates of its tasks that finished (by position). */
export class SuperstepPaused extends Error {
  override readonly name = "SuperstepPaused";
  constructor(
    readonly interrupts: readonly PendingInterrupt[],
    readonly writes: readonly { readonly task: number; readonly node: string; readonly update: State }[],
  ) {
    super("the superstep paused at an interrupt");
  }
}

/**
 * A threaded run's interrupts: the resume values it was given, and the interrupts its current
 * superstep raised. The driver runs each task through {@link InterruptHost.run}, then asks
 * {@link InterruptHost.pausedAt} before committing.
 * @internal
 */
export class InterruptHost {
  /** Resume values by interrupt id: every one given since the superstep first paused. */
  resumes: Readonly<Record<string, unknown>> = {};
  readonly raised: PendingInterrupt[] = [];
  /** The interrupts the resumed superstep paused at: a subgraph task finds its child's namespace there. */
  pending: readonly PendingInterrupt[] = [];
  /** Where subgraph tasks keep their own checkpoints: under this thread (a threaded run's host only). */
  home: SubgraphHome | undefined;
  /** The checkpoint the current superstep starts from: a fresh subgraph task's namespace names it. */
  checkpointId = "";
  /** The child threads the current superstep's subgraph tasks ran on: removed once it commits. */
  readonly children = new Set<string>();
  /** The answers an interrupt's schema refused in this run: a failed superstep does not keep them. */
  readonly refused = new Set<string>();
  #paused = new Set<number>();

  /** The resume values of a resumed run (they stand until its next superstep commits), and the interrupts they answer. */
  answer(resumes: Readonly<Record<string, unknown>>, pending: readonly PendingInterrupt[] = []): void {
    this.resumes = resumes;
    this.pending = pending;
  }

  /** Runs one task in its frame. A task that paused settles with an empty update: {@link pausedAt} reports it. */
  run(task: Task, superstep: number, position: () => number, body: () => MaybePromise<State>): MaybePromise<State> {
    const frame = new TaskFrame(this, task.node, superstep, position);
    const paused = (): State => {
      this.#paused.add(position());
      return {};
    };
    let result: MaybePromise<State>;
    try {
      result = frames.run(frame, body);
    } catch (error) {
      if (frame.paused) return paused();
      throw error;
    }
    if (!(result instanceof Promise)) return frame.paused ? paused() : result;
    return result.then(
      (update) => (frame.paused ? paused() : update),
      (error: unknown) => {
        if (frame.paused) return paused();
        throw error;
      },
    );
  }

  /** Whether the task at `position` paused (its update is not a write to keep). */
  isPaused(position: number): boolean {
    return this.#paused.has(position);
  }

  /** The pause of a superstep some of whose tasks interrupted, or `undefined`; either way the next superstep starts afresh. */
  pausedAt(tasks: readonly Task[], updates: readonly State[]): SuperstepPaused | undefined {
    if (this.#paused.size === 0) return undefined;
    const writes = writesKeptOnPause(tasks, updates, this.#paused);
    // In the tasks' order, not the order they paused in: async nodes (and durable steps) settle in any order.
    const pause = new SuperstepPaused([...this.raised].sort(byTaskThenCall), writes);
    this.raised.length = 0;
    this.#paused = new Set();
    return pause;
  }
}
