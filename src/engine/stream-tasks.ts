/**
 * The chunks of `stream`'s `tasks`, `checkpoints` and `debug` modes, in LangGraph.js's shapes: a task's
 * start (before any task of its superstep runs), its result (its update, its error or the interrupts it
 * paused at), and a checkpoint as written. Pure functions over what the run reports; `stream.ts` yields them.
 */
import { GraphError } from "../errors.js";
import type { DebugEvent, Step, TaskError, TaskResult, TaskStart } from "./run-types.js";
import { cloneState } from "./clone.js";
import { visibleUpdate } from "./command-list.js";
import type { State, Task } from "./step.js";
import type { Checkpoint } from "./checkpointer.js";

/** A superstep's admitted tasks, as the run reported them. */
export interface AdmittedTasks {
  readonly superstep: number;
  readonly tasks: readonly Task[];
}

/** `node:superstep:position`: the prefix of the task's interrupt ids too, and its namespace in a `subgraphs` stream. */
export function taskId(node: string, superstep: number, position: number): string {
  return `${node}:${superstep}:${position}`;
}

/** The start events of a superstep's tasks: each reads the committed state, or its `Send`'s input. */
export function taskStarts(admitted: AdmittedTasks, state: State): TaskStart[] {
  return admitted.tasks.map((task, position) => ({
    id: taskId(task.node, admitted.superstep, position),
    name: task.node,
    input: cloneState(task.sent ? task.input : state),
  }));
}

function result(
  admitted: AdmittedTasks,
  position: number,
  outcome: Pick<TaskResult<State>, "result" | "error" | "interrupts">,
): TaskResult<State> {
  const task = admitted.tasks[position] as Task;
  return { id: taskId(task.node, admitted.superstep, position), name: task.node, ...outcome };
}

/** The results of a superstep that committed: its steps are its tasks', in order. */
export function committedResults(admitted: AdmittedTasks, steps: readonly Step<State>[]): TaskResult<State>[] {
  return steps.map((step, position) => result(admitted, position, { result: step.update, error: null, interrupts: [] }));
}

/**
 * The results of a superstep that paused (its `interrupt` checkpoint): a task paused at the interrupts
 * whose ids begin with its id; another finished, and its kept write is its result.
 */
export function pausedResults(admitted: AdmittedTasks, pause: Checkpoint): TaskResult<State>[] {
  return admitted.tasks.map((_, position) => {
    const id = result(admitted, position, { result: undefined, error: null, interrupts: [] }).id;
    const interrupts = (pause.interrupts ?? []).filter((i) => i.id.startsWith(`${id}:`) || i.id.startsWith(`${id}/`));
    const kept = pause.pendingWrites?.find((write) => write.task === position);
    const update = interrupts.length === 0 && kept !== undefined ? (cloneState(visibleUpdate(kept.update as State)) as State) : undefined;
    return result(admitted, position, { result: update, error: null, interrupts: interrupts.map((i) => ({ id: i.id, value: i.value })) });
  });
}

/**
 * The result of the task a failed superstep names (`error.node`), or none when the failure is not a
 * task's. The error names a node, not a task: of several tasks of that node (`Send`s), the first gets it.
 */
export function failedResult(admitted: AdmittedTasks, error: unknown): TaskResult<State>[] {
  const node = error instanceof GraphError && "node" in error ? (error as { node?: unknown }).node : undefined;
  const position = admitted.tasks.findIndex((task) => task.node === node);
  if (position < 0) return [];
  return [result(admitted, position, { result: undefined, error: taskError(error), interrupts: [] })];
}

/** A task's failure as JSON (`TaskResult.error`, a thread's `tasks[i].error`): name, code when coded, message. */
export function taskError(error: unknown): TaskError {
  const { name, message } = error instanceof Error ? error : { name: "Error", message: String(error) };
  return error instanceof GraphError ? { name, code: error.code, message } : { name, message };
}

/** A checkpoint as a chunk: a copy, so a consumer that edits it changes nothing stored. */
export function checkpointChunk(checkpoint: Checkpoint): Checkpoint {
  return structuredClone(checkpoint);
}

/** A `debug` event: the superstep, the kind, when, and the payload. */
export function debugEvent(type: "checkpoint", step: number, payload: Checkpoint): DebugEvent<State, string, Checkpoint>;
export function debugEvent(type: "task", step: number, payload: TaskStart): DebugEvent<State, string, Checkpoint>;
export function debugEvent(type: "task_result", step: number, payload: TaskResult<State>): DebugEvent<State, string, Checkpoint>;
export function debugEvent(
  type: "checkpoint" | "task" | "task_result",
  step: number,
  payload: Checkpoint | TaskStart | TaskResult<State>,
): DebugEvent<State, string, Checkpoint> {
  return { step, type, timestamp: new Date().toISOString(), payload } as DebugEvent<State, string, Checkpoint>;
}
