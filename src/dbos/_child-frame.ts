/**
 * Subgraphs of a durable run. A subgraph task does not run its child inside one DBOS step (a pause
 * inside it would then run the child again from its START): the child runs as a DBOS child workflow of
 * the run (`_child.ts`), each of its tasks a step of that workflow. A child workflow ends where the
 * child stops: at END, at a failure, or at the child's interrupts, returning where the child stands
 * ({@link ChildAt}); the parent's task pauses with the child's interrupts, as on a thread (their ids
 * prefixed with the task's, their namespace added), and keeps that place. The resume starts the next
 * child workflow from it, so the child's completed supersteps never run again, at any depth.
 *
 * The child workflow is started from the task itself, synchronously as the kernel starts the
 * superstep's tasks in declaration order: DBOS numbers a workflow's operations in the order they
 * start, so a replay finds each child workflow where its run left it.
 */
import {
  InterruptHost,
  subgraphEntry,
  type InterruptFrame,
  type RunSnapshot,
  type State,
  type SubgraphLimits,
  type SuperstepPaused,
  type TaskFrame,
} from "../engine/_kernel.js";
import type { JsonValue, PendingInterrupt } from "../engine/index.js";
import { reviveError, type RecordedGraphError } from "./_outcome.js";

/** Where a paused child stands between its workflows: what the next one starts from. */
export interface ChildAt {
  /** The child's run before the superstep it paused in. */
  readonly snapshot: RunSnapshot;
  /** That superstep's tasks that finished: they do not run again. */
  readonly writes: SuperstepPaused["writes"];
  /** The interrupts it paused at, by the ids the child knows them by. */
  readonly interrupts: readonly PendingInterrupt[];
  /** Its nodes' updates so far, folded with its reducers: with the rest, what it hands its parent at END. */
  readonly update: State;
  /** Its own subgraph tasks that paused in that superstep, by namespace: where they stand. */
  readonly children: Readonly<Record<string, ChildAt>>;
}

/** What a child workflow runs: which child graph, from its input or from where it paused, with which answers. */
export interface ChildStart {
  /** The subgraph nodes from the registered graph down to this child (how a recovering process finds its graph). */
  readonly path: readonly string[];
  /** The child's thread id, as on a thread: its parent's, `␟`, its namespace (nodes read it as `context.threadId`). */
  readonly threadId: string;
  readonly input?: unknown;
  readonly at?: ChildAt;
  /** Resume values for the child's interrupts, by the ids the child knows them by (every one given since it paused). */
  readonly resumes: Readonly<Record<string, JsonValue>>;
  readonly limits: SubgraphLimits;
}

/** Where a child workflow ended. */
export type ChildOutcome =
  | { readonly status: "done"; readonly state: State; readonly update: State }
  | { readonly status: "interrupted"; readonly at: ChildAt }
  | { readonly status: "failed"; readonly error: RecordedGraphError };

/** Starts a child workflow and waits for it (the registered workflow function, called from a workflow). */
export type ChildStarter = (start: ChildStart) => Promise<ChildOutcome>;

/**
 * The interrupts of a durable run (the run's workflow, or a child's): the kernel's host, plus where its
 * paused subgraph tasks' children stand, and how to start a child.
 */
export class DurableHost extends InterruptHost {
  /** Where each paused subgraph task's child stands, by namespace; emptied once the superstep commits. */
  pausedChildren: Map<string, ChildAt>;
  readonly path: readonly string[];
  readonly threadId: string;
  readonly startChild: ChildStarter;
  /** The last subgraph task's handling of its child's outcome. */
  #lastChild: Promise<unknown> = Promise.resolve();

  constructor(path: readonly string[], threadId: string, startChild: ChildStarter, children: Readonly<Record<string, ChildAt>> = {}) {
    super();
    this.path = path;
    this.threadId = threadId;
    this.startChild = startChild;
    this.pausedChildren = new Map(Object.entries(children));
  }

  /**
   * Handles a child's outcome after the subgraph tasks started before it handled theirs: their children's
   * interrupts are raised in task order, whichever child workflow ends first (DBOS's timing, not the graph's).
   */
  inOrder<T, R>(outcome: Promise<T>, handle: (outcome: T) => R): Promise<R> {
    const ordered = Promise.all([outcome, this.#lastChild]).then(([value]) => handle(value));
    this.#lastChild = ordered.then(
      () => undefined,
      () => undefined,
    );
    return ordered;
  }

  /** Answers, and the interrupts they answer: a paused subgraph task finds its child's namespace there. */
  override answer(resumes: Readonly<Record<string, unknown>>, pending: readonly PendingInterrupt[] = []): void {
    super.answer(resumes, pending);
    if (pending.length === 0) this.pausedChildren.clear();
  }
}

/**
 * The frame a subgraph task runs in: its node's `interrupt` calls are the task's, and `runChild` runs
 * the child as a child workflow, from where it paused when it did.
 */
export class ChildTaskFrame implements InterruptFrame {
  readonly #task: TaskFrame;
  readonly #host: DurableHost;

  constructor(task: TaskFrame, host: DurableHost) {
    this.#task = task;
    this.#host = host;
  }

  get paused(): boolean {
    return this.#task.paused;
  }

  call(value: JsonValue, name: string | undefined): ReturnType<InterruptFrame["call"]> {
    return this.#task.call(value, name);
  }

  runChild(
    child: object,
    input: unknown,
    limits: SubgraphLimits,
    refusal: Error | undefined,
  ): Promise<{ readonly state: State; readonly update: State }> {
    const task = this.#task;
    const host = this.#host;
    // The refusal again, naming this driver and the parent's task.
    if (refusal !== undefined) throw subgraphEntry.refusal("runOnDBOS", task.node, child);
    const { ns, threadId, resumes } = subgraphEntry.place(task, host.threadId);
    const at = host.pausedChildren.get(ns);
    const start: ChildStart = {
      path: [...host.path, task.node],
      threadId,
      ...(at === undefined ? { input } : { at }),
      resumes,
      limits,
    };
    // Called now, not after an await: the child workflow takes its place among the superstep's operations in task
    // order. Unbound: DBOS reads `this` of a workflow function as the instance it belongs to.
    const { startChild } = host;
    return host.inOrder(startChild(start), (outcome) => {
      if (outcome.status === "failed") throw reviveError(outcome.error, start.threadId);
      if (outcome.status === "done") {
        host.pausedChildren.delete(ns);
        return { state: outcome.state, update: outcome.update };
      }
      host.pausedChildren.set(ns, outcome.at);
      return subgraphEntry.pause(task, ns, outcome.at.interrupts);
    });
  }
}
