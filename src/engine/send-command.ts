/**
 * A `Command` as a `Send`'s input (LangGraph.js allows it: `new Send("worker", new Command({ goto }))`,
 * the node reads the Command and may return it). A run hands the node the Command itself; a thread
 * stores the pending Send in its checkpoint as JSON, so the Command is written as a plain object under
 * one reserved key and made a Command again when the thread resumes.
 *
 * Stored shape of such a task's input (a checkpoint's `tasks[i].input`):
 * `{ "__tsg_command__": { "update"?: {…}, "goto"?: ["node", { "node": "n", "input": … }, …] } }`,
 * a goto's Send input encoded the same way when it is a Command too.
 */
import { Command, type AnyCommand } from "./command.js";
import { isPlainObject } from "./clone.js";
import { Send } from "./send.js";

/** The key a stored Command input sits under. */
export const STORED_COMMAND = "__tsg_command__";

interface Task {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}

/** The tasks as a checkpoint stores them: a Send's Command input as its plain form (the same list when none is). */
export function storedTasks<T extends Task>(tasks: readonly T[]): readonly T[] {
  if (!tasks.some(hasCommandInput)) return tasks;
  return tasks.map((task) => (hasCommandInput(task) ? { ...task, input: storedCommand(task.input as AnyCommand) } : task));
}

/** The tasks as a run takes them back from a checkpoint: a stored Command input made a Command again (the same list when none is). */
export function restoredTasks<T extends Task>(tasks: readonly T[]): readonly T[] {
  if (!tasks.some(hasStoredCommand)) return tasks;
  return tasks.map((task) => (hasStoredCommand(task) ? { ...task, input: restoredCommand(task.input as StoredCommand) } : task));
}

interface StoredCommand {
  readonly [STORED_COMMAND]: { readonly update?: unknown; readonly goto?: readonly unknown[] };
}

/**
 * A Send's input as a foreign loop carries it (the LangGraph driver: its checkpointer serializes a
 * pending Send's input, and would turn a Command into a plain object): `stored` for a Command, the
 * value itself otherwise; `restored` undoes it where the node reads its input.
 */
export const sendInputCodec = {
  stored: (input: unknown): unknown => (input instanceof Command ? storedCommand(input) : input),
  // Typed as its argument: the Command stands where the node's input was, as it does on a plain run.
  restored: <T>(input: T): T => (isStoredCommand(input) ? (restoredCommand(input) as T) : input),
} as const;

function isStoredCommand(input: unknown): input is StoredCommand {
  return isPlainObject(input) && Object.hasOwn(input, STORED_COMMAND);
}

function hasCommandInput(task: Task): boolean {
  return task.sent && task.input instanceof Command;
}

function hasStoredCommand(task: Task): boolean {
  return task.sent && isStoredCommand(task.input);
}

function storedCommand(command: AnyCommand): StoredCommand {
  const stored: { update?: unknown; goto?: unknown[] } = {};
  if (command.update !== undefined) stored.update = command.update;
  if (command.goto !== undefined) {
    stored.goto = command.goto.map((target) =>
      target instanceof Send
        ? { node: target.node, input: target.input instanceof Command ? storedCommand(target.input) : target.input }
        : target,
    );
  }
  return { [STORED_COMMAND]: stored };
}

function restoredCommand(stored: StoredCommand): AnyCommand {
  const { update, goto } = stored[STORED_COMMAND];
  const targets = goto?.map((target) => {
    if (!isPlainObject(target)) return target as string;
    const input =
      isPlainObject(target.input) && Object.hasOwn(target.input, STORED_COMMAND)
        ? restoredCommand(target.input as unknown as StoredCommand)
        : target.input;
    return new Send(target.node as string, input);
  });
  return new Command({
    ...(update === undefined ? {} : { update: update as Record<string, unknown> }),
    ...(targets === undefined ? {} : { goto: targets }),
  });
}
