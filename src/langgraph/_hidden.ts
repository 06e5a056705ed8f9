/**
 * The channel the export adds to a subgraph's child, which the child's nodes, routers and callers
 * never see: the child's nodes' updates, folded with its reducers (what the child hands its parent by
 * default, kept in the child's checkpoints; see `_child.ts`).
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
