/**
 * Pending writes on threads (issue 19 §2): when one task of a parallel superstep fails, the siblings
 * that succeeded keep their writes in the checkpoint; a resume runs only the failed task, on the
 * superstep's input state, and commits every write together in declaration order.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, END, GraphExecutionError, Send, START, StateGraph, sum } from "../../src/index.js";
import type { Checkpointer } from "../../src/persistence/index.js";
import { storesUnderTest } from "./_helpers.js";

const stores = storesUnderTest("pending.sqlite");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The reserved write that records a failed task (engine/threads/pending-writes.ts, `failureWrite`). */
const failureOf = (task: number, node: string) => ({
  task,
  node,
  update: { __tsg_error__: expect.objectContaining({ name: "GraphExecutionError", code: "NODE_FAILED" }) },
});

describe.each(stores)("pending writes on %s", (_name, open) => {
  let checkpointer: Checkpointer;
  let close: () => void;
  beforeEach(() => ({ checkpointer, close } = open()));
  afterEach(() => close());

  // LangGraph's test_pending_writes_resume: "one" succeeds, "two" fails after two attempts; the sibling runs once in all.
  it("ports LangGraph's pending-writes test: the sibling that succeeded is called once across three invokes", async () => {
    const calls = { one: 0, two: 0 };
    let twoFails = true;
    const graph = new StateGraph<{ value: number }>({ reducers: { value: sum } })
      .addNode("one", async () => {
        calls.one += 1;
        await sleep(1);
        return { value: 2 };
      })
      .addNode(
        "two",
        async () => {
          calls.two += 1;
          await sleep(5);
          if (twoFails) throw new Error("I'm not good");
          return { value: 3 };
        },
        { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } },
      )
      .addEdge(START, ["one", "two"])
      .addEdge(["one", "two"], END)
      .compile({ checkpointer });
    const thread = { threadId: "1" };

    const first = (await graph.invoke({ value: 1 }, thread).catch((e: unknown) => e)) as GraphExecutionError;
    expect(first).toBeInstanceOf(GraphExecutionError);
    expect(first.message).toContain("I'm not good");
    expect(calls).toEqual({ one: 1, two: 2 });
    // LangGraph's view: the kept write applied, only "two" still to run; the checkpoint keeps one's write.
    const state = await graph.getState("1");
    expect(state?.next).toEqual(["two"]);
    expect(state?.state).toEqual({ value: 3 });
    const stored = await checkpointer.latest("1");
    expect(stored?.state).toEqual({ value: 1 });
    expect(stored?.next).toEqual(["one", "two"]);
    // "two"'s failure is kept beside it (getState shows it as the task's error; a resume skips it).
    expect(stored?.pendingWrites).toEqual([{ task: 0, node: "one", update: { value: 2 } }, failureOf(1, "two")]);

    await expect(graph.invoke(null, thread)).rejects.toThrow("I'm not good");
    expect(calls).toEqual({ one: 1, two: 4 });
    // No checkpoint was saved by the failed resume.
    expect((await checkpointer.list("1")).map((c) => c.id)).toEqual([stored?.id]);

    twoFails = false;
    const done = await graph.invoke(null, thread);
    expect(done.state).toEqual({ value: 6 });
    expect(done.trace).toEqual(["one", "two"]);
    expect(calls).toEqual({ one: 1, two: 5 });
    const [last] = await checkpointer.list("1");
    expect(last?.metadata.writes).toEqual(["one", "two"]);
    expect(last).not.toHaveProperty("pendingWrites");
  });

  it("commits the kept and the re-run writes in declaration order, and the re-run reads the superstep's input state", async () => {
    let failB = true;
    const seenByB: string[][] = [];
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", async (s) => {
        seenByB.push([...s.log]);
        await sleep(2);
        if (failB) throw new Error("b broke");
        return { log: ["b"] };
      })
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", (s) => ({ log: [`d saw ${s.log.join(",")}`] }))
      .addEdge(START, ["a", "b", "c"])
      .addEdge(["a", "b", "c"], "d")
      .addEdge("d", END)
      .compile({ checkpointer });
    await expect(graph.invoke({ log: ["in"] }, { threadId: "t" })).rejects.toThrow("b broke");
    expect((await checkpointer.latest("t"))?.pendingWrites?.map((w) => w.node)).toEqual(["a", "b", "c"]);
    expect((await checkpointer.latest("t"))?.pendingWrites?.[1]).toEqual(failureOf(1, "b"));
    failB = false;
    const resumed = await graph.invoke(null, { threadId: "t" });
    const plain = await new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", (s) => ({ log: [`d saw ${s.log.join(",")}`] }))
      .addEdge(START, ["a", "b", "c"])
      .addEdge(["a", "b", "c"], "d")
      .addEdge("d", END)
      .compile()
      .invoke({ log: ["in"] });
    expect(resumed.state).toEqual(plain.state);
    expect(resumed.trace).toEqual(plain.trace);
    expect(seenByB).toEqual([["in"], ["in"]]);
  });

  it("tells Sends to one node apart by position: only the failed Send runs again, with its own input", async () => {
    const ran: string[] = [];
    let failY = true;
    // y fails only once x and z have returned (and a macrotask later, once their writes are kept): a
    // timed sleep lost that race on a loaded machine.
    let finished = 0;
    let othersReturned!: () => void;
    const others = new Promise<void>((resolve) => (othersReturned = resolve));
    const graph = new StateGraph<{ docs: string[]; sums: string[] }>({ reducers: { sums: append } })
      .addNode("plan", () => ({ docs: ["x", "y", "z"] }))
      .addNode("summarize", async (input: { doc: string }) => {
        ran.push(input.doc);
        if (input.doc === "y" && failY) {
          await others;
          await sleep(0);
          throw new Error("y broke");
        }
        if (input.doc !== "y" && ++finished === 2) othersReturned();
        return { sums: [`sum ${input.doc}`] };
      })
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => s.docs.map((doc) => new Send("summarize", { doc })), ["summarize"])
      .addEdge("summarize", END)
      .compile({ checkpointer });
    await expect(graph.invoke({ docs: [], sums: [] }, { threadId: "s" })).rejects.toThrow("y broke");
    expect((await checkpointer.latest("s"))?.pendingWrites?.map((w) => w.task)).toEqual([0, 1, 2]);
    expect((await checkpointer.latest("s"))?.pendingWrites?.[1]).toEqual(failureOf(1, "summarize"));
    failY = false;
    const done = await graph.invoke(null, { threadId: "s" });
    expect(done.state.sums).toEqual(["sum x", "sum y", "sum z"]);
    expect(ran.sort()).toEqual(["x", "y", "y", "z"]);
  });

  it("a re-run that fails again keeps the writes already kept (the error carries them all)", async () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", async () => {
        await sleep(1);
        throw new Error("b broke");
      })
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile({ checkpointer });
    await expect(graph.invoke({ log: [] }, { threadId: "t" })).rejects.toThrow("b broke");
    const again = (await graph.invoke(null, { threadId: "t" }).catch((e: unknown) => e)) as GraphExecutionError;
    expect(again.pendingWrites).toEqual([{ node: "a", update: { log: ["a"] } }]);
    expect((await checkpointer.latest("t"))?.pendingWrites).toEqual([{ task: 0, node: "a", update: { log: ["a"] } }, failureOf(1, "b")]);
  });

  it("a new input starts a new run: the kept writes of the failed superstep are not applied to it", async () => {
    let calls = 0;
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => {
        calls += 1;
        return { log: ["a"] };
      })
      .addNode("b", async (s) => {
        await sleep(1);
        if (s.log.length === 0) throw new Error("b broke");
        return { log: ["b"] };
      })
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile({ checkpointer });
    await expect(graph.invoke({ log: [] }, { threadId: "t" })).rejects.toThrow("b broke");
    const done = await graph.invoke({ log: ["new"] }, { threadId: "t" });
    expect(done.state.log).toEqual(["new", "a", "b"]);
    expect(calls).toBe(2);
  });

  it("refuses a kept write that names another task than the checkpoint's (INCOMPATIBLE_CHECKPOINT), running nothing", async () => {
    let ran = 0;
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => {
        ran += 1;
        return { log: ["a"] };
      })
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile({ checkpointer, interruptBefore: ["a"] });
    const paused = await graph.invoke({ log: [] }, { threadId: "t" });
    await checkpointer.putWrites("t", paused.checkpointId, [{ task: 1, node: "a", update: { log: ["forged"] } }]);
    await expect(graph.invoke(null, { threadId: "t" })).rejects.toMatchObject({
      code: "INCOMPATIBLE_CHECKPOINT",
      message: expect.stringContaining('keeps a write of "a" for task 1, but that task is "b"'),
    });
    expect(ran).toBe(0);
  });

  it("a store whose putWrites fails only costs a re-run: the superstep still commits, and a failed one runs its siblings again", async () => {
    const failing: Checkpointer = Object.assign(Object.create(checkpointer) as Checkpointer, {
      save: checkpointer.save.bind(checkpointer),
      latest: checkpointer.latest.bind(checkpointer),
      get: checkpointer.get.bind(checkpointer),
      list: checkpointer.list.bind(checkpointer),
      deleteThread: checkpointer.deleteThread.bind(checkpointer),
      putWrites: async () => {
        throw new Error("disk on fire");
      },
    });
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile({ checkpointer: failing });
    const done = await graph.invoke({ log: [] }, { threadId: "t" });
    expect(done.state.log).toEqual(["a", "b"]);
  });
});
