/**
 * The kernel's rule for an edit between supersteps (`updateState`, a DBOS resume with an update):
 * which node the update counts as, whether counting it so computes that node's routes again, and what
 * cancelling the pending work (`asNode: END`) keeps.
 */
import type { ExecutableGraph } from "../executable.js";
import { commit, type Commit, type RunSnapshot } from "./superstep.js";
import type { KeptWrite } from "./writes.js";
import type { State, Task } from "../step.js";

/** What {@link updateSource} decided. */
export type UpdateSource =
  | { readonly kind: "node"; readonly node: string }
  /** Nothing ran yet (and no `asNode`): the pending work stays as it is. */
  | { readonly kind: "none" }
  /** The last superstep ran several nodes: which one the update comes from is ambiguous (`AMBIGUOUS_UPDATE`). */
  | { readonly kind: "ambiguous"; readonly nodes: readonly string[] };

/**
 * Which node an update counts as: `asNode` when given; else the node the last superstep ran (START for
 * a run's input); several are ambiguous.
 *
 * @example
 * ```ts
 * updateSource(undefined, ["review"]); // { kind: "node", node: "review" }
 * updateSource(undefined, ["a", "b"]); // { kind: "ambiguous", nodes: ["a", "b"] }
 * ```
 */
export function updateSource(asNode: string | undefined, last: readonly string[]): UpdateSource {
  if (asNode !== undefined) return { kind: "node", node: asNode };
  const nodes = [...new Set(last)];
  if (nodes.length > 1) return { kind: "ambiguous", nodes };
  const [node] = nodes;
  return node === undefined ? { kind: "none" } : { kind: "node", node };
}

/**
 * Whether an update counted as `node` replaces the routes `node` took in the last superstep (it was the
 * only node that ran: its router reads the updated state instead), rather than adding its successors
 * to the pending work.
 *
 * @example
 * ```ts
 * reroutes(["review"], "review"); // true
 * reroutes(["draft"], "review"); // false
 * ```
 */
export function reroutes(last: readonly string[], node: string): boolean {
  const nodes = new Set(last);
  return nodes.size === 1 && nodes.has(node);
}

/**
 * The snapshot an update with `asNode: END` commits onto: the writes the paused (or failed) superstep
 * kept for its finished tasks are merged first, in task order, and those tasks join the trace, for they
 * finished; the rest of the pending work (the tasks that did not finish, any join left waiting) is
 * dropped. LangGraph.js keeps the finished tasks' writes too ("value ⛰️ one").
 *
 * @example
 * ```ts
 * const kept = cancelPending(graph, snapshot, [{ task: 0, node: "tool_one", update: { my_key: " one" } }]);
 * if (kept.ok) kept.snapshot.tasks; // []
 * ```
 */
export function cancelPending(
  graph: ExecutableGraph,
  snapshot: RunSnapshot,
  kept: readonly KeptWrite[],
): { readonly ok: true; readonly snapshot: RunSnapshot } | Extract<Commit, { ok: false }> {
  const empty = { ...snapshot, tasks: [], joins: snapshot.joins.map(() => []) };
  if (kept.length === 0) return { ok: true, snapshot: empty };
  const committed = commitKept(graph, snapshot.state, snapshot.tasks, kept);
  if (!committed.ok) return committed;
  return { ok: true, snapshot: { ...empty, state: committed.state, trace: [...snapshot.trace, ...kept.map((write) => write.node)] } };
}

/**
 * The committed state with a superstep's kept writes merged, in task order: what `getState` shows of a
 * checkpoint with pending writes, and what cancelling its pending work keeps.
 *
 * @example
 * ```ts
 * commitKept(graph, checkpoint.state, checkpoint.tasks, keptWrites); // { ok: true, state }
 * ```
 */
export function commitKept(graph: ExecutableGraph, state: State, tasks: readonly Task[], kept: readonly KeptWrite[]): Commit {
  return commit(
    graph,
    state,
    kept.map((write) => tasks[write.task] ?? { node: write.node, sent: false }),
    kept.map((write) => write.update),
  );
}
