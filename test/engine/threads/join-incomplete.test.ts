/**
 * A threaded run ends as `invoke` does: when no task is left but a join still waits, the kernel's
 * `admit` says JOIN_INCOMPLETE, and the thread runner asks it (it used to end such a run as done;
 * found by the engine-equivalence property once the thread runner joined it).
 */
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";

/** START → a; [a, b] → c; c routes to b or END: the first run reaches the join with b never run. */
const graph = new StateGraph<{ n: number }>()
  .addNode("a", (s) => ({ n: s.n + 1 }))
  .addNode("b", (s) => ({ n: s.n + 10 }))
  .addNode("c", (s) => ({ n: s.n + 100 }))
  .addEdge(START, "a")
  .addEdge(["a", "b"], "c")
  .addConditionalEdges("c", (s): "again" | "done" => (s.n < 0 ? "again" : "done"), { again: "b", done: END })
  .compile();

describe("a threaded run that ends with a join waiting", () => {
  it("fails with JOIN_INCOMPLETE, as invoke does, after saving the supersteps it committed", async () => {
    const plain = await graph.invoke({ n: 0 }).catch((error: unknown) => error);
    expect(plain).toMatchObject({ code: "JOIN_INCOMPLETE", node: "c", trace: ["a"] });
    const checkpointer = new MemoryCheckpointer();
    const threaded = await graph.invoke({ n: 0 }, { threadId: "t", checkpointer }).catch((error: unknown) => error);
    expect(threaded).toMatchObject({ code: "JOIN_INCOMPLETE", node: "c", trace: ["a"], state: { n: 1 } });
    expect((threaded as Error).message).toBe((plain as Error).message);
    expect((await graph.getState("t", { checkpointer }))?.state).toEqual({ n: 1 });
  });
});
