/**
 * A node that returns `new Command({ update, goto })`: its update merges like any node's, and its
 * `goto` destinations join the next superstep, on top of what the node's own edge or route leads to
 * (LangGraph's rule: a Command adds dynamic edges, it never cancels the static ones). A node may go only
 * where it declared (`addNode(name, fn, { ends })`).
 *
 * Inside the engine the goto travels *with the update*, under one reserved key, as LangGraph writes it
 * to a channel of its own: so a pending write, a cached update and a DBOS step record keep it without
 * knowing about it, and a resumed run routes exactly as the interrupted one would have. The kernel's
 * `commit` takes it off before merging, and its `advance` schedules it; no caller ever reads the key.
 */
import { quote, quoteList } from "../_describe.js";
import { isPlainObject } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import { Command, type AnyCommand } from "./command.js";
import { Send } from "./send.js";

// The shapes of step.ts's `State`, `Task` and `RouteTaken`, by structure: step.ts imports this file.
type State = Record<string, unknown>;
interface Task {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}
interface RouteTaken {
  readonly from: string;
  readonly key: string;
  readonly to: string;
  readonly goto?: true;
}

/** The update key a node's Command goto travels under, between the node and the kernel's `advance`. */
export const GOTO = "__goto__";

/**
 * What a node returned, when it returned a {@link Command}: its update with the goto's tasks under
 * {@link GOTO} (not yet detached). `fail(code, message)` builds the step's failure, so this file need not
 * know the engine's error shape. Refuses a `resume` (it answers an interrupt, from `invoke`), and a goto
 * the node did not declare in its `ends` (`UNDECLARED_GOTO`).
 */
export function commandOutput(
  graph: Pick<ExecutableGraph, "ends">,
  node: string,
  command: AnyCommand,
  fail: (code: "RESUME_IN_NODE" | "UNDECLARED_GOTO", message: string) => Error,
): unknown {
  if (command.resume !== undefined) {
    throw fail(
      "RESUME_IN_NODE",
      `node ${quote(node)} returned a Command with resume; resume answers an interrupt, from invoke(new Command({ resume }), { threadId }). A node's Command takes update and goto.`,
    );
  }
  const update = command.update ?? {};
  const targets = command.goto ?? [];
  if (targets.length === 0 || !isPlainObject(update)) return update;
  const ends = graph.ends.get(node);
  const tasks = targets.map((target) => {
    const task = gotoTask(target);
    if (typeof task.node !== "string" || ends === undefined || !ends.has(task.node))
      throw fail("UNDECLARED_GOTO", undeclared(node, target, ends));
    return task;
  });
  return { ...update, [GOTO]: tasks };
}

function undeclared(node: string, target: unknown, ends: ReadonlySet<string> | undefined): string {
  const what = target instanceof Send ? `a Send to ${quote(target.node)}` : quote(target);
  if (ends === undefined) {
    return (
      `node ${quote(node)} returned a Command with goto ${what}, but declares no ends. ` +
      `Declare where it may go: addNode(${quote(node)}, fn, { ends: [${target instanceof Send ? quote(target.node) : quote(target)}] }).`
    );
  }
  return `node ${quote(node)} returned a Command with goto ${what}, which is not one of its ends (${quoteList([...ends])}). Go to a declared end, or add it to ends.`;
}

/**
 * The update key that marks a task's update as its node's error handler's (the kernel's rule is in
 * kernel/error-handlers.ts): like {@link GOTO}, never merged, and taken off with it.
 */
export const HANDLED = "__handled__";

/** Whether an update carries a Command's goto. */
export function hasGoto(update: State): boolean {
  return Object.hasOwn(update, GOTO);
}

/** The tasks a node's Command goto adds to the next superstep, or `undefined` when it returned none. */
export function gotoOf(update: State | undefined): readonly Task[] | undefined {
  return update !== undefined && hasGoto(update) ? (update[GOTO] as readonly Task[]) : undefined;
}

/** The update as the node (or its error handler) meant it: without the goto and the handled mark (the same object when it has neither). */
export function withoutGoto(update: State): State {
  if (!hasGoto(update) && !Object.hasOwn(update, HANDLED)) return update;
  const { [GOTO]: _goto, [HANDLED]: _handled, ...rest } = update;
  return rest;
}

/** The routes a goto took, as a run records them: `key` is the destination, `goto` marks them. */
export function gotoRoutes(from: string, tasks: readonly Task[]): RouteTaken[] {
  return tasks.map((task) => ({ from, key: task.node, to: task.node, goto: true }));
}

/** A Command goto's target as a task: a name runs on the state, a `Send` on its input. */
export function gotoTask(target: string | Send): Task {
  return target instanceof Send ? { node: target.node, sent: true, input: target.input } : { node: target, sent: false };
}

/** Whether a value is a Command a node returned. */
export function isNodeCommand(value: unknown): value is AnyCommand {
  return value instanceof Command;
}
