/**
 * A superstep of several tasks, run by the mini engine's driver: at most `maxConcurrency` at once, each
 * on its own copy of the committed state. When one fails, the others' signals abort, no further task
 * starts, and once the started ones settle the kernel picks the failure to report and the writes kept.
 * When the run's signal aborts, the superstep ends at once: a node that never settles cannot hold it.
 */
import type { GraphError } from "../errors.js";
import { reportedFailure, type Settled } from "./kernel/failures.js";
import { abortedWhile } from "./kernel/superstep.js";
import { writesKeptOnFailure, type KeptWrite } from "./kernel/writes.js";
import { keepsNoWrite } from "./kernel/handoff.js";
import type { MaybePromise } from "./maybe-promise.js";
import { isThenable } from "../_thenable.js";
import type { State, Task } from "./step.js";
import type { SuperstepScope, TaskContext } from "./task-context.js";

/** What a parallel superstep asks of the run that drives it. */
export interface ParallelHost {
  readonly maxConcurrency: number;
  readonly signal: AbortSignal | undefined;
  /** Called as each task succeeds on its own (see `RunSettings.onWrite`). */
  readonly onWrite: ((write: KeptWrite) => void) | undefined;
  /** A task's context, made before it starts. */
  context(task: Task): TaskContext;
  /** Starts a task under its policies (and, in a threaded run, in its interrupt frame). */
  start(task: Task, context: TaskContext): MaybePromise<State>;
  /** The run's error for a failure at `node`, with the writes the superstep keeps. */
  fail(error: unknown, node: string, kept?: readonly KeptWrite[]): GraphError;
}

type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: GraphError };

/** One parallel superstep; {@link ParallelSuperstep.run} runs it once. */
export class ParallelSuperstep {
  readonly #host: ParallelHost;
  readonly #tasks: readonly Task[];
  readonly #scope: SuperstepScope;
  /** The tasks' places in the superstep, when only some of its tasks run. */
  readonly #positions: readonly number[] | undefined;
  /** The updates already known for the superstep's other tasks. */
  readonly #kept: readonly KeptWrite[];
  readonly #limit: number;
  readonly #updates: State[];
  readonly #settled: (Settled | undefined)[];
  #started = 0;
  #running = 0;
  #failed = false;
  #launching = false;
  #outcome: Outcome | undefined;
  #deliver: (() => void) | undefined;
  #stopListening: (() => void) | undefined;

  constructor(
    host: ParallelHost,
    tasks: readonly Task[],
    scope: SuperstepScope,
    positions: readonly number[] | undefined,
    kept: readonly KeptWrite[],
  ) {
    this.#host = host;
    this.#tasks = tasks;
    this.#scope = scope;
    this.#positions = positions;
    this.#kept = kept;
    this.#limit = Math.min(host.maxConcurrency, tasks.length);
    this.#updates = new Array(tasks.length);
    this.#settled = new Array(tasks.length);
  }

  /** Runs the tasks and returns their updates in order; synchronously when every task settled synchronously. */
  run(): MaybePromise<State[]> {
    const { signal } = this.#host;
    if (signal !== undefined) {
      const listener = (): void => this.#aborted(signal);
      signal.addEventListener("abort", listener, { once: true });
      this.#stopListening = () => signal.removeEventListener("abort", listener);
    }
    this.#launch();
    if (this.#outcome !== undefined) return this.#result();
    return new Promise<void>((resolve) => (this.#deliver = resolve)).then(() => this.#result());
  }

  #result(): State[] {
    const outcome = this.#outcome;
    if (outcome?.ok === false) throw outcome.error;
    return this.#updates;
  }

  #end(outcome: Outcome): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    this.#stopListening?.();
    this.#deliver?.();
  }

  /** A loop rather than recursion: a thousand synchronous Sends must not nest a thousand frames deep. */
  #launch(): void {
    if (this.#launching) return;
    this.#launching = true;
    while (!this.#failed && this.#outcome === undefined && this.#running < this.#limit && this.#started < this.#tasks.length) {
      this.#running += 1;
      this.#start(this.#started++);
    }
    this.#launching = false;
    this.#finishIfDone();
  }

  #start(index: number): void {
    const task = this.#tasks[index] as Task;
    const context = this.#host.context(task);
    let pending: MaybePromise<State>;
    try {
      pending = this.#host.start(task, context);
    } catch (error) {
      this.#settle(index, context, undefined, error);
      return;
    }
    if (!isThenable(pending)) {
      this.#settle(index, context, pending);
      return;
    }
    pending.then(
      (update) => this.#settle(index, context, update),
      (error: unknown) => this.#settle(index, context, undefined, error),
    );
  }

  #settle(index: number, context: TaskContext, update: State | undefined, error?: unknown): void {
    this.#running -= 1;
    const scope = this.#scope;
    const task = this.#tasks[index] as Task;
    if (update !== undefined) {
      this.#updates[index] = update;
      this.#settled[index] = { failed: false, cancelled: scope.cancelled };
      // A handoff to the parent keeps no write (kernel/handoff.ts): if the superstep pauses, it runs again.
      if (!scope.cancelled && !keepsNoWrite(update))
        this.#host.onWrite?.({ task: this.#positions?.[index] ?? index, node: task.node, update });
    } else {
      this.#settled[index] = { failed: true, error, cancelled: scope.cancelled && context.readSignal };
      if (!this.#failed) {
        this.#failed = true;
        scope.cancel(`"${task.node}" failed in the same superstep`);
      }
    }
    this.#launch();
  }

  #finishIfDone(): void {
    if (this.#launching || this.#running > 0 || (this.#started < this.#tasks.length && !this.#failed)) return;
    if (!this.#failed) {
      this.#end({ ok: true });
      return;
    }
    const index = reportedFailure(this.#settled);
    const succeeded = writesKeptOnFailure(this.#tasks, this.#settled, this.#updates, this.#positions);
    const kept = [...this.#kept, ...succeeded].sort((a, b) => a.task - b.task);
    this.#end({ ok: false, error: this.#host.fail(this.#settled[index]?.error, (this.#tasks[index] as Task).node, kept) });
  }

  #aborted(signal: AbortSignal): void {
    const tasks = this.#tasks;
    const node = tasks.find((_, index) => index < this.#started && this.#settled[index] === undefined)?.node ?? (tasks[0] as Task).node;
    this.#scope.cancel("the run was aborted");
    this.#end({ ok: false, error: this.#host.fail(abortedWhile(node, signal), node) });
  }
}
