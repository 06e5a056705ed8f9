/**
 * The one entry through which a driver that runs a subgraph task's child itself (the DBOS workflow,
 * as a child workflow; the LangGraph runner, as LangGraph's subgraph) reads what the mini engine's
 * subgraph tasks read: which graph a node runs as its child, where the child runs (its namespace,
 * thread id and answers), how the parent's task pauses for the child's interrupts, the refusal of a
 * child with static interrupts, and the child's updates folded for its parent.
 */
import { threadSettingsOf } from "./compiled-graph.js";
import type { PendingInterrupt } from "./checkpointer.js";
import type { TaskFrame } from "./interrupt-scope.js";
import { childPauseRefusal } from "./kernel/pauses.js";
import type { ReducerTable } from "./merge.js";
import type { State } from "./step.js";
import { foldUpdates } from "./subgraph-output.js";
import { childGraphOf, type ChildGraph } from "./subgraph-specs.js";
import { childPlace, pauseForChild, type ChildPlace } from "./subgraph-thread.js";
import type { InvalidOptionError } from "../errors.js";

/**
 * Subgraphs for a driver. A threaded run's subgraph tasks use the same functions (`subgraph.ts`,
 * `subgraph-thread.ts`), so a child's place and pause are the same whichever engine runs it.
 *
 * @example
 * ```ts
 * const child = subgraphEntry.graphOf(graph.nodes.get(task.node));
 * const { ns, threadId, resumes } = subgraphEntry.place(frame, runId);
 * ```
 */
export const subgraphEntry = {
  /** The child graph a node runs (its compiled graph and spec), `undefined` for a node that runs none. */
  graphOf(node: unknown): ChildGraph | undefined {
    return childGraphOf(node);
  },

  /** Where the child of the subgraph task running in `frame` runs, under the parent thread or run `parent`. */
  place(frame: TaskFrame, parent: string): ChildPlace {
    return childPlace(frame, parent);
  },

  /** Pauses the parent's task for its child's interrupts (at namespace `ns`): each id prefixed with the task's. */
  pause(frame: TaskFrame, ns: string, interrupts: readonly PendingInterrupt[]): never {
    return pauseForChild({ frame, ns }, interrupts);
  },

  /** The refusal of `child` compiled with static interrupts, naming the driver's API and the parent's task. */
  refusal(api: string, node: string | undefined, child: object): InvalidOptionError | undefined {
    return childPauseRefusal(api, node, threadSettingsOf(child));
  },

  /** `into` with the updates of `steps` folded in by the child's reducers: what the child hands its parent. */
  fold(reducers: ReducerTable, into: State, steps: readonly { readonly update: State }[]): State {
    return foldUpdates(reducers, into, steps);
  },
};
