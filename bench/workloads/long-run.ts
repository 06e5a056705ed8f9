/**
 * What a long run's result holds while it is held (issue 37: a million steps held 154 MB, 161 B a step):
 * one node looping on itself through a router for `steps` steps, its `invoke` result kept, `steps` and
 * `routes` unread, the heap grown across full collections divided by the steps. The figure is bytes per
 * step, so a small run (the smoke test's) measures the same thing a million-step one does, with more noise.
 */
import { END, START, StateGraph } from "../../src/index.js";
import { dataHeapInUse, fullCollection } from "./memory.js";

/** Bytes a held `invoke` result of a `steps`-step loop retains per step (the median of three runs). */
export async function longRunRetention(steps: number): Promise<number> {
  const graph = new StateGraph<{ i: number }>()
    .addNode("tick", (state) => ({ i: state.i + 1 }))
    .addEdge(START, "tick")
    .addConditionalEdges("tick", (state) => (state.i < steps ? "again" : "done"), { again: "tick", done: END })
    .compile();
  const limits = { maxSteps: steps, recursionLimit: steps };
  const once = async (): Promise<number> => {
    fullCollection();
    const before = dataHeapInUse();
    const held = await graph.invoke({ i: 0 }, limits);
    fullCollection();
    const grown = dataHeapInUse() - before;
    if (held.trace.length !== steps) throw new Error(`bench: the long run ended after ${held.trace.length} steps, not ${steps}`);
    return grown / steps;
  };
  const figures = [await once(), await once(), await once()].sort((a, b) => a - b);
  return figures[1] as number;
}
