/**
 * In-node interrupts and Command resumes, with cases ported from LangGraph.js's tests
 * (libs/langgraph-core/src/tests/pregel.test.ts: "can throw a node interrupt multiple times in a single
 * node", the tool_two interrupt/resume/update cases, parallel interrupts resumed by id).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { append, Command, defineInterrupt, END, interrupt, InterruptError, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Doc {
  draft: string;
  log: string[];
}

/** START → write → review (interrupts for an approval) → publish → END, counting each node's runs. */
function reviewGraph() {
  const runs: Record<string, number> = {};
  const count = (node: string) => (runs[node] = (runs[node] ?? 0) + 1);
  const graph = new StateGraph<Doc>({ reducers: { log: append } })
    .addNode("write", () => (count("write"), { draft: "v1", log: ["write"] }))
    .addNode("review", async (s) => {
      count("review");
      await Promise.resolve();
      const answer = interrupt<string>({ question: "Publish?", draft: s.draft });
      return { log: [`review ${answer}`] };
    })
    .addNode("publish", () => (count("publish"), { log: ["publish"] }))
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addEdge("review", "publish")
    .addEdge("publish", END)
    .compile();
  return { graph, runs };
}

describe("interrupt() in a node", () => {
  it("pauses the run with the interrupt's id, node and payload, saved with the thread", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = reviewGraph();
    const paused = await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({
      status: "interrupted",
      next: ["review"],
      state: { draft: "v1", log: ["write"] },
      trace: ["write"],
      interrupt: {
        when: "during",
        nodes: ["review"],
        interrupts: [{ id: "review:2:0:0", node: "review", value: { question: "Publish?", draft: "v1" } }],
      },
    });
    const saved = await graph.getState("t1", { checkpointer });
    expect(saved).toMatchObject({ id: paused.checkpointId, metadata: { source: "interrupt", writes: [] }, next: ["review"] });
    expect(saved?.interrupts).toEqual(paused.status === "interrupted" ? paused.interrupt.interrupts : undefined);
    expect(runs).toEqual({ write: 1, review: 1 });
  });

  it("resumes with Command({ resume }): the node runs again from its start and interrupt() returns the value", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = reviewGraph();
    await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "t1", checkpointer });
    expect(done).toMatchObject({
      status: "done",
      state: { log: ["write", "review yes", "publish"] },
      trace: ["write", "review", "publish"],
    });
    expect(runs).toEqual({ write: 1, review: 2, publish: 1 });
    const uninterrupted = await new StateGraph<Doc>({ reducers: { log: append } })
      .addNode("write", () => ({ draft: "v1", log: ["write"] }))
      .addNode("review", () => ({ log: ["review yes"] }))
      .addNode("publish", () => ({ log: ["publish"] }))
      .addEdge(START, "write")
      .addEdge("write", "review")
      .addEdge("review", "publish")
      .addEdge("publish", END)
      .compile()
      .invoke({ draft: "", log: [] });
    expect(done.state).toEqual(uninterrupted.state);
  });

  it("invoke(null) on a paused node runs it again, and it pauses again (LangGraph's rule)", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = reviewGraph();
    const first = await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    const again = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(again).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "review:2:0:0" }] } });
    expect(again.checkpointId).not.toBe(first.checkpointId);
    expect(runs.review).toBe(2);
  });

  it("several calls in one node are answered in order, one resume at a time", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ myKey: string }>({ reducers: { myKey: (a: string, b: string) => a + b } })
      .addNode("one", () => {
        const answer = interrupt<string>({ value: 1 });
        const answer2 = interrupt<string>({ value: 2 });
        return { myKey: ` ${answer} ${answer2}` };
      })
      .addEdge(START, "one")
      .addEdge("one", END)
      .compile();
    const first = await graph.invoke({ myKey: "DE" }, { threadId: "t1", checkpointer });
    expect(first.status === "interrupted" && first.interrupt.interrupts).toEqual([{ id: "one:1:0:0", node: "one", value: { value: 1 } }]);
    const second = await graph.invoke(new Command({ resume: "answer 1" }), { threadId: "t1", checkpointer });
    expect(second.status === "interrupted" && second.interrupt.interrupts).toEqual([{ id: "one:1:0:1", node: "one", value: { value: 2 } }]);
    expect((await graph.getState("t1", { checkpointer }))?.resumes).toEqual({ "one:1:0:0": "answer 1" });
    const done = await graph.invoke(new Command({ resume: "answer 2" }), { threadId: "t1", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { myKey: "DE answer 1 answer 2" } });
  });

  it("a node that catches the pause still pauses", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ answer: string }>()
      .addNode("ask", () => {
        try {
          return { answer: interrupt<string>("name?") };
        } catch {
          return { answer: "swallowed" };
        }
      })
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const paused = await graph.invoke({ answer: "" }, { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({ status: "interrupted", state: { answer: "" } });
    expect((await graph.invoke(new Command({ resume: "Ada" }), { threadId: "t1", checkpointer })).state.answer).toBe("Ada");
  });

  it("is never retried by a retry policy", async () => {
    let calls = 0;
    const graph = new StateGraph<{ answer: string }>()
      .addNode("ask", () => (calls++, { answer: interrupt<string>("name?") }), {
        retry: { maxAttempts: 5, initialInterval: 1, jitter: false },
      })
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const paused = await graph.invoke({ answer: "" }, { threadId: "t1", checkpointer: new MemoryCheckpointer() });
    expect(paused.status).toBe("interrupted");
    expect(calls).toBe(1);
  });

  it("outside a threaded run is an InterruptError that says how to run on a thread", async () => {
    const graph = new StateGraph<{ answer: string }>()
      .addNode("ask", () => ({ answer: interrupt<string>("name?") }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const error = await graph.invoke({ answer: "" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INTERRUPT_OUTSIDE_THREAD", cause: { code: "INTERRUPT_OUTSIDE_THREAD" } });
    expect(error).toBeInstanceOf(InterruptError);
    expect((error as Error).message).toContain('invoke: node "ask" called interrupt() outside a threaded run');
  });
});

describe("Command on resume", () => {
  it("update is merged through the reducers before the node runs again, and saved first", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = reviewGraph();
    await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    const done = await graph.invoke(new Command({ resume: "ok", update: { draft: "v2", log: ["edited"] } }), {
      threadId: "t1",
      checkpointer,
    });
    expect(done.state).toEqual({ draft: "v2", log: ["write", "edited", "review ok", "publish"] });
    const sources = (await checkpointer.list("t1")).reverse().map((c) => c.metadata.source);
    expect(sources).toEqual(["input", "loop", "interrupt", "update", "loop", "loop"]);
  });

  it("goto replaces the pending tasks and their interrupts", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = reviewGraph();
    await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    const done = await graph.invoke(new Command({ goto: "publish" }), { threadId: "t1", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { log: ["write", "publish"] } });
    expect(runs.review).toBe(1);
  });

  it.each([
    ["a resume on a thread with nothing pending", "NO_PENDING_INTERRUPT", /has no pending interrupt to resume/],
    [
      "an unknown id",
      "UNKNOWN_INTERRUPT",
      /names "nope:9:0:0", which thread "t1" is not waiting for; its pending interrupts are "review:2:0:0"/,
    ],
  ])("refuses %s (%s)", async (name, code, message) => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = reviewGraph();
    await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    if (code === "NO_PENDING_INTERRUPT") await graph.invoke(new Command({ resume: "yes" }), { threadId: "t1", checkpointer });
    const resume = code === "UNKNOWN_INTERRUPT" ? { "nope:9:0:0": "x" } : "again";
    const error = await graph.invoke(new Command({ resume }), { threadId: "t1", checkpointer }).catch((e: unknown) => e);
    expect(error, name).toBeInstanceOf(InterruptError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it("goto to an unknown node is refused", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = reviewGraph();
    await graph.invoke({ draft: "", log: [] }, { threadId: "t1", checkpointer });
    // @ts-expect-error - the compiler refuses "nope" too; the run-time check is for JavaScript callers
    await expect(graph.invoke(new Command({ goto: "nope" }), { threadId: "t1", checkpointer })).rejects.toThrow(
      'invoke: Command goto names "nope", which is not a node of this graph; use one of write, review, publish.',
    );
  });
});

describe("parallel interrupts: each has its own id, a map resumes them by id, and the siblings keep their writes", () => {
  function parallelAsks() {
    const runs: string[] = [];
    const graph = new StateGraph<{ answers: string[] }>({ reducers: { answers: append } })
      .addNode("plan", () => (runs.push("plan"), {}))
      .addNode("left", () => (runs.push("left"), { answers: [`left ${interrupt<string>({ side: "left" })}`] }))
      .addNode("right", () => (runs.push("right"), { answers: [`right ${interrupt<string>({ side: "right" })}`] }))
      .addNode("calm", () => (runs.push("calm"), { answers: ["calm"] }))
      .addEdge(START, "plan")
      .addEdge("plan", ["left", "right", "calm"])
      .addEdge(["left", "right", "calm"], END)
      .compile();
    return { graph, runs };
  }

  it("pauses once for both, with distinct ids; a single value is ambiguous; a partial map pauses again for the rest", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = parallelAsks();
    const paused = await graph.invoke({ answers: [] }, { threadId: "t1", checkpointer });
    const ids = paused.status === "interrupted" ? (paused.interrupt.interrupts ?? []).map((i) => i.id) : [];
    expect(ids).toEqual(["left:2:0:0", "right:2:1:0"]);
    expect(paused.state.answers).toEqual([]);
    // Only the sibling that finished is a pending write, on the interrupt checkpoint and on the one its superstep started from.
    const interrupted = await checkpointer.get("t1", paused.checkpointId);
    const started = await checkpointer.get("t1", interrupted?.parentId ?? "");
    expect(interrupted?.pendingWrites?.map((w) => w.node)).toEqual(["calm"]);
    expect(started?.pendingWrites?.map((w) => w.node)).toEqual(["calm"]);

    await expect(graph.invoke(new Command({ resume: "yes" }), { threadId: "t1", checkpointer })).rejects.toMatchObject({
      code: "AMBIGUOUS_RESUME",
      message: expect.stringContaining('waits for 2 interrupts ("left:2:0:0", "right:2:1:0"), so one resume value is ambiguous'),
    });
    await expect(graph.invoke(new Command({ resume: {} }), { threadId: "t1", checkpointer })).rejects.toMatchObject({
      code: "AMBIGUOUS_RESUME",
    });

    const partial = await graph.invoke(new Command({ resume: { "right:2:1:0": "R" } }), { threadId: "t1", checkpointer });
    expect(partial.status === "interrupted" && partial.interrupt.interrupts?.map((i) => i.id)).toEqual(["left:2:0:0"]);
    const done = await graph.invoke(new Command({ resume: { "left:2:0:0": "L" } }), { threadId: "t1", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { answers: ["left L", "right R", "calm"] } });
    // The sibling that finished kept its write (a pending write): only the paused nodes ran again.
    expect(runs.filter((r) => r === "plan")).toHaveLength(1);
    expect(runs.filter((r) => r === "calm")).toHaveLength(1);
    expect(runs.filter((r) => r === "right")).toHaveLength(2);
    expect(runs.filter((r) => r === "left")).toHaveLength(3);
  });
});

