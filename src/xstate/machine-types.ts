/**
 * The names and types of `toMachine`'s machines: the final and waiting states' names, the options, and
 * the context, input, output and event types. Plain declarations; the machine itself is built in `machine.ts`.
 */
import type { RouteTaken } from "../engine/index.js";

/**
 * The final state a run reaches when its step limit stops it.
 *
 * @example
 * ```ts
 * if (actor.getSnapshot().value === STEP_LIMIT_STATE) console.log("stopped before", actor.getSnapshot().output?.stoppedBefore);
 * ```
 */
export const STEP_LIMIT_STATE = "__step_limit__";

/**
 * The tag of the states where a step-by-step machine waits for its next `step` event (and may be persisted).
 *
 * @example
 * ```ts
 * if (actor.getSnapshot().hasTag(WAITING_TAG)) save(actor.getPersistedSnapshot());
 * ```
 */
export const WAITING_TAG = "waiting";

/**
 * The state a superstep machine re-enters once per superstep.
 *
 * @example
 * ```ts
 * actor.getSnapshot().matches(SUPERSTEP_STATE); // true while a parallel graph runs
 * ```
 */
export const SUPERSTEP_STATE = "__superstep__";

/**
 * How the machine advances: `"run"` runs node after node (superstep after superstep) until END;
 * `"step"` runs one node (one superstep) per `step` event and waits in between (tagged
 * {@link WAITING_TAG}), where its snapshot can be persisted.
 */
export type GraphMachineMode = "run" | "step";

/**
 * The machine's states: `"nodes"`, one state per node (sequential graphs only); `"supersteps"`, one
 * state run once per superstep (any graph); `"auto"` (the default), `"supersteps"` exactly when the
 * spec declares a fan-out, a join or a router with a list path map.
 */
export type GraphMachineLayout = "auto" | "nodes" | "supersteps";

/** Options of {@link toMachine}. */
export interface ToMachineOptions {
  /** Default `"run"`. */
  readonly mode?: GraphMachineMode;
  /** The machine's id, shown by the inspector, and the prefix of its state ids. Default `"graph"`. No `.` and no `#`. */
  readonly id?: string;
  /** Stops the run before the next node starts: that node's actor rejects with `ABORTED`. */
  readonly signal?: AbortSignal;
  /** Default `"auto"`: one state per node for sequential graphs, one superstep state otherwise. */
  readonly layout?: GraphMachineLayout;
}

/** What an actor of the machine is created with: the graph's input state, and its bounds. */
export interface GraphMachineInput<S> {
  readonly state: S;
  /** Node executions the run may start. Default: no bound (`DEFAULT_MAX_STEPS`). */
  readonly maxSteps?: number;
  /** Supersteps the run may start (one node each in a `"nodes"` machine). Default 25, or `maxSteps` when larger. */
  readonly recursionLimit?: number;
}

/** The node that ran last, and what it did: what a step-by-step observer reads. */
export interface LastStep<S> {
  readonly node: string;
  readonly update: Partial<S>;
  /** The route key its router returned, when its rule is conditional: a list when it returned a list. */
  readonly route?: string | readonly string[];
}

/** A node the next superstep runs; a Send's task carries its input instead of the state. */
export interface PendingTask {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}

/** Where a superstep machine's run stands between supersteps. Plain data, so a persisted snapshot carries it. */
export interface SuperstepProgress<S> {
  /** Supersteps completed. */
  readonly supersteps: number;
  /** The tasks of the next superstep, in declaration order: empty once the run is over. */
  readonly tasks: readonly PendingTask[];
  /** For each join, in declaration order: the sources that arrived since it last fired. */
  readonly joins: readonly (readonly string[])[];
  /** Deferred nodes' tasks waiting until no other node has one pending (`addNode(name, fn, { defer: true })`); absent when none waits. */
  readonly deferred?: readonly PendingTask[];
  /** The steps of the last superstep, in declaration order; their state is the context's `state`. */
  readonly steps: readonly LastStep<S>[];
}

/** The machine's context: the run so far. Plain data, so a persisted snapshot carries it. */
export interface GraphMachineContext<S> {
  readonly state: S;
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
  readonly maxSteps: number;
  readonly recursionLimit: number;
  readonly last: LastStep<S> | null;
  /** The node the step limit stopped, once the run reached {@link STEP_LIMIT_STATE}. */
  readonly stoppedBefore: string | null;
  /** Superstep machines only: the tasks, joins and steps of the run between supersteps. */
  readonly run?: SuperstepProgress<S>;
}

/** The machine's output: the final state, trace and routes, and how the run ended. */
export type GraphMachineOutput<S> =
  | { readonly outcome: "end"; readonly state: S; readonly trace: string[]; readonly routes: RouteTaken[] }
  | {
      readonly outcome: "step-limit";
      readonly state: S;
      readonly trace: string[];
      readonly routes: RouteTaken[];
      /** The node that would have run next. */
      readonly stoppedBefore: string;
      /** The bound that stopped the run. */
      readonly limit: "maxSteps" | "recursionLimit";
      readonly maxSteps: number;
      readonly recursionLimit: number;
    };

/** The one event the machine takes: in step mode, run the next node (or superstep). */
export interface StepEvent {
  readonly type: "step";
}
