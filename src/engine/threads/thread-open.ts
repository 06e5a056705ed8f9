/**
 * Opening a threaded run: the store's checks, the starting checkpoint (a new input merged onto the
 * thread's state, or a resume from a checkpoint, migrated first if it is of an older version), and the
 * first checkpoint written. What it opens, `ThreadRun` (thread-run.ts) drives a superstep at a time.
 */
import type { ExecutableGraph } from "../executable.js";
import { Run } from "../run.js";
import type { RunSettings } from "../run-settings.js";
import type { EventSink } from "../task-context.js";
import type { State } from "../step.js";
import type { Checkpoint } from "../checkpointer.js";
import { checkJson } from "../json-check.js";
import { checkMetadata } from "./store-options.js";
import { keptWrites, WriteKeeper } from "./pending-writes.js";
import { InterruptHost } from "../interrupt-scope.js";
import { isCommand } from "../interrupt.js";
import { commandStart } from "./resume.js";
import type { ReducerTable } from "../merge.js";
import { CheckpointSaves, checkDurability } from "./durability.js";
import { checkThreadOptions } from "./thread-options.js";
import { answered, inputRun, snapshotOf, startingPoint } from "./thread-start.js";
import { continueOnGraph } from "./versions/continue-thread.js";
import { ThreadWriter } from "./writer.js";
import type { ChildThread, ThreadRunOptions, ThreadSettings } from "./types.js";

/** What {@link ThreadRun.open} starts or resumes: the graph and its settings, the input and options, and who asks. */
export interface ThreadOpening {
  readonly graph: ExecutableGraph;
  readonly settings: ThreadSettings;
  /** A new input, `null` (resume), or a `Command`. */
  readonly input: unknown;
  readonly options: ThreadRunOptions;
  readonly api: "invoke" | "stream";
  /** Where `context.writer` events go. */
  readonly sink?: EventSink | undefined;
  /** A subgraph task's thread: its answers and reducers. */
  readonly child?: ChildThread | undefined;
  /** `stream`'s `tasks` and `debug` modes: each superstep's tasks, once admitted. */
  readonly onTasks?: RunSettings["onTasks"];
  /** `stream`'s `checkpoints` and `debug` modes: each checkpoint, once stored (or queued, in async durability). */
  readonly onCheckpoint?: ((checkpoint: Checkpoint) => void) | undefined;
}

/** What {@link openThread} hands the thread runner: the run, its writer and write keeper, and the thread's interrupt frame. */
export interface OpenedThread {
  readonly run: Run;
  readonly writer: ThreadWriter;
  readonly keeper: WriteKeeper;
  readonly settings: ThreadSettings;
  /** Resuming is the go-ahead: a run resumed at an interrupt does not pause before those nodes again. */
  readonly resuming: boolean;
  readonly host: InterruptHost;
  /** A child thread's reducers (its updates are folded into its checkpoints' `subgraphUpdate`). */
  readonly fold: ReducerTable | undefined;
}

/**
 * Starts (input) or resumes (`null`, or a `Command` answering the pending interrupts) the thread,
 * writing the input checkpoint of a new run, or the update checkpoint of a Command's update or goto.
 */