describe("interrupts are listed in the tasks' order, not the order they paused in", () => {
  it("an async sibling that pauses first is still listed second", async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const graph = new StateGraph<{ answers: string[] }>({ reducers: { answers: append } })
      .addNode("slow", async () => (await sleep(20), { answers: [interrupt<string>({ side: "slow" })] }))
      .addNode("fast", async () => ({ answers: [interrupt<string>({ side: "fast" })] }))
      .addEdge(START, ["slow", "fast"])
      .addEdge(["slow", "fast"], END)
      .compile();
    const paused = await graph.invoke({ answers: [] }, { threadId: "t", checkpointer: new MemoryCheckpointer() });
    expect(paused.status === "interrupted" && paused.interrupt.interrupts?.map((i) => i.id)).toEqual(["slow:1:0:0", "fast:1:1:0"]);
  });
});

describe("defineInterrupt: the answer is typed, and checked at run time by its schema", () => {
  const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval", { schema: z.object({ approved: z.boolean() }) });
  const graph = new StateGraph<{ draft: string; approved: boolean | null }>()
    .addNode("review", (s) => ({ approved: approval({ draft: s.draft }).approved }))
    .addEdge(START, "review")
    .addEdge("review", END)
    .compile();

  it("names the interrupt in the pending list, and resume(answer) continues", async () => {
    const checkpointer = new MemoryCheckpointer();
    const paused = await graph.invoke({ draft: "d", approved: null }, { threadId: "t1", checkpointer });
    expect(paused.status === "interrupted" && paused.interrupt.interrupts).toEqual([
      { id: "review:1:0:0", node: "review", name: "approval", value: { draft: "d" } },
    ]);
    const done = await graph.invoke(approval.resume({ approved: true }), { threadId: "t1", checkpointer });
    expect(done.state.approved).toBe(true);
  });

  it("a resume value that fails the schema is INVALID_RESUME naming the interrupt; a good one still resumes", async () => {
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke({ draft: "d", approved: null }, { threadId: "t1", checkpointer });
    const error = await graph
      .invoke(new Command({ resume: { approved: "yes" } }), { threadId: "t1", checkpointer })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptError);
    expect(error).toMatchObject({
      code: "INVALID_RESUME",
      message: expect.stringMatching(/^approval: the resume value .* does not fit its schema/),
    });
    const done = await graph.invoke(approval.resume({ approved: false }), { threadId: "t1", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { approved: false } });
  });
});

describe("a class instance as a payload: what the type cannot show is refused at run time", () => {
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  // Point's type is an interface's (an object literal may have it), so it compiles; an instance of it is not JSON.
  const at = defineInterrupt<Point, boolean>("at");

  it("an instance of a data class: INVALID_RESUME naming the class, a plain object of its type pauses", async () => {
    const graph = (payload: () => Point) =>
      new StateGraph<{ ok: boolean }>()
        .addNode("ask", () => ({ ok: at(payload()) }))
        .addEdge(START, "ask")
        .addEdge("ask", END)
        .compile();
    const checkpointer = new MemoryCheckpointer();
    const error = await graph(() => new Point(1, 2))
      .invoke({ ok: false }, { threadId: "t1", checkpointer })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptError);
    expect(error).toMatchObject({
      code: "INVALID_RESUME",
      message: "at: the payload must be JSON, to be saved with the thread: payload is an instance of Point.",
    });
    const paused = await graph(() => ({ x: 1, y: 2 })).invoke({ ok: false }, { threadId: "t2", checkpointer });
    expect(paused.status).toBe("interrupted");
  });
});
