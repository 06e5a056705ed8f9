/**
 * Which subgraph a child thread id names (`root␟node:checkpoint:task␟…`, as `getState(thread,
 * { subgraphs: true })` shows it in `tasks[i].state.threadId`), and the graph that reads or edits its
 * checkpoints. Shared by `getState` and `getStateHistory`, which read any child whose thread still has
 * checkpoints, and `updateState` (`child-update.ts`), which also checks that the parents will resume it.
 */
import type { ExecutableGraph } from "../executable.js";
import { NAMESPACE_SEPARATOR, namespaceNode } from "../subgraph-thread.js";
import { subgraphOf } from "../subgraph-specs.js";
import { PersistenceError } from "../persistence-errors.js";

/** A child thread id taken apart, with the graph its checkpoints are read and checked by. */
export interface ChildThreadPath {
  /** The top-level thread. */
  readonly root: string;
  /** The namespaces from the top-level thread down, one per level. */
  readonly spaces: readonly string[];
  /** The subgraph node of each namespace. */
  readonly nodes: readonly string[];
  /** The subgraph nodes from the top-level graph down, `book` or `outer/inner`: how messages name the child. */
  readonly path: string;
  /** The child graph's tables. */
  readonly graph: ExecutableGraph;
}

/** Whether `threadId` is a subgraph's thread (a top-level thread id never contains the separator). */
export function isSubgraphThread(threadId: string): boolean {
  return threadId.includes(NAMESPACE_SEPARATOR);
}

/**
 * The child `threadId` names, found from `graph`: along the subgraph nodes its namespaces name, from
 * the first that is one of `graph`'s (`graph` is the top-level one, LangGraph's way, or a level between),
 * or `graph` itself when none is (`graph` is the child's own; `snapshotOf` then checks that it wrote the
 * child's checkpoints). Throws `SUBGRAPH_NOT_FOUND` for a thread id that is no subgraph's, or whose path
 * leaves the graph.
 */
export function findChild(api: string, graph: ExecutableGraph, threadId: string): ChildThreadPath {
  const [root = "", ...spaces] = threadId.split(NAMESPACE_SEPARATOR);
  const nodes = spaces.map(namespaceNode);
  if (root === "" || nodes.some((node) => node === undefined)) throw subgraphNotFound(api, threadId, "is not the thread of a subgraph");
  const named = nodes as string[];
  return { root, spaces, nodes: named, path: named.join("/"), graph: childGraph(api, graph, named, threadId) };
}

function childGraph(api: string, graph: ExecutableGraph, nodes: readonly string[], threadId: string): ExecutableGraph {
  const from = nodes.findIndex((node) => subgraphOf(graph.nodes.get(node)) !== undefined);
  if (from === -1) return graph;
  let current = graph;
  for (let level = from; level < nodes.length; level++) {
    const node = nodes[level] as string;
    const child = subgraphOf(current.nodes.get(node));
    if (child === undefined) {
      throw subgraphNotFound(
        api,
        threadId,
        `names node "${node}" of subgraph "${nodes.slice(0, level).join("/")}", which does not run a subgraph`,
      );
    }
    current = child;
  }
  return current;
}

/**
 * The error for a child thread with no checkpoint: the child never ran there, or it finished and its
 * parent's superstep committed, which removes its thread (its result is in the parent's state).
 */
export function childThreadGone(api: string, child: ChildThreadPath, threadId: string): PersistenceError {
  return subgraphNotFound(
    api,
    threadId,
    `has no checkpoint: subgraph "${child.path}" is not paused or stopped there (a subgraph's thread lives while its parent is paused or stopped inside it, ` +
      `and is removed once the parent's superstep commits: a finished child's result is in its parent's state, getState(${JSON.stringify(child.root)}))`,
  );
}

export function subgraphNotFound(api: string, threadId: string, why: string): PersistenceError {
  return new PersistenceError(
    "SUBGRAPH_NOT_FOUND",
    `${api}: thread ${JSON.stringify(threadId)} ${why}. ` +
      "Pass the child's thread as getState(threadId, { subgraphs: true }) shows it: tasks[i].state.threadId, while the run is paused inside the child.",
    { threadId },
  );
}
