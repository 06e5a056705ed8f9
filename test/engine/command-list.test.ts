/**
 * A node that returns a list of Commands (LangGraph.js 1.7.3: `return [new Command(…), new Command(…)]`)
 * on the mini engine: its updates apply in the list's order, its gotos are all taken, on `invoke`,
 * `stream` and threads (a paused superstep keeps the node's parts as its pending write, and the resume
 * does not run the node again); each Command is checked as if returned alone, and the refusals are coded.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph } from "../../src/index.js";
import { DESK, fanOutByCommands, plainFieldWrittenTwice, reducerWrittenThrice, type Desk } from "../helpers/command-list-graphs.js";
import { storesUnderTest } from "../persistence/_helpers.js";

const INPUT: Desk = { topic: "", log: [] };

describe("a node that returns a list of Commands", () => {
  it("takes every goto: both destinations run in the next superstep, on the state both updates made", async () => {
    const result = await fanOutByCommands().invoke(INPUT);
    expect(result.trace).toEqual(["triage", "billing", "support"]);
    expect(result.state).toEqual({ topic: "refund", log: ["triage", "billing(refund)", "support(refund)"] });
    expect(result.routes).toEqual([
      { from: "triage", key: "billing", to: "billing", goto: true },
      { from: "triage", key: "support", to: "support", goto: true },
    ]);
    expect(result.steps[0]).toMatchObject({ node: "triage", update: { topic: "refund", log: ["triage"] }, goto: ["billing", "support"] });
  });

  it("merges a reducer field written by several Commands once per write, in the list's order", async () => {
    const result = await reducerWrittenThrice().invoke(INPUT);
    expect(result.state).toEqual({ topic: "t", log: ["one", "two", "three", "work(sent)"] });
    expect(result.trace).toEqual(["a", "work"]);
    // The step shows the parts together; the committed state has each write.
    expect(result.steps[0]).toMatchObject({ node: "a", update: { log: ["three"], topic: "t" }, state: { log: ["one", "two", "three"] } });
    expect(Object.keys(result.steps[0]?.update ?? {})).not.toContain("__updates__");
  });

  it("refuses two Commands that write a field without a reducer (CONCURRENT_WRITE, as LangGraph's LastValue)", async () => {
    await expect(plainFieldWrittenTwice().invoke(INPUT)).rejects.toMatchObject({
      name: "InvalidUpdateError",
      code: "CONCURRENT_WRITE",
      node: "a",
      message: expect.stringContaining(`node "a" returned several Commands that all write "topic"`),
    });
  });

  it("streams one update per node, the parts together", async () => {
    const chunks: unknown[] = [];
    for await (const chunk of reducerWrittenThrice().stream(INPUT, { streamMode: "updates" })) chunks.push(chunk);
    expect(chunks.map((chunk) => (chunk as { node: string }).node)).toEqual(["a", "work"]);
    expect(chunks[0]).toMatchObject({ update: { log: ["three"], topic: "t" } });
  });

  it("checks each Command as if returned alone: a goto outside the node's ends, a resume, a member that is no Command", async () => {
    const build = (result: () => unknown) =>
      new StateGraph<Desk>(DESK)
        .addNode("a", result as () => Command<unknown, Desk, "b">[], { ends: ["b"] })
        .addNode("b", () => ({ log: ["b"] }))
        .addEdge(START, "a")
        .addEdge("a", END)
        .addEdge("b", END)
        .compile();
    await expect(build(() => [new Command({ goto: "b" }), new Command({ goto: "c" })]).invoke(INPUT)).rejects.toMatchObject({
      code: "UNDECLARED_GOTO",
      message: expect.stringContaining(`goto "c", which is not one of its ends`),
    });
    await expect(build(() => [new Command({ goto: "b" }), new Command({ resume: 1 })]).invoke(INPUT)).rejects.toMatchObject({
      code: "RESUME_IN_NODE",
    });
    await expect(build(() => [new Command({ goto: "b" }), { log: ["x"] }]).invoke(INPUT)).rejects.toMatchObject({
      name: "InvalidUpdateError",
      code: "INVALID_UPDATE",
      message: expect.stringContaining("holding a plain object at index 1; every member is a Command"),
    });
    await expect(build(() => [new Command({ update: { log: ["x"], nope: 1 } as Partial<Desk> })]).invoke(INPUT)).rejects.toMatchObject({
      code: "UNDECLARED_FIELD",
    });
  });

  it("refuses a plain update holding the parts' reserved field (RESERVED_FIELD), and an empty list (INVALID_UPDATE)", async () => {
    const build = (result: () => unknown) =>
      new StateGraph<Desk>({ reducers: { log: append } })
        .addNode("a", result as () => Partial<Desk>)
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile();
    await expect(build(() => ({ __updates__: [{ log: ["x"] }] })).invoke(INPUT)).rejects.toMatchObject({ code: "RESERVED_FIELD" });
    await expect(build(() => []).invoke(INPUT)).rejects.toMatchObject({ code: "INVALID_UPDATE" });
  });
});

describe.each(storesUnderTest("command-list.sqlite"))("a list of Commands on a thread (%s)", (_store, open) => {
  it("a static pause after the node keeps its gotos; the resume runs both destinations", async () => {
    const { checkpointer, close } = open();
    try {
      const graph = fanOutByCommands({ checkpointer, interruptAfter: ["triage"] });
      const paused = await graph.invoke(INPUT, { threadId: "t" });
      expect(paused.next).toEqual(["billing", "support"]);
      const done = await graph.invoke(null, { threadId: "t" });
      expect(done.state.log).toEqual(["triage", "billing(refund)", "support(refund)"]);
    } finally {
      close();
    }
  });

  it("a sibling's interrupt keeps the node's parts as its pending write: the resume merges each write once and runs no node again", async () => {
    const { checkpointer, close } = open();
    try {
      let runs = 0;
      const graph = new StateGraph<Desk>(DESK)
        .addNode(
          "a",
          () => {
            runs++;
            return [new Command({ update: { log: ["one"] }, goto: "b" }), new Command({ update: { log: ["two"] } })];
          },
          { ends: ["b"] },
        )
        .addNode("ask", () => ({ topic: interrupt<string>("topic?") }))
        .addNode("b", (s) => ({ log: [`b(${s.topic})`] }))
        .addEdge(START, ["a", "ask"])
        .addEdge("a", END)
        .addEdge("ask", END)
        .addEdge("b", END)
        .compile({ checkpointer });
      const paused = await graph.invoke(INPUT, { threadId: "t" });
      expect(paused.status).toBe("interrupted");
      const stored = await graph.getState("t");
      // The latest state merges the kept write; the store holds the parts in order, and the goto.
      expect(stored?.state.log).toEqual(["one", "two"]);
      expect(stored?.pendingWrites?.[0]?.update).toEqual({
        __updates__: [{ log: ["one"] }, { log: ["two"] }],
        __goto__: [{ node: "b", sent: false }],
      });
      const done = await graph.invoke(new Command({ resume: "refund" }), { threadId: "t" });
      expect(done.state).toEqual({ topic: "refund", log: ["one", "two", "b(refund)"] });
      expect(runs).toBe(1);
    } finally {
      close();
    }
  });
});
