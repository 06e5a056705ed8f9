/**
 * A failed task's `error` on the thread's snapshot (issue 38 §1): kept as a reserved pending write of the
 * checkpoint its superstep started from, shown by `getState` and `getStateHistory` (latest or by id, as
 * LangGraph.js 1.7.3's `tasksWithWrites`), and skipped by a resume, which runs the task again. Ported from
 * LangGraph.js's libs/langgraph-core/src/tests/python_port/checkpoint.test.ts, "should test pending
 * writes resume functionality" and "should recover from checkpoints after failures with async nodes";
 * the differential case is in test/langgraph/thread-edits.test.ts.
 */
import { describe, expect, it } from "vitest";
import { END, Send, START, StateGraph, sum } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";

interface S {
  value: number;
}

/** START → [one, two]: one adds 2, two throws while `broken.two` (under a retry of 2 attempts), else adds 3. */
function pair(broken: { two: boolean }, calls: { two: number }) {
  return new StateGraph<S>({ reducers: { value: sum }, fields: ["value"] })
    .addNode("one", () => ({ value: 2 }))
    .addNode(
      "two",
      () => {
        calls.two += 1;
        if (broken.two) throw new Error("I'm not good");
        return { value: 3 };
      },
      { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } },
    )
    .addEdge(START, ["one", "two"])
    .addEdge(["one", "two"], END)
    .compile();
}

describe("a failed task's error on getState", () => {
  it("shows on the latest state and by id, the failed task stays in next, and a resume runs it again", async () => {
    const broken = { two: true };
    const calls = { two: 0 };
    const graph = pair(broken, calls);
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.invoke({ value: 1 }, { threadId: "t", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    expect(calls.two).toBe(2);
    const latest = await graph.getState("t", { checkpointer });
    expect(latest?.state).toEqual({ value: 3 });
    expect(latest?.next).toEqual(["two"]);
    expect(latest?.tasks.map((task) => [task.node, task.error?.code])).toEqual([
      ["one", undefined],
      ["two", "NODE_FAILED"],
    ]);
    expect(latest?.tasks[1]?.error).toEqual({
      name: "GraphExecutionError",
      code: "NODE_FAILED",
      message: expect.stringContaining("I'm not good"),
    });
    // By id: as saved (no kept update merged), the error still shown.
    const byId = await graph.getState("t", { checkpointer, checkpointId: latest?.id ?? "" });
    expect({ state: byId?.state, next: byId?.next, error: byId?.tasks[1]?.error?.code }).toEqual({
      state: { value: 1 },
      next: ["one", "two"],
      error: "NODE_FAILED",
    });
    const [head] = await graph.getStateHistory("t", { checkpointer });
    expect(head?.tasks[1]?.error?.code).toBe("NODE_FAILED");
    // The store keeps it as a reserved pending write; the resume skips it and runs only "two".
    broken.two = false;
    const done = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(done.state).toEqual({ value: 6 });
    expect(calls.two).toBe(3);
    expect((await graph.getState("t", { checkpointer }))?.tasks).toEqual([]);
  });

  it("a lone failing task records its error too (a sequential graph)", async () => {
    const graph = new StateGraph<S>({ fields: ["value"] })
      .addNode("node1", (): Partial<S> => {
        throw new Error("Simulated failure");
      })
      .addEdge(START, "node1")
      .addEdge("node1", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.invoke({ value: 1 }, { threadId: "t", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    const latest = await graph.getState("t", { checkpointer });
    expect({ next: latest?.next, state: latest?.state }).toEqual({ next: ["node1"], state: { value: 1 } });
    expect(latest?.tasks[0]?.error?.message).toContain("Simulated failure");
    const history = await graph.getStateHistory("t", { checkpointer });
    expect(history.find((checkpoint) => checkpoint.tasks[0]?.error !== undefined)?.tasks[0]?.error?.message).toContain("Simulated failure");
  });

  it("of two Sends to one node, the one that failed carries it", async () => {
    interface Items {
      value: number;
      items: number[];
    }
    const graph = new StateGraph<Items>({ reducers: { value: sum }, fields: ["value", "items"] })
      .addNode("work", (s: Items) => {
        if (s.value === 2) throw new Error("two is bad");
        return { value: s.value };
      })
      .addConditionalEdges(START, (s) => s.items.map((n) => new Send("work", { value: n, items: [] })), ["work"])
      .addEdge("work", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.invoke({ value: 0, items: [1, 2, 4] }, { threadId: "t", checkpointer })).rejects.toMatchObject({
      code: "NODE_FAILED",
    });
    const latest = await graph.getState("t", { checkpointer });
    expect(latest?.tasks.map((task) => task.error === undefined)).toEqual([true, false, true]);
    // The first Send's update is kept; the third never started (its sibling's failure cancelled it).
    expect(latest?.state.value).toBe(1);
    expect(latest?.next).toEqual(["work", "work"]);
  });

  it("is not kept in exit durability, where nothing is stored before the run's end", async () => {
    const graph = pair({ two: true }, { two: 0 });
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.invoke({ value: 1 }, { threadId: "t", checkpointer, durability: "exit" })).rejects.toMatchObject({
      code: "NODE_FAILED",
    });
    const latest = await graph.getState("t", { checkpointer });
    expect(latest?.tasks.map((task) => task.node)).toEqual(["one", "two"]);
    expect(latest?.tasks.every((task) => task.error === undefined)).toBe(true);
  });
});
