/**
 * The public shapes of a run: its options, its steps and its result. Types only, shared by `invoke`,
 * `stream`, threaded runs and the other engines' runners.
 */
import type { RunObserver } from "./observer.js";
import type { RouteTaken } from "./step.js";

/**
 * What `stream` yields: per-node steps (`"updates"`), the merged state per superstep (`"values"`),
 * the events nodes write with `context.writer` (`"custom"`), the text deltas of the messages nodes
 * write as `MessageDelta`s (`"messages"`), each task's start and result (`"tasks"`), each checkpoint
 * as written (`"checkpoints"`, a thread only), both of those (`"debug"`), or a list of them.
 */
export type StreamMode = "updates" | "values" | "custom" | "messages" | "tasks" | "checkpoints" | "debug";

/** Options for one run. */
export interface RunOptions {
  /** The most node executions this run may start: a positive integer. Default: no bound (`recursionLimit` bounds the run). */
  readonly maxSteps?: number;
  /**
   * The most supersteps this run may start: a positive integer. Default `DEFAULT_RECURSION_LIMIT` (25),
   * or `maxSteps` when that is larger, so a sequential graph stops exactly where `maxSteps` says.
   */
  readonly recursionLimit?: number;
  /**
   * Stops the run: before the next superstep, or at once while nodes run (their `context.signal`
   * aborts, and their results are discarded). The error keeps the last committed state.
   */
  readonly signal?: AbortSignal;
  /** The most nodes of one superstep that run at once: a positive integer. Default: all of them. Merge order stays declaration order. */
  readonly maxConcurrency?: number;
  /**
   * Watches the run (its supersteps, node attempts, routes, retries, checkpoints), such as
   * `otelObserver({ tracer })` from `typed-state-graph/otel`. Subgraphs' runs inherit it. Without
   * one the run pays nothing for instrumentation.
   */
  readonly observer?: RunObserver;
}

/** Options for `stream`. */
export interface StreamOptions<M extends StreamMode | readonly StreamMode[] = "updates"> extends RunOptions {
  /** `"updates"` (the default) yields each node's step; `"values"` the merged state per superstep; `"custom"` the nodes' own events; a list yields `[mode, payload]` pairs. */
  readonly streamMode?: M;
  /**
   * Also yield the chunks of the runs of subgraph nodes (at any depth), each as `[namespace, chunk]`, or
   * `[namespace, mode, chunk]` with a list of modes; the graph's own chunks have the namespace `[]`, a
   * subgraph's the ids of the tasks it runs in (`["p_two:2:0"]`, nested: `["p_two:2:0", "c_three:3:0"]`).
   */
  readonly subgraphs?: boolean;
}

/**
 * A task about to run (`streamMode: "tasks"`), as LangGraph's task event: all of a superstep's come
 * before any of them runs.
 *
 * @example
 * ```ts
 * for await (const event of graph.stream(input, { streamMode: "tasks" }))
 *   if ("input" in event) console.log(`${event.id} starts`); // "a:1:0 starts"
 * ```
 */
export interface TaskStart<N extends string = string> {
  /** `node:superstep:position`: the task's node, its superstep (1 for the first) and its place in it (the prefix of its interrupts' ids). */
  readonly id: string;
  readonly name: N;
  /** What the node reads: the committed state, or a `Send`'s input. */
  readonly input: unknown;
}

/**
 * Why a task failed, as JSON: the error's `name`, its `code` when it has one, and its `message`. The
 * `tasks` stream mode's results carry it, and so do the failed tasks of a thread's `getState` (LangGraph's
 * `tasks[i].error`, kept as a pending write of the checkpoint the failed superstep started from).
 *
 * @example
 * ```ts
 * const snapshot = await graph.getState("order-42", { checkpointer });
 * snapshot?.tasks.find((task) => task.error !== undefined)?.error?.message; // 'invoke: node "two" failed: …'
 * ```
 */
export interface TaskError {
  readonly name: string;
  readonly code?: string;
  readonly message: string;
}

/**
 * A task's outcome (`streamMode: "tasks"`), as LangGraph's task result: its update, or its error, or the interrupts it paused at.
 *
 * @example
 * ```ts
 * for await (const event of graph.stream(input, { streamMode: "tasks" }))
 *   if ("result" in event && event.error !== null) console.log(`${event.name} failed: ${event.error.code}`);
 * ```
 */
