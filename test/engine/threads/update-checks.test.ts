/**
 * `updateState` checks the update before it reads the thread, as LangGraph.js's `Pregel.updateState`
 * validates the update's channels first (issue 38 §1: the differential suite found NOTHING_TO_RESUME
 * reported before the update's unknown key).
 */
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";

interface S {
  n: number;
}
const graph = new StateGraph<S>({ fields: ["n"] })
  .addNode("a", () => ({ n: 1 }))
  .addEdge(START, "a")
  .addEdge("a", END)
  .compile();
const bad = { nope: 1 } as unknown as Partial<S>;

describe("updateState's first fault is the update's", () => {
  it("an unknown key on a thread with no checkpoint is UNDECLARED_FIELD, not NOTHING_TO_RESUME", async () => {
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.updateState("empty", bad, { checkpointer })).rejects.toMatchObject({
      name: "InvalidUpdateError",
      code: "UNDECLARED_FIELD",
      state: {},
      trace: [],
    });
    // A good update on that thread is still NOTHING_TO_RESUME, and an unknown checkpoint id CHECKPOINT_NOT_FOUND.
    await expect(graph.updateState("empty", { n: 2 }, { checkpointer })).rejects.toMatchObject({ code: "NOTHING_TO_RESUME" });
    await graph.invoke({ n: 0 }, { threadId: "t", checkpointer });
    await expect(graph.updateState("t", bad, { checkpointer, checkpointId: "missing" })).rejects.toMatchObject({
      code: "UNDECLARED_FIELD",
    });
    await expect(graph.updateState("t", { n: 2 }, { checkpointer, checkpointId: "missing" })).rejects.toMatchObject({
      code: "CHECKPOINT_NOT_FOUND",
    });
    await expect(graph.updateState("t", bad, { checkpointer })).rejects.toMatchObject({
      code: "UNDECLARED_FIELD",
      state: { n: 1 },
      trace: ["a"],
    });
  });
});
