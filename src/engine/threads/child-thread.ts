/**
 * A subgraph task's child graph, run on its own thread under the parent's (see `subgraph-thread.ts`):
 * it saves a checkpoint per superstep as any thread does, so a pause or a crash inside the child is
 * resumed inside the child, from its own latest checkpoint.
 */
import type { ExecutableGraph } from "../executable.js";
import type { RunOptions } from "../run-types.js";
import type { State } from "../step.js";
import type { SubgraphScope } from "../subgraph-thread.js";
import type { PendingInterrupt } from "../checkpointer.js";
import { ThreadRun } from "./thread-run.js";
import { RunChunks } from "../stream-chunks.js";
import type { ChildStream } from "../stream-modes.js";
import { driveChild } from "../subgraph-stream.js";
import type { ThreadSettings } from "./types.js";

/** How the child's run ended: at END, with its state and its nodes' folded updates; or paused at interrupts. */
export type ChildOutcome =
  | { readonly status: "done"; readonly state: State; readonly update: State }
  | { readonly status: "interrupted"; readonly interrupts: readonly PendingInterrupt[] };

/** A child pauses only where its nodes call `interrupt()`: `subgraph` refuses a child compiled with static interrupts. */
const childSettings: ThreadSettings = { interruptBefore: new Set(), interruptAfter: new Set() };

/**
 * Runs the child on its thread (from START, or from where it stands there) to END or to its interrupts;
 * with `stream` (the parent's stream has `subgraphs: true`), as a stream whose chunks go on to the parent's.
 */
export async function runChildThread(
  graph: ExecutableGraph,
  input: unknown,
  scope: SubgraphScope,
  options: RunOptions,
  stream?: ChildStream,
): Promise<ChildOutcome> {
  const chunks = stream === undefined ? undefined : new RunChunks(stream.modes);
  const thread = await ThreadRun.open({
    graph,
    settings: childSettings,
    input,
    options: { ...options, threadId: scope.threadId, checkpointer: scope.checkpointer },
    api: "invoke",
    child: { resumes: scope.resumes, reducers: graph.reducers },
    sink: chunks?.sink,
    onTasks: chunks?.onTasks,
    onCheckpoint: chunks?.onCheckpoint,
  });
  try {
    if (chunks !== undefined && stream !== undefined) await driveChild(thread, chunks, stream);
    else while ((await thread.superstep()) !== undefined);
  } finally {
    // The answers the child's schemas refused, by the parent's ids: the top-level thread does not keep
    // them, whether the child failed or went on (a node that caught INVALID_RESUME) and a sibling fails.
    for (const id of thread.refused) scope.frame.host.refused.add(scope.frame.idPrefix + id);
  }
  const result = thread.result([]);
  if (result.status === "interrupted") return { status: "interrupted", interrupts: result.interrupt.interrupts ?? [] };
  return { status: "done", state: result.state, update: thread.subgraphUpdate ?? {} };
}