export interface TaskResult<S, N extends string = string> {
  readonly id: string;
  readonly name: N;
  /** The update it returned; `undefined` when it failed or paused. */
  readonly result: Partial<S> | undefined;
  /** Why it failed, as JSON; `null` when it did not. */
  readonly error: TaskError | null;
  /** The interrupts it paused at (a thread only); `[]` when it did not pause. */
  readonly interrupts: readonly { readonly id: string; readonly value: unknown }[];
}

/**
 * What `streamMode: "tasks"` yields: a {@link TaskStart} or a {@link TaskResult}.
 *
 * @example
 * ```ts
 * const events: TaskEvent<State>[] = [];
 * for await (const event of graph.stream(input, { streamMode: "tasks" })) events.push(event);
 * ```
 */
export type TaskEvent<S, N extends string = string> = TaskStart<N> | TaskResult<S, N>;

/**
 * One event of `streamMode: "debug"`, LangGraph's shape: `step` is the superstep (a checkpoint's is the
 * supersteps it has committed), `payload` a checkpoint, a task start or a task result. Without a
 * thread no checkpoint is written, so only the task events come.
 *
 * @example
 * ```ts
 * for await (const event of graph.stream(input, { threadId: "t1", checkpointer, streamMode: "debug" }))
 *   console.log(event.step, event.type); // 0 "checkpoint", 1 "task", 1 "task_result", 1 "checkpoint", …
 * ```
 */
export type DebugEvent<S, N extends string = string, C = unknown> =
  | { readonly step: number; readonly type: "checkpoint"; readonly timestamp: string; readonly payload: C }
  | { readonly step: number; readonly type: "task"; readonly timestamp: string; readonly payload: TaskStart<N> }
  | { readonly step: number; readonly type: "task_result"; readonly timestamp: string; readonly payload: TaskResult<S, N> };

/** One completed node execution (of a graph whose nodes are `N`). Detached: mutating it affects nothing else. */
export interface Step<S, N extends string = string> {
  readonly node: N;
  /** The update the node returned (`{}` when it returned nothing). */
  readonly update: Partial<S>;
  /** The state after its superstep merged (for a sequential graph: after this node's update). */
  readonly state: S;
  /** The route key the router returned after this node: a list when it returned several keys or Sends. */
  readonly route?: string | readonly string[];
  /** The nodes this node's `Command` goto added to the next superstep (one per Send), when it returned one. */
  readonly goto?: readonly string[];
}

/** The merged state after one superstep (`streamMode: "values"`); the stream's first one is the input state, superstep 0. */
export interface SuperstepValues<S> {
  /** 0 for the input state the stream begins with, 1 for the first superstep. */
  readonly superstep: number;
  /** The nodes that ran in it, in declaration order. */
  readonly nodes: readonly string[];
  readonly state: S;
}

/** An event a node wrote with `context.writer` (`streamMode: "custom"`), in the order written. */
export interface CustomEvent {
  readonly node: string;
  /** What the node wrote, as it wrote it (not copied). */
  readonly event: unknown;
  /** For an event a subgraph's node wrote: where that node sits, through the subgraph nodes (`["sub", "inner"]`). */
  readonly path?: readonly string[];
}

/** A text delta a node wrote as a `MessageDelta` (`streamMode: "messages"`), in the order written. */
export interface MessageStreamEvent {
  readonly node: string;
  /** The text that arrived. */
  readonly delta: string;
  /** The message it belongs to. */
  readonly messageId: string;
}

/** What `invoke` resolves with; `N` is the graph's node names (`CompiledGraph<S, N>`). */
export interface RunResult<S, N extends string = string> {
  readonly state: S;
  /** Completed nodes, in order (superstep by superstep, declaration order within one). */
  readonly trace: N[];
  /**
   * Every node execution. Built on first read: each step's `state` is replayed from the committed
   * updates, so a run keeps only its updates, not a state per step.
   */
  readonly steps: Step<S, N>[];
  /** Every conditional choice, in order (START's included): what coverage reports read. */
  readonly routes: RouteTaken[];
  /** How many supersteps ran. */
  readonly supersteps: number;
}
