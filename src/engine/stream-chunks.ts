/**
 * The chunks of one run's stream, as they happen: its nodes' own events (`custom`, `messages`) and its
 * tasks' starts while a superstep runs, then the superstep's task results, updates, values and
 * checkpoints. With `subgraphs: true` a subgraph's run inside a task streams into the same queue, each
 * chunk under the task's namespace (its task id), so a nested run's chunks come out in the order they
 * happened. `stream.ts` shapes the chunks for the caller; a subgraph's run hands them to its parent.
 */
import { MessageDelta } from "./message-delta.js";
import type { Run } from "./run.js";
import type { RunSettings } from "./run-settings.js";
import type { Step, StreamMode, SuperstepValues, TaskResult } from "./run-types.js";
import type { ChildStream, Chunk, StreamModes } from "./stream-modes.js";
import {
  type AdmittedTasks,
  checkpointChunk,
  committedResults,
  debugEvent,
  failedResult,
  pausedResults,
  taskId,
  taskStarts,
} from "./stream-tasks.js";
import type { Checkpoint } from "./checkpointer.js";
import type { State, Task } from "./step.js";
import type { EventSink } from "./task-context.js";

/** What a stream drives: the mini engine's run or a thread's, a superstep at a time. */
export type StreamedRun = Pick<Run, "superstep" | "state" | "supersteps" | "endObservation">;

/** A run's stream: the hooks its run reports to (pass them when opening the run), and {@link RunChunks.drive}. */
export class RunChunks {
  readonly modes: StreamModes;
  /** Where `context.writer` events go; with `subgraphs`, also where a task's subgraph streams (`forTask`). */
  readonly sink: EventSink | undefined;
  /** Each superstep's admitted tasks (for `tasks`, `debug` and the namespaces of `subgraphs`). */
  readonly onTasks: RunSettings["onTasks"];
  /** Each checkpoint as stored (a thread only). */
  readonly onCheckpoint: ((checkpoint: Checkpoint) => void) | undefined;
  /** Chunks as they happen (written events, task starts, subgraphs' chunks), yielded while the superstep runs. */
  readonly #events: Chunk[] = [];
  #wake: (() => void) | undefined;
  /** The tasks of the superstep under way, once admitted. */
  #admitted: AdmittedTasks | undefined;
  /** Checkpoints as stored: yielded after their superstep's results. The last one tells a pause's results. */
  readonly #written: Checkpoint[] = [];
  #last: Checkpoint | undefined;

  constructor(modes: StreamModes) {
    this.modes = modes;
    const writes = modes.custom || modes.messages ? this.#eventSink() : undefined;
    this.sink = modes.subgraphs ? Object.assign(sinkTo(writes), { forTask: (task: Task) => this.#taskSink(task, writes) }) : writes;
    const taskEvents = modes.tasks || modes.debug;
    this.onTasks =
      taskEvents || modes.subgraphs
        ? (superstep, tasks, state) => {
            this.#admitted = { superstep, tasks };
            if (!taskEvents) return;
            for (const start of taskStarts(this.#admitted, state)) {
              if (modes.tasks) this.#push([], "tasks", start);
              if (modes.debug) this.#push([], "debug", debugEvent("task", superstep, start));
            }
          }
        : undefined;
    this.onCheckpoint =
      modes.checkpoints || taskEvents
        ? (checkpoint) => {
            this.#last = checkpoint;
            if (modes.checkpoints || modes.debug) this.#written.push(checkpoint);
          }
        : undefined;
  }

  #push(namespace: readonly string[], mode: StreamMode, payload: unknown): void {
    this.#events.push([namespace, mode, payload]);
    this.#wake?.();
  }

  /** The sink of `custom` and `messages` events. */
  #eventSink(): EventSink {
    const { modes } = this;
    return (node, event, path) => {
      if (event instanceof MessageDelta) {
        if (modes.messages) this.#push([], "messages", { node, delta: event.delta, messageId: event.messageId });
      } else if (modes.custom) this.#push([], "custom", path === undefined ? { node, event } : { node, event, path });
    };
  }

  /**
   * One task's sink (`subgraphs`): a subgraph run inside it streams into this run's queue, under the
   * task's id. The run reports a superstep's tasks before it builds their contexts, so the task is found.
   */
  #taskSink(task: Task, writes: EventSink | undefined): EventSink {
    const admitted = this.#admitted;
    const position = admitted?.tasks.indexOf(task) ?? -1;
    if (admitted === undefined || position < 0) return sinkTo(writes);
    const namespace = taskId(task.node, admitted.superstep, position);
    const subgraphs: ChildStream = {
      modes: this.modes,
      emit: ([inner, mode, payload]) => this.#push([namespace, ...inner], mode, payload),
    };
    return Object.assign(sinkTo(writes), { subgraphs });
  }

