/**
 * Which child `updateState` edits when its thread id is a subgraph's (`tasks[i].state.threadId` of
 * `getState(thread, { subgraphs: true })`), LangGraph's `updateState` with a subgraph's config. The
 * graph it is called on is either the top-level graph, whose subgraph nodes lead along the namespaces
 * to the child (LangGraph's way), or the child's own compiled graph (typed by the child's state and
 * nodes). Either way the thread must be one its parent will resume: each level's latest checkpoint
 * still names the namespace below it, and the child has work left.
 */
import type { ExecutableGraph } from "../executable.js";
import { NAMESPACE_SEPARATOR, namespaceNode, taskNamespace } from "../subgraph-thread.js";
import { subgraphOf } from "../subgraph-specs.js";
import type { Checkpoint, Checkpointer } from "./checkpointer.js";
import { PersistenceError } from "./errors.js";

/** The child an update goes to: the graph whose reducers and fields check it, and how messages name it. */
export interface ChildTarget {
  /** The child graph's tables. */
  readonly graph: ExecutableGraph;
  /** The subgraph nodes from the top-level graph down, `book` or `outer/inner`: how messages name the child. */
  readonly path: string;
}

/** Whether `threadId` is a subgraph's thread (a top-level thread id never contains the separator). */
export function isSubgraphThread(threadId: string): boolean {
  return threadId.includes(NAMESPACE_SEPARATOR);
}

/**
 * The child that the subgraph thread `threadId` belongs to, after checking that its parents are paused
 * inside it. Throws `SUBGRAPH_NOT_FOUND` for a thread id that names no such child (or a child thread with
 * no checkpoint), `SUBGRAPH_NOT_PAUSED` for a child its parent will not resume.
 */
export async function childTarget(graph: ExecutableGraph, checkpointer: Checkpointer, threadId: string): Promise<ChildTarget> {
  const [root = "", ...spaces] = threadId.split(NAMESPACE_SEPARATOR);
  const nodes = spaces.map(namespaceNode);
  if (root === "" || nodes.some((node) => node === undefined)) throw notFound(threadId, "is not the thread of a subgraph");
  const path = nodes.join("/");
  const child = childGraph(graph, nodes as string[], threadId);
  const latest = await checkpointer.latest(threadId);
  if (latest === undefined) {
    throw notFound(
      threadId,
      `has no checkpoint: subgraph "${path}" is not paused there (a subgraph's thread lives while its parent is paused or stopped inside it, and is removed once the parent's superstep commits)`,
    );
  }
  let parent = root;
  for (const [level, ns] of spaces.entries()) {
    const above = await checkpointer.latest(parent);
    if (above === undefined || !resumesInto(above, nodes[level] as string, ns)) {
      throw notPaused(
        threadId,
        path,
        `its parent thread ${JSON.stringify(parent)} will not resume it (the parent's superstep that ran it committed, or the parent forked or replaced its pending work since)`,
      );
    }
    parent = `${parent}${NAMESPACE_SEPARATOR}${ns}`;
  }
  if (latest.next.length === 0) throw notPaused(threadId, path, "it reached END, and its parent holds its result");
  return { graph: child, path };
}

/**
 * Whether resuming `parent` runs the task of `node` whose child lives at `ns` again. (A task whose
 * result the parent kept as a pending write also names it, but its child reached END: `childTarget`
 * refuses that child for having no work left.)
 */
function resumesInto(parent: Checkpoint, node: string, ns: string): boolean {
  return parent.tasks.some((task, index) => task.node === node && taskNamespace(parent, node, index) === ns);
}

/**
 * The graph that checks the update: found from `graph` along the subgraph nodes the namespaces name
 * (`graph` is the top-level one), or `graph` itself when its first node is none of its subgraphs (`graph`
 * is the child's own; `snapshotOf` then checks that it wrote the child's checkpoints).
 */
function childGraph(graph: ExecutableGraph, nodes: readonly string[], threadId: string): ExecutableGraph {
  let current = graph;
  for (const [level, node] of nodes.entries()) {
    const child = subgraphOf(current.nodes.get(node));
    if (child === undefined && level === 0) return graph;
    if (child === undefined) {
      throw notFound(threadId, `names node "${node}" of subgraph "${nodes.slice(0, level).join("/")}", which does not run a subgraph`);
    }
    current = child;
  }
  return current;
}

function notFound(threadId: string, why: string): PersistenceError {
  return new PersistenceError(
    "SUBGRAPH_NOT_FOUND",
    `updateState: thread ${JSON.stringify(threadId)} ${why}. ` +
      "Pass the child's thread as getState(threadId, { subgraphs: true }) shows it: tasks[i].state.threadId, while the run is paused inside the child.",
    { threadId },
  );
}

function notPaused(threadId: string, path: string, why: string): PersistenceError {
  const root = JSON.stringify(threadId.split(NAMESPACE_SEPARATOR)[0]);
  return new PersistenceError(
    "SUBGRAPH_NOT_PAUSED",
    `updateState: subgraph "${path}" (thread ${JSON.stringify(threadId)}) is not paused: ${why}. ` +
      `Edit the top-level thread with updateState(${root}, …), or read where its subgraphs stand now with getState(${root}, { subgraphs: true }).`,
    { threadId },
  );
}
