/**
 * `invoke` with a `threadId`: the thread runner driven to END or to an interrupt, one superstep at a
 * time, each saved as a checkpoint before the next starts.
 */
import type { ExecutableGraph } from "../executable.js";
import { isThenable } from "../../_thenable.js";
import type { State } from "../step.js";
import { stepsOf, type CommittedSuperstep } from "./thread-result.js";
import { ThreadRun } from "./thread-run.js";
import type { ThreadRunOptions, ThreadRunResult, ThreadSettings } from "./types.js";

/** Runs (or resumes) a thread to END or to an interrupt, saving a checkpoint after every superstep. */
export async function invokeThread(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  input: unknown,
  options: ThreadRunOptions,
): Promise<ThreadRunResult<State>> {
  const thread = await ThreadRun.open({ graph, settings, input, options, api: "invoke" });
  // The supersteps as recorded; the steps a caller reads are made from them on first read, as invoke's are.
  const supersteps: CommittedSuperstep[] = [];
  for (;;) {
    const pending = thread.advance();
    const superstep = isThenable(pending) ? await pending : pending;
    if (superstep === undefined) break;
    supersteps.push(superstep);
  }
  return thread.result(() => supersteps.flatMap(stepsOf));
}