  /** The tasks the run admitted since the superstep began (a call, so the checker does not keep the loop's reset). */
  #admittedNow(): AdmittedTasks | undefined {
    return this.#admitted;
  }

  /** The chunks that happened so far, in order. */
  *#drain(): Generator<Chunk> {
    for (let chunk = this.#events.shift(); chunk !== undefined; chunk = this.#events.shift()) yield chunk;
  }

  /** The results of a superstep's tasks (`tasks`, `debug`). */
  *#results(list: readonly TaskResult<State>[], superstep: number): Generator<Chunk> {
    for (const outcome of list) {
      if (this.modes.tasks) yield [[], "tasks", outcome];
      if (this.modes.debug) yield [[], "debug", debugEvent("task_result", superstep, outcome)];
    }
  }

  /** The checkpoints stored since the last call (`checkpoints`, `debug`). */
  *#checkpoints(): Generator<Chunk> {
    for (const checkpoint of this.#written.splice(0)) {
      if (this.modes.checkpoints) yield [[], "checkpoints", checkpointChunk(checkpoint)];
      if (this.modes.debug) yield [[], "debug", debugEvent("checkpoint", checkpoint.supersteps, checkpointChunk(checkpoint))];
    }
  }

  /**
   * Runs `run` (opened with this stream's hooks) superstep by superstep, to its end or its pause,
   * yielding each chunk as it happens (and each committed superstep's steps to `onSteps`). A failed
   * superstep yields its failed task's result, then throws.
   */
  async *drive(run: StreamedRun, onSteps?: (steps: readonly Step<State>[]) => void): AsyncGenerator<Chunk, void> {
    const { modes } = this;
    const live = this.sink !== undefined || this.onTasks !== undefined;
    try {
      // As LangGraph's: the values stream begins with the state the run starts from (superstep 0, no nodes).
      if (modes.values) yield [[], "values", { superstep: run.supersteps, nodes: [], state: run.state } satisfies SuperstepValues<State>];
      yield* this.#checkpoints();
      for (;;) {
        this.#admitted = undefined;
        const pending = run.superstep();
        let done = false;
        const settled = () => {
          done = true;
          this.#wake?.();
        };
        pending.then(settled, settled);
        // Yield each event as soon as it happens, until the superstep settles.
        while (live) {
          yield* this.#drain();
          if (done) break;
          await new Promise<void>((resolve) => (this.#wake = resolve));
          this.#wake = undefined;
        }
        let superstep: Awaited<typeof pending>;
        const admitted = this.#admittedNow();
        try {
          superstep = await pending;
        } catch (error) {
          yield* this.#drain();
          if (admitted !== undefined) yield* this.#results(failedResult(admitted, error), admitted.superstep);
          throw error;
        }
        yield* this.#drain();
        if (superstep === undefined) {
          // Tasks admitted and nothing committed: the superstep paused at interrupts (its checkpoint says where).
          if (admitted !== undefined && this.#last !== undefined)
            yield* this.#results(pausedResults(admitted, this.#last), admitted.superstep);
          yield* this.#checkpoints();
          return;
        }
        onSteps?.(superstep);
        // As LangGraph's: each task's update, then its result.
        const results = admitted === undefined ? [] : committedResults(admitted, superstep);
        for (const [position, step] of superstep.entries()) {
          if (modes.updates) yield [[], "updates", step];
          const result = results[position];
          if (admitted !== undefined && result !== undefined) yield* this.#results([result], admitted.superstep);
        }
        if (modes.values) {
          const values: SuperstepValues<State> = { superstep: run.supersteps, nodes: superstep.map((s) => s.node), state: run.state };
          yield [[], "values", values];
        }
        yield* this.#checkpoints();
      }
    } finally {
      // A consumer that stops reading (break, return) leaves a run that never ends: its observation ends here.
      run.endObservation("abandoned");
    }
  }
}

/** A sink of its own (a task's sink gets its own properties) that writes where `writes` does, or nowhere. */
function sinkTo(writes: EventSink | undefined): EventSink {
  return writes === undefined ? () => undefined : (node, event, path) => writes(node, event, path);
}
