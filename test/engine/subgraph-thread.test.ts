import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, Send, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { InvalidOptionError } from "../../src/errors.js";
import { MemoryCheckpointer, type PersistenceError } from "../../src/persistence/index.js";
import { nestedGraph, nestedInput } from "../helpers/nested-graphs.js";

const SEP = "\u001f";

/** Each node's starts, as a plain object. */
const counts = (runs: Map<string, number>) => Object.fromEntries([...runs].sort(([a], [b]) => a.localeCompare(b)));

describe("interrupts inside subgraphs resume inside the child", () => {
  it.each([2, 3])(
    "depth %i: the parent pauses with the child's interrupt, and a resume runs no completed superstep again",
    async (depth) => {
      const runs = new Map<string, number>();
      const graph = nestedGraph(depth, runs);
      const checkpointer = new MemoryCheckpointer();
      const paused = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
      expect(paused.status).toBe("interrupted");
      if (paused.status !== "interrupted") return;
      const [pending, ...others] = paused.interrupt.interrupts ?? [];
      expect(others).toEqual([]);
      const path = Array.from({ length: depth - 1 }, (_, index) => `${index + 1}.sub:2:0/`).join("");
      expect(pending).toMatchObject({ id: `${path}${depth}.ask:2:0:0`, node: `${depth}.ask`, value: { question: `${depth}.ask` } });
      expect(pending?.ns).toHaveLength(depth - 1);
      expect(paused.next).toEqual(["1.sub"]);

      const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
      expect(done.status).toBe("done");
      const as = Array.from({ length: depth }, (_, index) => `${index + 1}.a`);
      const bs = Array.from({ length: depth }, (_, index) => `${depth - index}.b`);
      expect(done.state).toEqual({ log: [...as, `${depth}.ask`, ...bs], answers: [`${depth}.ask=yes`] });
      expect(done.trace).toEqual(["1.a", "1.sub", "1.b"]);
      // Every node ran once; the interrupting one a second time, on resume.
      expect(counts(runs)).toEqual(
        Object.fromEntries([...as, ...bs, `${depth}.ask`].sort().map((name) => [name, name.endsWith("ask") ? 2 : 1])),
      );
    },
  );

  it("a resume without an answer pauses inside the child again, running nothing else", async () => {
    const runs = new Map<string, number>();
    const graph = nestedGraph(3, runs);
    const checkpointer = new MemoryCheckpointer();
    const first = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    const again = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(again.status).toBe("interrupted");
    if (first.status !== "interrupted" || again.status !== "interrupted") return;
    expect(again.interrupt.interrupts).toEqual(first.interrupt.interrupts);
    expect(counts(runs)).toEqual({ "1.a": 1, "2.a": 1, "3.a": 1, "3.ask": 2 });
  });

  it("parallel interrupts in a child: each has its own id, a partial map pauses again for the rest", async () => {
    const runs = new Map<string, number>();
    const graph = nestedGraph(2, runs, "parallel");
    const checkpointer = new MemoryCheckpointer();
    const paused = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const ids = (paused.interrupt.interrupts ?? []).map((pending) => pending.id);
    expect(ids).toEqual(["1.sub:2:0/2.x:2:0:0", "1.sub:2:0/2.y:2:1:0"]);
    const partial = await graph.invoke(new Command({ resume: { [ids[0] as string]: "left" } }), { threadId: "t", checkpointer });
    expect(partial.status).toBe("interrupted");
    if (partial.status !== "interrupted") return;
    expect((partial.interrupt.interrupts ?? []).map((pending) => pending.id)).toEqual([ids[1]]);
    const done = await graph.invoke(new Command({ resume: { [ids[1] as string]: "right" } }), { threadId: "t", checkpointer });
    expect(done.state).toEqual({ log: ["1.a", "2.a", "2.x", "2.y", "2.b", "1.b"], answers: ["2.x=left", "2.y=right"] });
    // x ran twice (paused, answered); y three times (paused, paused again, answered); nothing else again.
    expect(counts(runs)).toEqual({ "1.a": 1, "1.b": 1, "2.a": 1, "2.b": 1, "2.x": 2, "2.y": 3 });
  });

  it.each([1, 2])(
    "two subgraph tasks whose children pause in the opposite order list their interrupts in task order (child depth %i)",
    async (depth) => {
      type Asked = { answers: string[] };
      const asking = (name: string, delay: number) =>
        new StateGraph<Asked>({ reducers: { answers: append } })
          .addNode("ask", async () => {
            // The first task's child pauses last: the order the tasks settle in is not their order.
            await new Promise((resolve) => setTimeout(resolve, delay));
            return { answers: [`${name}=${interrupt<string>(name)}`] };
          })
          .addEdge(START, "ask")
          .addEdge("ask", END)
          .compile();
      const nested = (name: string, delay: number, levels: number): CompiledGraph<Asked> =>
        levels === 1
          ? asking(name, delay)
          : new StateGraph<Asked>({ reducers: { answers: append } })
              .addNode("inner", nested(name, delay, levels - 1))
              .addEdge(START, "inner")
              .addEdge("inner", END)
              .compile();
      const graph = new StateGraph<Asked>({ reducers: { answers: append } })
        .addNode("first", nested("first", 30, depth))
        .addNode("second", nested("second", 0, depth))
        .addEdge(START, ["first", "second"])
        .addEdge("first", END)
        .addEdge("second", END)
        .compile();
      const checkpointer = new MemoryCheckpointer();
      const paused = await graph.invoke({ answers: [] }, { threadId: "t", checkpointer });
      if (paused.status !== "interrupted") throw new Error("expected a pause");
      const ids = (paused.interrupt.interrupts ?? []).map((pending) => pending.id);
      const inner = "inner:1:0/".repeat(depth - 1);
      expect(ids).toEqual([`first:1:0/${inner}ask:1:0:0`, `second:1:1/${inner}ask:1:0:0`]);
      const resume = new Command({ resume: { [ids[0] as string]: "a", [ids[1] as string]: "b" } });
      const done = await graph.invoke(resume, { threadId: "t", checkpointer });
      expect(done.state).toEqual({ answers: ["first=a", "second=b"] });
    },
  );

  it("one value while a child waits for several is AMBIGUOUS_RESUME; an unknown id is UNKNOWN_INTERRUPT", async () => {
    const graph = nestedGraph(2, new Map(), "parallel");
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    await expect(graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer })).rejects.toMatchObject({
      code: "AMBIGUOUS_RESUME",
    });
    await expect(
      graph.invoke(new Command({ resume: { "1.sub:2:0/2.z:2:0:0": "no" } }), { threadId: "t", checkpointer }),
    ).rejects.toMatchObject({ code: "UNKNOWN_INTERRUPT" });
  });

  it("Sends to one subgraph keep a thread each: their interrupts and answers do not mix", async () => {
    type Item = { topic: string; notes: string[] };
    const child = new StateGraph<Item>({ reducers: { notes: append } })
      .addNode("ask", (s) => ({ notes: [`${s.topic}:${interrupt<string>(s.topic)}`] }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const parent = new StateGraph<Item>({ reducers: { notes: append } })
      .addNode("research", child)
      .addConditionalEdges(
        START,
        () => [new Send("research", { topic: "cats", notes: [] }), new Send("research", { topic: "dogs", notes: [] })],
        ["research"],
      )
      .addEdge("research", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    const paused = await parent.invoke({ topic: "", notes: [] }, { threadId: "t", checkpointer });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const pending = paused.interrupt.interrupts ?? [];
    expect(pending.map((p) => [p.id, p.value])).toEqual([
      ["research:1:0/ask:1:0:0", "cats"],
      ["research:1:1/ask:1:0:0", "dogs"],
    ]);
    const answers = Object.fromEntries(pending.map((p) => [p.id, `${String(p.value)}!`]));
    const done = await parent.invoke(new Command({ resume: answers }), { threadId: "t", checkpointer });
    expect(done.state.notes).toEqual(["cats:cats!", "dogs:dogs!"]);
  });

  it("a subgraph node under a retry policy: the child's pause is not retried (the asking node starts once)", async () => {
    const runs = new Map<string, number>();
    const graph = new StateGraph<{ log: string[]; answers: string[] }>({ reducers: { log: append, answers: append } })
      .addNode("sub", nestedGraph(1, runs), { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } })
      .addEdge(START, "sub")
      .addEdge("sub", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    const paused = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    expect(paused.status).toBe("interrupted");
    expect(counts(runs)).toEqual({ "1.a": 1, "1.ask": 1 });
    const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    expect(done.state).toEqual({ log: ["1.a", "1.ask", "1.b"], answers: ["1.ask=yes"] });
    expect(counts(runs)).toEqual({ "1.a": 1, "1.ask": 2, "1.b": 1 });
  });

  it("a child that failed resumes inside the child: its completed supersteps do not run again", async () => {
    type Count = { log: string[] };
    let fail = true;
    const starts: string[] = [];
    const child = new StateGraph<Count>({ reducers: { log: append } })
      .addNode("one", () => (starts.push("one"), { log: ["one"] }))
      .addNode("two", () => {
        starts.push("two");
        if (fail) throw new Error("flaky");
        return { log: ["two"] };
      })
      .addEdge(START, "one")
      .addEdge("one", "two")
      .addEdge("two", END)
      .compile();
    const parent = new StateGraph<Count>({ reducers: { log: append } })
      .addNode("sub", child)
      .addEdge(START, "sub")
      .addEdge("sub", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await expect(parent.invoke({ log: [] }, { threadId: "t", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    fail = false;
    const done = await parent.invoke(null, { threadId: "t", checkpointer });
    expect(done.state.log).toEqual(["one", "two"]);
    expect(starts).toEqual(["one", "two", "two"]);
  });

  it("a new run on the thread starts its subgraph afresh", async () => {
    const runs = new Map<string, number>();
    const graph = nestedGraph(2, runs);
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    await graph.invoke(new Command({ resume: "one" }), { threadId: "t", checkpointer });
    const second = await graph.invoke({ log: [], answers: [] }, { threadId: "t", checkpointer });
    expect(second.status).toBe("interrupted");
    const done = await graph.invoke(new Command({ resume: "two" }), { threadId: "t", checkpointer });
    expect(done.state.answers).toEqual(["2.ask=one", "2.ask=two"]);
    expect(runs.get("2.a")).toBe(2);
  });

  it("once the parent's superstep commits, the child's threads are removed; deleteThread removes a paused child's", async () => {
    const graph = nestedGraph(3, new Map());
    const checkpointer = new MemoryCheckpointer();
    const childThreads = (thread: string, ns: readonly string[]) => [`${thread}${SEP}${ns[0]}`, `${thread}${SEP}${ns[0]}${SEP}${ns[1]}`];
    const paused = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const children = childThreads("t", paused.interrupt.interrupts?.[0]?.ns ?? []);
    for (const id of children) expect(await checkpointer.latest(id)).toMatchObject({ metadata: { source: "interrupt" } });
    await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    for (const id of children) expect(await checkpointer.latest(id)).toBeUndefined();

    const other = await graph.invoke(nestedInput, { threadId: "u", checkpointer });
    if (other.status !== "interrupted") throw new Error("expected a pause");
    await checkpointer.deleteThread("u");
    for (const id of childThreads("u", other.interrupt.interrupts?.[0]?.ns ?? [])) expect(await checkpointer.latest(id)).toBeUndefined();
    expect(await checkpointer.latest("t")).toBeDefined();
  });
});

describe("getState(threadId, { subgraphs: true })", () => {
  it("shows the paused child's own state in the parent's task, at every depth", async () => {
    const graph = nestedGraph(3, new Map());
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    const parent = await graph.getState("t", { checkpointer, subgraphs: true });
    const child = parent?.tasks[0]?.state;
    const grandchild = child?.tasks[0]?.state;
    expect(parent?.next).toEqual(["1.sub"]);
    expect(child).toMatchObject({ next: ["2.sub"], state: { log: ["1.a", "2.a"] } });
    expect(grandchild).toMatchObject({ next: ["3.ask"], state: { log: ["1.a", "2.a", "3.a"] }, metadata: { source: "interrupt" } });
    expect(grandchild?.interrupts?.map((pending) => pending.id)).toEqual(["3.ask:2:0:0"]);
    expect(grandchild?.tasks[0]).toEqual({ node: "3.ask", sent: false });
    // Without the option, tasks are the plain tasks.
    expect((await graph.getState("t", { checkpointer }))?.tasks).toEqual([{ node: "1.sub", sent: false }]);
  });

  it("shows no child once the parent's superstep committed", async () => {
    const graph = nestedGraph(2, new Map());
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    const history = await graph.getStateHistory("t", { checkpointer });
    for (const checkpoint of history) {
      const read = await graph.getState("t", { checkpointer, checkpointId: checkpoint.id, subgraphs: true });
      expect(read?.tasks.every((task) => task.state === undefined)).toBe(true);
    }
  });
});

describe("refusals", () => {
  it("a thread id with the namespace separator is an InvalidOptionError", async () => {
    const graph = nestedGraph(1, new Map());
    await expect(graph.invoke(nestedInput, { threadId: `a${SEP}b`, checkpointer: new MemoryCheckpointer() })).rejects.toThrow(
      InvalidOptionError,
    );
  });

  it("a child compiled with interruptBefore is refused inside a threaded run (it would never pause there)", async () => {
    type T = { n: number };
    const child = new StateGraph<T>()
      .addNode("x", () => ({ n: 1 }))
      .addEdge(START, "x")
      .addEdge("x", END)
      .compile({ interruptBefore: ["x"] });
    const parent = new StateGraph<T>().addNode("sub", child).addEdge(START, "sub").addEdge("sub", END).compile();
    const failure = await parent
      .invoke({ n: 0 }, { threadId: "t", checkpointer: new MemoryCheckpointer() })
      .catch((error: unknown) => error);
    expect((failure as { cause?: unknown }).cause).toBeInstanceOf(InvalidOptionError);
    expect(String((failure as { cause?: Error }).cause?.message)).toMatch(/^subgraph: the child graph was compiled with interruptBefore/);
  });
});

describe("docs/persistence.md: Interrupts inside subgraphs", () => {
  it("the trip example pauses inside the child, shows its state, resumes without searching again, reads and edits the child", async () => {
    type Trip = { log: string[] };
    let searches = 0;
    const booking = new StateGraph<Trip>({ reducers: { log: append } })
      .addNode("search", () => (searches++, { log: ["searched flights"] }))
      .addNode("approve", () => ({ log: [`approved: ${interrupt<string>({ question: "Book flight LY 123?" })}`] }))
      .addEdge(START, "search")
      .addEdge("search", "approve")
      .addEdge("approve", END)
      .compile();
    const trip = new StateGraph<Trip>({ reducers: { log: append } })
      .addNode("plan", () => ({ log: ["planned"] }))
      .addNode("book", booking)
      .addEdge(START, "plan")
      .addEdge("plan", "book")
      .addEdge("book", END)
      .compile();
    const saver = new MemoryCheckpointer();
    const paused = await trip.invoke({ log: [] }, { threadId: "trip-1", checkpointer: saver });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    expect(paused.interrupt.interrupts).toEqual([
      {
        id: "book:2:0/approve:2:0:0",
        node: "approve",
        ns: [expect.stringMatching(/^book:.+:0$/)],
        value: { question: "Book flight LY 123?" },
      },
    ]);
    const view = await trip.getState("trip-1", { checkpointer: saver, subgraphs: true });
    expect(view?.tasks[0]?.state?.next).toEqual(["approve"]);
    expect(view?.tasks[0]?.state?.state).toEqual({ log: ["planned", "searched flights"] });
    const done = await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip-1", checkpointer: saver });
    expect(done.state.log).toEqual(["planned", "searched flights", "approved: yes"]);
    expect(searches).toBe(1);

    // "Reading a paused subgraph": the child's own snapshot and history, then SUBGRAPH_NOT_FOUND once it finished.
    await trip.invoke({ log: [] }, { threadId: "trip-3", checkpointer: saver });
    const shown = (await trip.getState("trip-3", { checkpointer: saver, subgraphs: true }))?.tasks[0]?.state;
    if (shown === undefined) throw new Error("expected a pause inside book");
    const own = await booking.getState(shown.threadId, { checkpointer: saver });
    expect(own?.next).toEqual(["approve"]);
    expect(own?.interrupts).toEqual([{ id: "approve:2:0:0", node: "approve", value: { question: "Book flight LY 123?" } }]);
    const steps = await trip.getStateHistory(shown.threadId, { checkpointer: saver });
    expect(steps.map((checkpoint) => checkpoint.metadata.source)).toEqual(["interrupt", "loop", "input"]);
    const pending = (await trip.getState("trip-3", { checkpointer: saver }))?.interrupts?.[0];
    expect([`trip-3`, ...(pending?.ns ?? [])].join(SEP)).toBe(shown.threadId);
    await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip-3", checkpointer: saver });
    const gone = await booking.getState(shown.threadId, { checkpointer: saver }).catch((e: PersistenceError) => e.code);
    expect(gone).toBe("SUBGRAPH_NOT_FOUND");
    expect(searches).toBe(2);

    // "Editing a paused subgraph": the child's own graph edits its checkpoint; the resume continues there.
    await trip.invoke({ log: [] }, { threadId: "trip-2", checkpointer: saver });
    const child = (await trip.getState("trip-2", { checkpointer: saver, subgraphs: true }))?.tasks[0]?.state;
    expect(child?.threadId.startsWith(`trip-2${SEP}book:`)).toBe(true);
    if (child !== undefined) await booking.updateState(child.threadId, { log: ["picked LY 456"] }, { checkpointer: saver });
    const edited = await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip-2", checkpointer: saver });
    expect(edited.state.log).toEqual(["planned", "searched flights", "picked LY 456", "approved: yes"]);
    expect(searches).toBe(3);
  });
});
