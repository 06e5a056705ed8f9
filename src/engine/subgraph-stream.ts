/**
 * A subgraph's child run when its parent's stream has `subgraphs: true`: the child runs as a stream of
 * its own with the parent's modes, and each of its chunks goes on to the parent's stream under the
 * task's namespace as it happens (LangGraph's nested stream). What the child's run returns is the same
 * as without the stream: its state, and its nodes' updates folded for the parent.
 */
import type { ExecutableGraph } from "./executable.js";
import { foldUpdates } from "./subgraph-output.js";
import { Run } from "./run.js";
import type { RunSettings } from "./run-settings.js";
import { RunChunks, type StreamedRun } from "./stream-chunks.js";
import type { ChildStream } from "./stream-modes.js";
import type { Step } from "./run-types.js";
import type { State } from "./step.js";

/** Drives a child run opened with `chunks`' hooks to its end (or pause), handing each chunk to the parent's stream. */
export async function driveChild(
  run: StreamedRun,
  chunks: RunChunks,
  into: ChildStream,
  onSteps?: (steps: readonly Step<State>[]) => void,
): Promise<void> {
  for await (const chunk of chunks.drive(run, onSteps)) into.emit(chunk);
}

/** A child run without a thread of its own, streamed into its parent's: its final state and its nodes' updates folded. */
export async function streamChild(
  graph: ExecutableGraph,
  input: unknown,
  settings: RunSettings,
  into: ChildStream,
): Promise<{ readonly state: State; readonly update: State }> {
  const chunks = new RunChunks(into.modes);
  const { sink, onTasks } = chunks;
  const run = new Run(graph, input, {
    ...settings,
    api: "invoke",
    ...(sink === undefined ? {} : { sink }),
    ...(onTasks === undefined ? {} : { onTasks }),
  });
  let update: State = {};
  await driveChild(run, chunks, into, (steps) => {
    update = foldUpdates(graph.reducers, update, steps);
  });
  return { state: run.state, update };
}
