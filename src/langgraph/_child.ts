/**
 * A subgraph node's child on LangGraph.js, in a threaded run. The child is exported as a LangGraph
 * graph of its own (without a checkpointer: it inherits its parent's) and invoked inside the parent's
 * task, so LangGraph keeps its checkpoints under the task's `checkpoint_ns`, as for any subgraph called
 * from a node. A pause inside the child pauses the parent's task; on resume the parent's task runs again,
 * invokes the child again, and LangGraph resumes the child from its own latest checkpoint: the child's
 * completed supersteps do not run again, as on the mini engine.
 *
 * What the child hands its parent stays the mini engine's: by default the fields its nodes wrote, each
 * folded with the child's reducer. LangGraph returns only the child's final state, so the exported
 * child keeps that fold in a hidden channel ({@link CHILD_UPDATE}) that its wrapped nodes also write:
 * it lives in the child's checkpoints, so a resumed child still returns what its earlier supersteps wrote.
 */
import { resolveLimits, type ExecutableGraph, type State, type SubgraphLimits } from "../engine/_kernel.js";
import type { GraphSpec } from "../spec.js";
import { RECORDER_KEY } from "./_recorder.js";

/** The hidden channel of an exported child: its nodes' updates, folded with its reducers. */
export const CHILD_UPDATE = "__tsg_child_update__";

/** A child graph exported to LangGraph.js, as a subgraph task invokes it and a thread reads its state. */
export interface ChildGraph {
  /** The child's LangGraph graph. */
  readonly graph: {
    invoke(input: unknown, config: unknown): Promise<unknown>;
  };
  /** The child's tables. */
  readonly executable: ExecutableGraph;
}

/**
 * The LangGraph export of a subgraph node's child (its tables and spec), or `undefined` when it cannot
 * be exported (no `fields`, a name LangGraph refuses): that child then runs on the mini engine inside
 * the task, and a resume runs it again from its START.
 */
export type ChildExport = (executable: ExecutableGraph, spec: GraphSpec) => ChildGraph | undefined;

/**
 * Invokes the exported child inside the current LangGraph task. The child's nodes are not gated by the
 * parent run's recorder (their tasks are the child's), and its bound is the subgraph's own.
 * Rejects with LangGraph's `GraphInterrupt` when the child paused.
 */
export async function invokeChild(
  graph: ChildGraph["graph"],
  input: unknown,
  limits: SubgraphLimits,
): Promise<{ state: State; update: State }> {
  const { maxSteps, recursionLimit } = resolveLimits(limits);
  const output = (await graph.invoke(input, {
    configurable: { [RECORDER_KEY]: undefined },
    recursionLimit: Math.min(maxSteps, recursionLimit) + 1,
  })) as State;
  const { [CHILD_UPDATE]: update, ...state } = output;
  return { state, update: (update ?? {}) as State };
}
