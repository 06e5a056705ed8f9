/**
 * `bulkUpdateState`: several supersteps of edits applied to a thread at once, as LangGraph.js's. Each
 * superstep is a list of `{ values, asNode }` updates merged together, as the writes of nodes that ran
 * in one superstep; each makes one checkpoint, by the rules of `updateState` (update-state.ts, the one
 * implementation); all of them are stored in one `saveMany`, or none.
 */
import { describeValue } from "../step.js";
import { InvalidOptionError } from "../../errors.js";
import { isPlainObject } from "../clone.js";
import type { ExecutableGraph } from "../executable.js";
import { unreadableInput } from "../run-checks.js";
import type { Checkpoint } from "../checkpointer.js";
import type { BulkUpdateStateOptions, ThreadSettings } from "./types.js";
import { editThread, type EditCall, type StateEdit } from "./update-state.js";

const call: EditCall = {
  api: "bulkUpdateState",
  label: (superstep, update) => `bulkUpdateState: supersteps[${superstep}].updates[${update}]`,
  atomic: true,
};

/** Applies `supersteps` to the thread; resolves with the last checkpoint written (the thread's latest). */
export async function bulkUpdateThreadState(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  supersteps: unknown,
  options: BulkUpdateStateOptions = {},
): Promise<Checkpoint> {
  try {
    return await editThread(call, graph, settings, threadId, checkSupersteps(supersteps), options);
  } catch (error) {
    throw unreadableInput("bulkUpdateState", "supersteps", supersteps, error);
  }
}

/** The supersteps' shape: a non-empty list of `{ updates }`, each a non-empty list of `{ values, asNode? }`. */
function checkSupersteps(supersteps: unknown): readonly (readonly StateEdit[])[] {
  const invalid = (problem: string) =>
    new InvalidOptionError(
      `bulkUpdateState: ${problem}. Pass a list of supersteps, each { updates: [{ values, asNode }, …] }, such as [{ updates: [{ values: { draft }, asNode: "write" }] }].`,
      { code: "INVALID_ARGUMENT" },
    );
  if (!Array.isArray(supersteps) || supersteps.length === 0)
    throw invalid(`the supersteps must be a non-empty list; got ${describeValue(supersteps)}`);
  return supersteps.map((superstep: unknown, index) => {
    const updates: unknown = isPlainObject(superstep) ? superstep.updates : undefined;
    if (!Array.isArray(updates) || updates.length === 0)
      throw invalid(`supersteps[${index}] must be { updates } with a non-empty list of updates; got ${describeValue(superstep)}`);
    return updates.map((update: unknown, position): StateEdit => {
      if (!isPlainObject(update) || !("values" in update))
        throw invalid(`supersteps[${index}].updates[${position}] must be { values, asNode? }; got ${describeValue(update)}`);
      const { asNode } = update;
      if (asNode !== undefined && typeof asNode !== "string")
        throw invalid(`supersteps[${index}].updates[${position}].asNode must be a node's name; got ${describeValue(asNode)}`);
      return { values: update.values, asNode };
    });
  });
}
