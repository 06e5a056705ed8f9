/**
 * What the export keeps in LangGraph's checkpoints beside the graph's fields, which the graph's nodes,
 * routers and callers never see: a child's folded updates (a channel of the child, see `_child.ts`),
 * and a node's Command goto and its router's routes (pending writes of its task, on no channel).
 */
import type { State } from "../engine/_kernel.js";

/** The hidden channel of an exported child: its nodes' updates, folded with its reducers. */
export const CHILD_UPDATE = "__tsg_child_update__";

/**
 * The state as the graph's own functions see it: without {@link CHILD_UPDATE}. A child's node that is
 * itself a subgraph would otherwise hand it to its own child as input.
 *
 * @example
 * ```ts
 * visibleState({ log: [], __tsg_child_update__: { log: ["a"] } }); // { log: [] }
 * ```
 */
export function visibleState(state: State): State {
  if (!Object.hasOwn(state, CHILD_UPDATE)) return state;
  const { [CHILD_UPDATE]: _folded, ...visible } = state;
  return visible;
}

/**
 * The pending write a node's task adds for its Command goto (the mini engine's goto tasks, END
 * included). LangGraph keeps a finished task's writes across its superstep's pause, but its goto only
 * as `branch:to:…` writes, which a router's writes look like; this one says which were the goto, so
 * the step reported on resume has it. No channel has the name: LangGraph saves the write with the
 * task's others and applies it to nothing.
 */
export const GOTO_WRITE = "__tsg_goto__";

/** The pending write a routed node's task adds for the routes its router took (see {@link GOTO_WRITE}). */
export const ROUTE_WRITE = "__tsg_route__";
