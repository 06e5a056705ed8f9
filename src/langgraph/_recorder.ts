/**
 * What a run on LangGraph.js learns from inside its nodes and routers, and the gate that holds a
 * superstep's nodes until the run has checked its bounds. LangGraph's stream says neither which task
 * returned which update nor which route a router took; `runOnLangGraph` needs both to report the mini
 * engine's trace, routes and errors. The recorder travels in the run's `configurable`, so one
 * exported graph serves concurrent runs; a plain LangGraph `invoke` has none and is not gated.
 */
import type { Settled, State, Task } from "../engine/_kernel.js";
import type { RouteTaken } from "../engine/index.js";
import { START } from "../spec.js";

/** The `configurable` key the recorder travels under. */
export const RECORDER_KEY = "typed_state_graph_recorder";

/** The `configurable` key under which LangGraph gives a node and its router their task's id. */
const TASK_ID_KEY = "__pregel_task_id";

/**
 * What a gated node writes to its run's stream (LangGraph's `custom` mode) as it reaches the gate.
 * LangGraph announces all the tasks of a superstep (`tasks` events) before it starts any of them, and
 * its stream keeps the order things were written in: so when the run reads this, it has read the whole
 * announcement of the superstep the task belongs to.
 */
export class TaskStarted {
  readonly id: string;

  constructor(id: string) {
    this.id = id;
  }
}

/** Thrown inside a task the run did not let start (a bound, an abort, or the caller stopped reading). */
export class TaskRefused extends Error {
  override readonly name = "TaskRefused";
}

/**
 * Thrown by the node of a superstep that returned last, when the superstep's merged state would not
 * commit (the state schema refuses it): LangGraph then commits nothing of the superstep, as the mini
 * engine's kernel commits nothing, and the run reports the kernel's failure (`INVALID_STATE`).
 */
export class SuperstepRefused extends Error {
  override readonly name = "SuperstepRefused";
}

/** One LangGraph task of a recorded run: a node's run and the router after it. */
export class TaskRecord {
  readonly id: string;
  readonly node: string;
  /** The node's validated update, once it returned (without its Command's goto). */
  update: State | undefined;
  /** The tasks the node's `Command` goto added, when it returned one (END included, as the mini engine records it). */
  goto: readonly Task[] | undefined;
  /** Why the node failed (the engine's StepFailure, or what it threw), when it did. */
  nodeFailure: { readonly error: unknown } | undefined;
  /** Whether the node failed after its signal aborted, having read it: it was cancelled, it did not fail on its own. */
  cancelled = false;
  /** Whether the node paused at an in-node `interrupt` (LangGraph commits nothing of its superstep then). */
  paused = false;
  /** Why the router after the node failed, when it did. */
  routerFailure: { readonly error: unknown } | undefined;
  /** The routes the router after the node took. */
  routes: readonly RouteTaken[] = [];
  /** Whether that router returned a list (of keys or Sends). */
  list = false;
  /** Resolves once the node returned or failed (LangGraph may stop waiting for it when a sibling fails). */
  readonly finished: Promise<void>;
  /** Marks the node as returned or failed. */
  readonly finish: () => void;

  /** How the node settled, for the kernel's choice of the failure to report. */
  get settled(): Settled | undefined {
    if (this.nodeFailure !== undefined) return { failed: true, error: this.nodeFailure.error, cancelled: this.cancelled };
    return this.update === undefined ? undefined : { failed: false, cancelled: false };
  }

  constructor(id: string, node: string) {
    this.id = id;
    this.node = node;
    let finish!: () => void;
    this.finished = new Promise<void>((resolve) => (finish = resolve));
    this.finish = finish;
  }
}

interface Gate {
  readonly admitted: Promise<void>;
  readonly admit: () => void;
  readonly refuse: (error: Error) => void;
}

/** One run's record, and its gate. */
export class RunRecorder {
  /** The routes the router after START took (it runs in LangGraph's hidden `__start__` task). */
  readonly startRoutes: RouteTaken[] = [];
  /**
   * The `defineInterrupt` name of each task that paused at one, by LangGraph task id (LangGraph keeps
   * no name): this run's, and its children's, whose runs share the map.
   */
  readonly interruptNames: Map<string, string>;
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #gates = new Map<string, Gate>();
  #closed: Error | undefined;
  /** The admitted superstep's tasks and its commit check, until the check has run. */
  #superstep: { readonly ids: readonly string[]; readonly check: () => Error | undefined } | undefined;

