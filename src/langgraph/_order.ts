/**
 * The merge order of a superstep on LangGraph.js. LangGraph applies a superstep's writes sorted by task
 * path: plain tasks by node name, then Sends in the order they were sent. The mini engine merges in
 * declaration order. Each wrapped node tags the objects of its update with its rank, and a reducer
 * channel folds one superstep's values in rank order, so both engines reduce in the same order.
 */
import type { BaseChannel } from "@langchain/langgraph";
import type { State } from "../engine/_kernel.js";
import type { LangGraphModule } from "./_load.js";

/** Where a task merges: its node's declaration index, 0 for a plain task or 1 for a Send, then the Send's index. */
export type MergeRank = readonly [order: number, sent: number, index: number];

/** LangGraph's path of a Send task starts with this. */
const PUSH = "__pregel_push";

const ranks = new WeakMap<object, MergeRank>();

/** The rank of the task LangGraph runs `node` in, read from the task's `config.metadata.langgraph_path`. */
export function mergeRank(order: number, config: unknown): MergeRank {
  const path = fieldOf(fieldOf(config, "metadata"), "langgraph_path");
  if (Array.isArray(path) && path[0] === PUSH && typeof path[1] === "number") return [order, 1, path[1]];
  return [order, 0, 0];
}

/** Tags the object values of `update` with `rank` (a number or string cannot be tagged; see {@link inMergeOrder}). */
export function rankValues(update: State, rank: MergeRank): State {
  for (const value of Object.values(update)) if (typeof value === "object" && value !== null) ranks.set(value, rank);
  return update;
}

/** Compares two ranks: declaration order, then plain before Send, then Send order. */
export function compareRanks(a: MergeRank, b: MergeRank): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * One superstep's values for a channel in merge order. Values that are not tagged objects (numbers,
 * strings, booleans, or objects no wrapped node returned) keep LangGraph's order for the whole list.
 */
export function inMergeOrder<T>(values: readonly T[]): T[] {
  if (values.length < 2) return [...values];
  const tagged: [T, MergeRank][] = [];
  for (const value of values) {
    const rank = typeof value === "object" && value !== null ? ranks.get(value) : undefined;
    if (rank === undefined) return [...values];
    tagged.push([value, rank]);
  }
  return tagged.sort((a, b) => compareRanks(a[1], b[1])).map(([value]) => value);
}

/**
 * A LangGraph `BinaryOperatorAggregate` channel (what `Annotation({ reducer })` builds) that folds one
 * superstep's values in declaration order instead of LangGraph's node-name order.
 */
export function orderedAggregate(lg: LangGraphModule, reducer: (current: unknown, update: unknown) => unknown): BaseChannel {
  class DeclarationOrderAggregate extends lg.BinaryOperatorAggregate<unknown, unknown> {
    override fromCheckpoint(checkpoint?: unknown): this {
      const restored = new DeclarationOrderAggregate(this.operator, this.initialValueFactory);
      restored.value = super.fromCheckpoint(checkpoint).value;
      return restored as this;
    }

    override update(values: unknown[]): boolean {
      return super.update(inMergeOrder(values));
    }
  }
  return new DeclarationOrderAggregate(reducer);
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
