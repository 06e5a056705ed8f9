/**
 * A node of a subgraph that returns `new Command({ graph: Command.PARENT, goto, update })` hands off to
 * its parent graph (LangGraph's `Command.PARENT`, how multi-agent handoffs are written there).
 *
 * Inside the child's run the handoff travels as the node's update under one reserved key, as a goto
 * does ({@link GOTO}), so the superstep's tasks settle as any other. The kernel's `commit` finds it
 * (`kernel/handoff.ts`) and ends the child's run there, committing none of the superstep's writes, with
 * a failure that carries the {@link ParentHandoff}. The subgraph node that ran the child catches it and
 * returns the handoff to its own graph as a plain `Command({ update, goto })`: the parent merges the
 * update through its reducers and goes to the goto as for any node's Command (checked against the
 * subgraph node's `ends`). A graph run on its own has no parent: the failure reaches its caller as
 * `NO_PARENT_GRAPH`.
 */
import { quote } from "../_describe.js";
import { cloneState, isPlainObject } from "./clone.js";
import { Command, type AnyCommand } from "./command.js";
import { gotoTask } from "./command-goto.js";
import { Send } from "./send.js";

type State = Record<string, unknown>;
interface Task {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}

/** The update key a handoff to the parent travels under, between the child's node and the kernel's `commit`. */
export const HANDOFF = "__handoff__";

/** What a child's node hands its parent: the parent's update, and where the parent goes (names, or Sends as tasks). */
export class ParentHandoff {
  constructor(
    /** The child's node that returned the Command. */
    readonly node: string,
    readonly update: State,
    readonly goto: readonly Task[],
  ) {}

  /** The handoff as the subgraph node's own Command, for its graph to merge and route. */
  command(): AnyCommand {
    const goto = this.goto.map((task) => (task.sent ? new Send(task.node, task.input) : task.node));
    return new Command({ update: this.update, ...(goto.length === 0 ? {} : { goto }) });
  }
}

/** Whether a value a node returned is a Command for the parent graph. */
export function isParentCommand(value: unknown): value is AnyCommand {
  return value instanceof Command && value.graph === Command.PARENT;
}

/**
 * The node's update for a Command it returned for the parent: the handoff under {@link HANDOFF}, its
 * update detached (the parent's fields: the child does not check them, the parent's merge does). A
 * `resume` is refused as in any node's Command; so is a `graph` other than `Command.PARENT`.
 */
export function handoffOutput(
  node: string,
  command: AnyCommand,
  fail: (code: "RESUME_IN_NODE" | "INVALID_UPDATE", message: string) => Error,
): State {
  if (command.resume !== undefined)
    throw fail("RESUME_IN_NODE", `node ${quote(node)} returned a Command with resume; a node's Command takes update, goto and graph.`);
  const update = command.update ?? {};
  if (!isPlainObject(update))
    throw fail("INVALID_UPDATE", `node ${quote(node)} returned a Command for the parent whose update is not a plain object.`);
  const goto = (command.goto ?? []).map(gotoTask);
  // Plain data, as a goto travels: whatever carries a node's update (a DBOS step record, the LangGraph wrapper) keeps it.
  return { [HANDOFF]: { update: cloneState(update), goto } };
}

/**
 * The Command for the parent among what a node returned: the Command itself, or the first such in a
 * list of Commands (LangGraph.js raises the handoff at the first; the list's other Commands are not
 * applied). `undefined` when the node hands nothing to its parent.
 */
export function parentCommandOf(returned: unknown): AnyCommand | undefined {
  if (isParentCommand(returned)) return returned;
  return Array.isArray(returned) ? returned.find(isParentCommand) : undefined;
}

/** Whether a task's update is a handoff to the parent. */
export function isHandoff(update: State | undefined): boolean {
  return update !== undefined && Object.hasOwn(update, HANDOFF);
}

/** The handoff the update of `node`'s task carries, if it carries one. */
export function handoffOf(node: string, update: State | undefined): ParentHandoff | undefined {
  if (update === undefined || !Object.hasOwn(update, HANDOFF)) return undefined;
  const { update: given, goto } = update[HANDOFF] as { readonly update: State; readonly goto: readonly Task[] };
  return new ParentHandoff(node, given, goto);
}

/** The handoff a run's failure carries (its `cause`), if the run ended by handing off to its parent. */
export function handoffFrom(error: unknown): ParentHandoff | undefined {
  if (!(error instanceof Error) || !("code" in error) || error.code !== "NO_PARENT_GRAPH") return undefined;
  return error.cause instanceof ParentHandoff ? error.cause : undefined;
}