export async function openThread(opening: ThreadOpening): Promise<OpenedThread> {
  const { graph, settings, options, api, sink, child, onTasks, onCheckpoint } = opening;
  let { input } = opening;
  const { threadId, checkpointer } = checkThreadOptions(api, settings, options, child !== undefined);
  if (options.metadata !== undefined) checkMetadata(api, options.metadata);
  const saves = new CheckpointSaves(checkpointer, checkDurability(api, options.durability));
  const latest = await checkpointer.latest(threadId);
  // A child thread that has checkpoints continues from its latest: its parent's superstep is resumed.
  if (child !== undefined && latest !== undefined) input = null;
  // A task that paused at an interrupt settles with no update: it is not a write to keep. In exit mode
  // nothing is stored before the run's end, pending writes included (a failed superstep runs whole again).
  const keeps = saves.durability !== "exit";
  // A pending write names its superstep's checkpoint, which an async run may not have stored yet.
  const keeper = new WriteKeeper(checkpointer, threadId, () => saves.flush(), keeps);
  const host = new InterruptHost();
  host.home = { checkpointer, threadId };
  const fold = child?.reducers;
  const onWrite = (write: Parameters<WriteKeeper["keep"]>[0]) => (keeps && !host.isPaused(write.task) ? keeper.keep(write) : undefined);
  const runOptions = {
    ...options,
    threadId,
    api,
    onWrite,
    interrupts: host,
    ...(sink === undefined ? {} : { sink }),
    ...(onTasks === undefined ? {} : { onTasks }),
  };
  if (input === null || isCommand(input)) {
    const stored = await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
    // A checkpoint of an older version continues migrated, written once as a new checkpoint.
    const { checkpoint: from, latestId } = await continueOnGraph(api, graph, checkpointer, stored, latest?.id ?? null);
    const snapshot = snapshotOf(api, graph, from);
    const start = isCommand(input)
      ? commandStart(api, graph, from, snapshot, input, options.checkpointId !== undefined)
      : { snapshot, resumes: { ...from.resumes, ...answered(from, child?.resumes) }, interrupts: from.interrupts ?? [], changed: false };
    host.answer(start.resumes, start.interrupts);
    host.hold(start.held);
    // The superstep's tasks that succeeded before a failure, a crash or an interrupt keep their writes: only the others run.
    // A goto replaced the tasks, and with them the writes kept for them.
    const kept = isCommand(input) && input.goto !== undefined ? [] : keptWrites(api, from);
    const run = Run.restore(graph, start.snapshot, runOptions, kept);
    const writer = new ThreadWriter(saves, threadId, latestId, from, options.metadata ?? from.metadata.user);
    writer.onWritten = onCheckpoint;
    if (fold !== undefined) writer.subgraphUpdate = from.subgraphUpdate ?? {};
    if (start.changed) {
      const pause = { interrupts: start.interrupts, resumes: start.resumes, writes: kept };
      await writer.write(run, "update", [], undefined, pause);
    }
    return { run, writer, keeper, settings, resuming: true, host, fold };
  }
  checkJson(input, "input", api);
  // LangGraph's rule: a new input on a thread that has state is merged onto it through the reducers,
  // and a new run starts from START (its trace, steps and limits count from this input).
  const stored =
    options.checkpointId === undefined ? latest : await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
  const continued = stored === undefined ? undefined : await continueOnGraph(api, graph, checkpointer, stored, latest?.id ?? null);
  const base = continued?.checkpoint;
  const run = inputRun(graph, base, input, api, runOptions);
  await run.begin();
  const writer = new ThreadWriter(saves, threadId, continued === undefined ? null : continued.latestId, base, options.metadata);
  writer.onWritten = onCheckpoint;
  if (fold !== undefined) writer.subgraphUpdate = {};
  writer.trustNext(checkedFields(graph, base, input as State));
  await writer.write(run, "input", []);
  return { run, writer, keeper, settings, resuming: false, host, fold };
}

/**
 * The fields of a new run's first state that are JSON already: the input's, checked as it came in, and
 * the thread's state's, checked when it was stored; not a field a reducer merged the input into (its
 * result is new data). So a threaded \`invoke\` checks its input once.
 */
function checkedFields(graph: ExecutableGraph, base: Checkpoint | undefined, input: State): ReadonlySet<string> {
  if (base === undefined) return new Set(Object.keys(input));
  const merged = Object.keys(input).filter((field) => graph.reducers.has(field));
  const fields = new Set([...Object.keys(base.state), ...Object.keys(input)]);
  for (const field of merged) fields.delete(field);
  return fields;
}
