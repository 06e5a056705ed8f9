/**
 * Which child `updateState` edits when its thread id is a subgraph's (`tasks[i].state.threadId` of
 * `getState(thread, { subgraphs: true })`), LangGraph's `updateState` with a subgraph's config. The
 * graph it is called on is either the top-level graph, whose subgraph nodes lead along the namespaces
 * to the child (LangGraph's way), or the child's own compiled graph (typed by the child's state and
 * nodes): see `child-lookup.ts`. Either way the thread must be one its parent will resume: each level's
 * latest checkpoint still names the namespace below it, and the child has work left.
 */
import type { ExecutableGraph } from "../executable.js";
import { NAMESPACE_SEPARATOR, taskNamespace } from "../subgraph-thread.js";
import type { Checkpoint, Checkpointer } from "../checkpointer.js";
import { childThreadGone, findChild } from "./child-lookup.js";
import { PersistenceError } from "../persistence-errors.js";

/** The child an update goes to: the graph whose reducers and fields check it, and how messages name it. */
export interface ChildTarget {
  /** The child graph's tables. */
  readonly graph: ExecutableGraph;
  /** The subgraph nodes from the top-level graph down, `book` or `outer/inner`: how messages name the child. */
  readonly path: string;
}

/**
 * The child that the subgraph thread `threadId` belongs to, after checking that its parents are paused
 * inside it. Throws `SUBGRAPH_NOT_FOUND` for a thread id that names no such child (or a child thread with
 * no checkpoint), `SUBGRAPH_NOT_PAUSED` for a child its parent will not resume.
 */
export async function childTarget(
  graph: ExecutableGraph,
  checkpointer: Checkpointer,
  threadId: string,
  api = "updateState",
): Promise<ChildTarget> {
  const child = findChild(api, graph, threadId);
  const { path, spaces, nodes } = child;
  const latest = await checkpointer.latest(threadId);
  if (latest === undefined) throw childThreadGone(api, child, threadId);
  let parent = child.root;
  for (const [level, ns] of spaces.entries()) {
    const above = await checkpointer.latest(parent);
    if (above === undefined || !resumesInto(above, nodes[level] as string, ns)) {
      throw notPaused(
        api,
        threadId,
        path,
        `its parent thread ${JSON.stringify(parent)} will not resume it (the parent's superstep that ran it committed, or the parent forked or replaced its pending work since)`,
      );
    }
    parent = `${parent}${NAMESPACE_SEPARATOR}${ns}`;
  }
  if (latest.next.length === 0) throw notPaused(api, threadId, path, "it reached END, and its parent holds its result");
  return { graph: child.graph, path };
}

/**
 * Whether resuming `parent` runs the task of `node` whose child lives at `ns` again. (A task whose
 * result the parent kept as a pending write also names it, but its child reached END: `childTarget`
 * refuses that child for having no work left.)
 */
function resumesInto(parent: Checkpoint, node: string, ns: string): boolean {
  return parent.tasks.some((task, index) => task.node === node && taskNamespace(parent, node, index) === ns);
}

function notPaused(api: string, threadId: string, path: string, why: string): PersistenceError {
  const root = JSON.stringify(threadId.split(NAMESPACE_SEPARATOR)[0]);
  return new PersistenceError(
    "SUBGRAPH_NOT_PAUSED",
    `${api}: subgraph "${path}" (thread ${JSON.stringify(threadId)}) is not paused: ${why}. ` +
      `Edit the top-level thread with ${api}(${root}, …), or read where its subgraphs stand now with getState(${root}, { subgraphs: true }).`,
    { threadId },
  );
}
