/**
 * The engine's instrumentation seam: what a run tells an observer (OpenTelemetry spans, logs, metrics)
 * as it happens. Types only, plus the one helper drivers share. The engine calls these hooks and knows
 * nothing of what an observer does with them; `typed-state-graph/otel` is one observer. A run without
 * an observer checks for one once, at its start, and allocates nothing for it afterwards.
 */
import type { NodeContext } from "./context.js";
import type { RouteTaken } from "./step.js";

/** Which driver of the run kernel runs a graph: the mini engine (`invoke`, `stream`) or the XState machine. */
export type ObservedEngine = "mini" | "xstate";

/** What an observer learns when a run starts. */
export interface ObservedRunStart {
  /** The spec hash of the graph: the same graph hashes the same in every process. */
  readonly specHash: string;
  /** The graph's nodes, in declaration order. */
  readonly nodes: readonly string[];
  readonly engine: ObservedEngine;
  /** The API that started it: `invoke`, `stream`, `runOnXState`, … */
  readonly api: string;
  /** The thread of a threaded run. */
  readonly threadId: string | undefined;
  /** Whether this run continues a thread from a checkpoint (`invoke(null, { threadId })`). */
  readonly resumed: boolean;
  /** The context of the subgraph node that started this run, when the run is a subgraph's: its parent. */
  readonly parent: NodeContext | undefined;
}

/** How a run ended, as its observer hears it. */
export type ObservedRunEnd =
  | { readonly status: "done"; readonly supersteps: number }
  | { readonly status: "interrupted"; readonly supersteps: number }
  | { readonly status: "failed"; readonly supersteps: number; readonly error: unknown }
  /** The stream's consumer stopped reading before the run ended. */
  | { readonly status: "abandoned"; readonly supersteps: number };

/** A retry the node's retry policy decided on, after attempt `attempt` failed. */
export interface ObservedRetry {
  readonly node: string;
  readonly superstep: number;
  /** The attempt that failed (the next one is `attempt + 1`). */
  readonly attempt: number;
  /** How long the engine waits before the next attempt, in ms. */
  readonly delay: number;
  readonly error: unknown;
}

/** A threaded run paused at an interrupt. */
export interface ObservedInterrupt {
  readonly when: "before" | "after" | "during";
  readonly nodes: readonly string[];
}

/** A checkpoint a threaded run saved. */
export interface ObservedCheckpoint {
  readonly id: string;
  /** The checkpoint's position on its thread's line (0 for the input checkpoint). */
  readonly step: number;
  /** `input`, `loop` (after a superstep) or `update` (`updateState`). */
  readonly source: string;
}

/**
 * What watches one run. Every hook is optional; the engine calls them in run order: supersteps one
 * after another, the attempts of a superstep inside it (in parallel when its nodes run in parallel),
 * then {@link RunObservation.runEnd} exactly once.
 *
 * @example
 * ```ts
 * const observation: RunObservation = {
 *   superstepStart: (superstep, nodes) => console.log(`superstep ${superstep}: ${nodes.join(", ")}`),
 *   runEnd: (end) => console.log(`run ${end.status} after ${end.supersteps} supersteps`),
 * };
 * ```
 */
export interface RunObservation {
  /** A superstep was admitted; `nodes` are its tasks' nodes, in declaration order. */
  superstepStart?(superstep: number, nodes: readonly string[]): void;
  /** The superstep committed (`error` undefined) or failed (nothing of it committed). */
  superstepEnd?(superstep: number, error: unknown): void;
  /**
   * Wraps one attempt of a node: call `attempt()` exactly once and return what it returns (a value, or
   * a promise of one), so the observer sees it start, settle and fail. `context` is the attempt's own
   * node context (`node`, `superstep`, `attempt`); the node receives that same object.
   */
  attempt?<T>(context: NodeContext, attempt: () => T | Promise<T>): T | Promise<T>;
  /** A node's retry policy decided to run it again. */
  retry?(retry: ObservedRetry): void;
  /** A cached node's update came from the cache store: no attempt ran. */
  cacheHit?(context: NodeContext): void;
  /** A conditional edge chose `route` (START's included). */
  route?(route: RouteTaken): void;
  /** A threaded run paused at an interrupt; {@link RunObservation.runEnd} follows with `interrupted`. */
  interrupt?(interrupt: ObservedInterrupt): void;
  /**
   * A threaded run saved a checkpoint. Not called for the one a resumed superstep that failed saves to
   * keep its answers: that one is written after the run ended (`runEnd` with the failure came first).
   */
  checkpoint?(checkpoint: ObservedCheckpoint): void;
  /** The run ended: called once, last. */
  runEnd?(end: ObservedRunEnd): void;
}

/**
 * Watches runs: `invoke(input, { observer })`, `stream(input, { observer })`. For each run it returns
 * what watches that run, or `undefined` to let the run go unobserved. A subgraph's run is observed by
 * its parent's observer, with `parent` set to the subgraph node's context.
 *
 * @example
 * ```ts
 * const logging: RunObserver = {
 *   run: (start) => ({
 *     attempt: (context, attempt) => {
 *       console.log(`${start.specHash} ${context.node} attempt ${context.attempt}`);
 *       return attempt();
 *     },
 *   }),
 * };
 * await graph.invoke(input, { observer: logging });
 * ```
 */
export interface RunObserver {
  run(start: ObservedRunStart): RunObservation | undefined;
}
