/**
 * `stream` on the mini engine: the same run as `invoke`, yielding per-node steps (`updates`), the merged
 * state per superstep (`values`), the nodes' own events (`custom`) as they happen, each task's start and
 * result (`tasks`), each checkpoint as written (`checkpoints`, a thread only) and both (`debug`); with
 * `subgraphs: true`, its subgraphs' chunks too, each under its namespace. Custom events and task starts
 * are yielded the moment they happen, so they come before the updates of their superstep; then come its
 * task results, updates, values and checkpoint (`stream-chunks.ts`).
 */
import { InvalidOptionError } from "../errors.js";
import type { ExecutableGraph } from "./executable.js";
import { Run } from "./run.js";
import type { StreamMode, StreamOptions } from "./run-types.js";
import { RunChunks, type StreamedRun } from "./stream-chunks.js";
import { checkStreamMode, shapeChunk } from "./stream-modes.js";
import { isThreadRun, threadRequired } from "./threads/thread-options.js";
import { ThreadRun } from "./threads/thread-run.js";
import type { ThreadRunOptions, ThreadSettings } from "./threads/types.js";

/**
 * Runs a graph, yielding what its stream modes ask for as it happens. With a `threadId` the run is a
 * thread's, saved and paused exactly as `invoke` does; a graph compiled with interrupts or a
 * checkpointer refuses a stream without one, as `invoke` does.
 */
export async function* streamRun(
  graph: ExecutableGraph,
  input: unknown,
  options?: StreamOptions<StreamMode | readonly StreamMode[]> | (StreamOptions<StreamMode | readonly StreamMode[]> & ThreadRunOptions),
  threads: ThreadSettings = { interruptBefore: new Set(), interruptAfter: new Set() },
): AsyncGenerator<unknown> {
  const modes = checkStreamMode(options?.streamMode, options?.subgraphs);
  const threaded = isThreadRun(options);
  if (modes.checkpoints && !threaded) throw checkpointsNeedThread();
  const chunks = new RunChunks(modes);
  const { sink, onTasks, onCheckpoint } = chunks;
  let run: StreamedRun;
  if (threaded) run = await ThreadRun.open({ graph, settings: threads, input, options, api: "stream", sink, onTasks, onCheckpoint });
  else if (threads.checkpointer !== undefined || threads.interruptBefore.size > 0 || threads.interruptAfter.size > 0)
    throw threadRequired("stream", threads);
  else
    run = new Run(graph, input, {
      ...options,
      api: "stream",
      ...(sink === undefined ? {} : { sink }),
      ...(onTasks === undefined ? {} : { onTasks }),
    });
  for await (const chunk of chunks.drive(run)) yield shapeChunk(modes, chunk);
}

/** `streamMode: "checkpoints"` without a thread: no checkpoint is ever written, so the stream would be empty. */
function checkpointsNeedThread(): InvalidOptionError {
  return new InvalidOptionError(
    `stream: streamMode "checkpoints" needs a thread, since a run without one writes no checkpoint. ` +
      `Pass { threadId, checkpointer }, or use "debug" (its task events need no thread).`,
  );
}