  constructor(interruptNames = new Map<string, string>()) {
    this.interruptNames = interruptNames;
  }

  /** The record of task `id`, created by the first wrapper that reports on it. */
  task(id: string, node: string): TaskRecord {
    let record = this.#tasks.get(id);
    if (record === undefined) {
      record = new TaskRecord(id, node);
      this.#tasks.set(id, record);
    }
    return record;
  }

  /** The record of task `id`, if its node started. */
  recorded(id: string): TaskRecord | undefined {
    return this.#tasks.get(id);
  }

  /**
   * Resolves when the run lets task `id` start; rejects with {@link TaskRefused} when it does not.
   * `writer` is LangGraph's writer of the task's config (its run's `custom` stream): the task tells
   * its run there that it reached the gate (see {@link TaskStarted}).
   */
  admission(id: string, writer: unknown): Promise<void> {
    const gate = this.#gate(id);
    if (typeof writer === "function") writer(new TaskStarted(id));
    return gate.admitted;
  }

  /**
   * Lets the tasks start. `check`, when given, is asked once every one of them has returned an update
   * (see {@link RunRecorder.refusal}).
   */
  admit(ids: readonly string[], check?: () => Error | undefined): void {
    this.#superstep = check === undefined ? undefined : { ids, check };
    for (const id of ids) this.#gate(id).admit();
  }

  /**
   * Asked by a node as it returns: when it is the last of its superstep to return and every sibling
   * returned an update, the superstep's commit check (the state schema's), whose error the node throws
   * instead of returning, so that LangGraph commits nothing of the superstep.
   */
  refusal(id: string): Error | undefined {
    const superstep = this.#superstep;
    if (superstep === undefined || !superstep.ids.includes(id)) return undefined;
    const records = superstep.ids.map((task) => this.#tasks.get(task));
    if (!records.every((record) => record?.update !== undefined && record.nodeFailure === undefined && !record.paused)) return undefined;
    this.#superstep = undefined;
    return superstep.check();
  }

  /** Keeps the tasks from starting: their nodes reject with `error` without running. */
  refuse(ids: readonly string[], error: Error): void {
    for (const id of ids) this.#gate(id).refuse(error);
  }

  /** Refuses every task not admitted yet, now and later: the run is over. */
  close(): void {
    this.#closed ??= new TaskRefused("the run is over");
    for (const gate of this.#gates.values()) gate.refuse(this.#closed);
  }

  /** Records the routes a router took; the router after START has no node task. */
  routed(source: string, taskId: string | undefined, routes: readonly RouteTaken[], list: boolean): void {
    if (source === START || taskId === undefined) {
      this.startRoutes.push(...routes);
      return;
    }
    const record = this.task(taskId, source);
    record.routes = routes;
    record.list = list;
  }

  #gate(id: string): Gate {
    let gate = this.#gates.get(id);
    if (gate === undefined) {
      let admit!: () => void;
      let refuse!: (error: Error) => void;
      const admitted = new Promise<void>((resolve, reject) => {
        admit = resolve;
        refuse = reject;
      });
      admitted.catch(() => undefined); // a refused task may never have asked
      gate = { admitted, admit, refuse };
      this.#gates.set(id, gate);
      if (this.#closed !== undefined) refuse(this.#closed);
    }
    return gate;
  }
}

/** The recorder of the run a node or router was called in, if any. */
export function recorderOf(config: unknown): RunRecorder | undefined {
  const recorder = configurableOf(config)?.[RECORDER_KEY];
  return recorder instanceof RunRecorder ? recorder : undefined;
}

/** The id of the LangGraph task a node or router runs in. */
export function taskIdOf(config: unknown): string | undefined {
  const id = configurableOf(config)?.[TASK_ID_KEY];
  return typeof id === "string" ? id : undefined;
}

function configurableOf(config: unknown): Record<string, unknown> | undefined {
  if (typeof config !== "object" || config === null) return undefined;
  const configurable = (config as { configurable?: unknown }).configurable;
  return typeof configurable === "object" && configurable !== null ? (configurable as Record<string, unknown>) : undefined;
}
