/**
 * `stream` on the mini engine: the same run as `invoke`, yielding per-node steps (`updates`), the merged
 * state per superstep (`values`), the nodes' own events (`custom`) as they happen, each task's start and
 * result (`tasks`), each checkpoint as written (`checkpoints`, a thread only) and both (`debug`). Custom
 * events and task starts are yielded the moment they happen, so they come before the updates of their
 * superstep; then come its task results, updates, values and checkpoint.
 */
import { quote } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";
import type { ExecutableGraph } from "./executable.js";
import { Run } from "./run.js";
import { MessageDelta } from "./message-delta.js";
import type { StreamMode, StreamOptions, SuperstepValues, TaskResult } from "./run-types.js";
import {
  type AdmittedTasks,
  checkpointChunk,
  committedResults,
  debugEvent,
  failedResult,
  pausedResults,
  taskStarts,
} from "./stream-tasks.js";
import type { Checkpoint } from "./checkpointer.js";
import type { State, Task } from "./step.js";
import { isThreadRun, threadRequired } from "./threads/thread-options.js";
import { ThreadRun } from "./threads/thread-run.js";
import type { ThreadRunOptions, ThreadSettings } from "./threads/types.js";

const MODES: readonly StreamMode[] = ["updates", "values", "custom", "messages", "tasks", "checkpoints", "debug"];

/** Which modes a stream yields, and whether it tags its chunks `[mode, payload]`. */
export interface StreamModes {
  readonly updates: boolean;
  readonly values: boolean;
  readonly custom: boolean;
  readonly messages: boolean;
  readonly tasks: boolean;
  readonly checkpoints: boolean;
  readonly debug: boolean;
  readonly tagged: boolean;
}

/** Checks `streamMode`: one mode, or a non-empty list of them. */
export function checkStreamMode(value: unknown, api = "stream"): StreamModes {
  if (value === undefined)
    return { updates: true, values: false, custom: false, messages: false, tasks: false, checkpoints: false, debug: false, tagged: false };
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((mode) => MODES.includes(mode as StreamMode))) {
    throw new InvalidOptionError(
      `${api}: streamMode must be ${MODES.map((mode) => `"${mode}"`).join(", ")} or a non-empty list of them; got ${quote(value)}.`,
    );
  }
  return {
    updates: list.includes("updates"),
    values: list.includes("values"),
    custom: list.includes("custom"),
    messages: list.includes("messages"),
    tasks: list.includes("tasks"),
    checkpoints: list.includes("checkpoints"),
    debug: list.includes("debug"),
    tagged: Array.isArray(value),
  };
}

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
  const modes = checkStreamMode(options?.streamMode);
  const threaded = isThreadRun(options);
  if (modes.checkpoints && !threaded) throw checkpointsNeedThread();
  // Chunks as they happen (written events, task starts), yielded while the superstep runs.
  const events: (readonly [StreamMode, unknown])[] = [];
  let wake: (() => void) | undefined;
  const push = (mode: StreamMode, payload: unknown): void => {
    events.push([mode, payload]);
    wake?.();
  };
  const sink =
    modes.custom || modes.messages
      ? (node: string, event: unknown, path?: readonly string[]): void => {
          if (event instanceof MessageDelta) {
            if (modes.messages) push("messages", { node, delta: event.delta, messageId: event.messageId });
          } else if (modes.custom) push("custom", path === undefined ? { node, event } : { node, event, path });
        }
      : undefined;
  const taskEvents = modes.tasks || modes.debug;
  // The tasks of the superstep under way, once admitted.
  const under: { admitted?: AdmittedTasks | undefined } = {};
  const admittedNow = (): AdmittedTasks | undefined => under.admitted;
  const onTasks = taskEvents
    ? (superstep: number, tasks: readonly Task[], state: State): void => {
        under.admitted = { superstep, tasks };
        for (const start of taskStarts(under.admitted, state)) {
          if (modes.tasks) push("tasks", start);
          if (modes.debug) push("debug", debugEvent("task", superstep, start));
        }
      }
    : undefined;
  // Checkpoints as stored: yielded after their superstep's results. The last one tells a pause's results.
  const written: Checkpoint[] = [];
  let last: Checkpoint | undefined;
  const onCheckpoint =
    modes.checkpoints || taskEvents
      ? (checkpoint: Checkpoint): void => {
          last = checkpoint;
          if (modes.checkpoints || modes.debug) written.push(checkpoint);
        }
      : undefined;
  let run: Pick<Run, "superstep" | "state" | "supersteps" | "endObservation">;
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
  const chunk = (mode: StreamMode, payload: unknown): unknown => (modes.tagged ? [mode, payload] : payload);
  const next = (): unknown => {
    const [mode, payload] = events.shift() as (typeof events)[number];
    return chunk(mode, payload);
  };
  function* results(list: readonly TaskResult<State>[], superstep: number): Generator<unknown> {
    for (const outcome of list) {
      if (modes.tasks) yield chunk("tasks", outcome);
      if (modes.debug) yield chunk("debug", debugEvent("task_result", superstep, outcome));
    }
  }
  function* checkpoints(): Generator<unknown> {
    for (const checkpoint of written.splice(0)) {
      if (modes.checkpoints) yield chunk("checkpoints", checkpointChunk(checkpoint));
      if (modes.debug) yield chunk("debug", debugEvent("checkpoint", checkpoint.supersteps, checkpointChunk(checkpoint)));
    }
  }
  try {
    // As LangGraph's: the values stream begins with the state the run starts from (superstep 0, no nodes).
    if (modes.values) yield chunk("values", { superstep: run.supersteps, nodes: [], state: run.state } satisfies SuperstepValues<State>);
    yield* checkpoints();
    for (;;) {
      under.admitted = undefined;
      const pending = run.superstep();
      let done = false;
      const settled = () => {
        done = true;
        wake?.();
      };
      pending.then(settled, settled);
      // Yield each event as soon as it happens, until the superstep settles.
      while (sink !== undefined || onTasks !== undefined) {
        while (events.length > 0) yield next();
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      let superstep: Awaited<typeof pending>;
      const admitted = admittedNow();
      try {
        superstep = await pending;
      } catch (error) {
        while (events.length > 0) yield next();
        if (admitted !== undefined) yield* results(failedResult(admitted, error), admitted.superstep);
        throw error;
      }
      while (events.length > 0) yield next();
      if (superstep === undefined) {
        // Tasks admitted and nothing committed: the superstep paused at interrupts (its checkpoint says where).
        if (admitted !== undefined && last !== undefined) yield* results(pausedResults(admitted, last), admitted.superstep);
        yield* checkpoints();
        return;
      }
      if (admitted !== undefined) yield* results(committedResults(admitted, superstep), admitted.superstep);
      if (modes.updates) for (const step of superstep) yield chunk("updates", step);
      if (modes.values) {
        const values: SuperstepValues<State> = { superstep: run.supersteps, nodes: superstep.map((s) => s.node), state: run.state };
        yield chunk("values", values);
      }
      yield* checkpoints();
    }
  } finally {
    // A consumer that stops reading (break, return) leaves a run that never ends: its observation ends here.
    run.endObservation("abandoned");
  }
}

/** `streamMode: "checkpoints"` without a thread: no checkpoint is ever written, so the stream would be empty. */
function checkpointsNeedThread(): InvalidOptionError {
  return new InvalidOptionError(
    `stream: streamMode "checkpoints" needs a thread, since a run without one writes no checkpoint. ` +
      `Pass { threadId, checkpointer }, or use "debug" (its task events need no thread).`,
  );
}
