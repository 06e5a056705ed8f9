/**
 * The kernel's rule for a handoff to the parent graph (`Command.PARENT`, see `command-parent.ts`): a
 * superstep one of whose tasks handed off ends the run there. The first such task in declaration order
 * is the handoff; the superstep commits nothing, so the other tasks' writes (and the child's own state)
 * never reach the parent, which receives only the handoff's update, as on LangGraph.js, whose child
 * raises a `ParentCommand` from the handing-off task and commits nothing of that superstep.
 */
import { quote, quoteList } from "../../_describe.js";
import { handoffOf, isHandoff } from "../command-parent.js";
import { StepFailure, type State, type Task } from "../step.js";

/**
 * The handoff that ends the superstep, as the failure that carries it (`NO_PARENT_GRAPH`, its `cause`
 * the {@link ParentHandoff}) and the node that returned it; `undefined` when no task handed off. A
 * subgraph node that ran the run takes the handoff from the failure; a run with no parent fails with it.
 *
 * @example
 * ```ts
 * const handoff = superstepHandoff(tasks, updates);
 * if (handoff !== undefined) throw toError(handoff.failure, handoff.node);
 * ```
 */
export function superstepHandoff(
  tasks: readonly Task[],
  updates: readonly State[],
): { readonly node: string; readonly failure: StepFailure } | undefined {
  for (let index = 0; index < tasks.length; index++) {
    const { node } = tasks[index] as Task;
    const handoff = handoffOf(node, updates[index]);
    if (handoff === undefined) continue;
    const targets = handoff.goto.map((task) => task.node);
    const where = targets.length === 0 ? "" : ` (goto ${quoteList(targets)})`;
    const message =
      `node ${quote(node)} returned a Command with graph: Command.PARENT${where}, but this graph runs on its own, with no parent to hand off to. ` +
      `Run it as a subgraph node of the graph it hands off to (parent.addNode(name, thisGraph, { ends: [${targets.map((target) => quote(target)).join(", ")}] })), ` +
      `or leave graph out to go within this graph.`;
    return { node, failure: new StepFailure("NO_PARENT_GRAPH", message, { cause: handoff }) };
  }
  return undefined;
}

/** Whether a task's update is a handoff: it keeps no write when its superstep pauses or fails (it runs again, as on LangGraph.js). */
export function keepsNoWrite(update: State | undefined): boolean {
  return isHandoff(update);
}
