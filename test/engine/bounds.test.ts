/**
 * Loop bounds on the mini engine (invoke, stream) and the thread runner: at most `max` visits per run,
 * then the exit, or `LOOP_BOUND` without one; the counts survive a pause and start again with a new input.
 */
import { describe, expect, it } from "vitest";
import { END, GraphLimitError, Send, GraphValidationError, InvalidOptionError, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { draftInput, reviseLoop } from "../helpers/loop-graphs.js";

describe("a bounded node on invoke and stream", () => {
  it("revises at most max times, then goes to the exit", async () => {
    const result = await reviseLoop(2, "hold").invoke(draftInput(99));
    expect(result.trace).toEqual(["write", "check", "revise", "check", "revise", "check", "hold"]);
    expect(result.state.status).toBe("needs_attention");
  });

  it("does not touch a run that stays within the bound", async () => {
    const result = await reviseLoop(2, "hold").invoke(draftInput(1));
    expect(result.trace).toEqual(["write", "check", "revise", "check", "publish"]);
  });

  it("max: 0 never runs the node: a correct first draft is published, a wrong one held", async () => {
    const graph = reviseLoop(0, "hold");
    expect((await graph.invoke(draftInput(0))).trace).toEqual(["write", "check", "publish"]);
    expect((await graph.invoke(draftInput(1))).trace).toEqual(["write", "check", "hold"]);
  });

  it("an END exit ends the run there", async () => {
    const result = await reviseLoop(1, END).invoke(draftInput(99));
    expect(result.trace).toEqual(["write", "check", "revise", "check"]);
  });

  it("fails with LOOP_BOUND without an exit, naming the node, the bound and the cycle, with state and trace", async () => {
    const error = await reviseLoop(1)
      .invoke(draftInput(99))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    const limit = error as GraphLimitError;
    expect(limit.code).toBe("LOOP_BOUND");
    expect(limit.node).toBe("revise");
    expect(limit.trace).toEqual(["write", "check", "revise", "check"]);
    expect(limit.state["revisions"]).toBe(1);
    expect(limit.message).toMatch(/^invoke: the loop bound of "revise" \(max: 1\)/);
    expect(limit.message).toContain(`"revise" → "check" → "revise"`);
    expect(limit.message).toContain(`exit`);
  });

  it("stream stops at the bound the same way", async () => {
    const graph = reviseLoop(1, "hold");
    const nodes: string[] = [];
    for await (const step of graph.stream(draftInput(99))) nodes.push(step.node);
    expect(nodes).toEqual(["write", "check", "revise", "check", "hold"]);
    await expect(async () => {
      for await (const _ of reviseLoop(1).stream(draftInput(99))) void _;
    }).rejects.toMatchObject({ code: "LOOP_BOUND", node: "revise" });
  });

  it("counts Sends to a bounded node one by one", async () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: (a: string[], b: string[]) => [...a, ...b] } })
      .addNode("fan", () => ({}))
      .addNode("work", () => ({ log: ["work"] }), { bound: { max: 2, exit: "over" } })
      .addNode("over", () => ({ log: ["over"] }))
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => [new Send("work", { log: [] }), new Send("work", { log: [] }), new Send("work", { log: [] })], [
        "work",
      ])
      .addEdge("work", END)
      .addEdge("over", END)
      .compile();
    const result = await graph.invoke({ log: [] });
    expect(result.state.log).toEqual(["work", "work", "over"]);
  });
});

describe("a bounded node on a thread", () => {
  it("keeps the visit counts across a pause, and starts them again with a new input", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = reviseLoop(2, "hold", { checkpointer, interruptBefore: ["check"] });
    const options = { threadId: "t" };
    let result = await graph.invoke(draftInput(99), options);
    // Resume until the run ends: each resume continues the same run.
    for (let i = 0; i < 10 && result.status === "interrupted"; i++) result = await graph.invoke(null, options);
    expect(result.status).toBe("done");
    expect(result.state.status).toBe("needs_attention");
    expect(result.trace.filter((node) => node === "revise")).toHaveLength(2);
    // A new input is a new run: its counts start at zero.
    result = await graph.invoke(draftInput(1), options);
    for (let i = 0; i < 10 && result.status === "interrupted"; i++) result = await graph.invoke(null, options);
    expect(result.state.status).toBe("published");
    expect(result.trace.filter((node) => node === "revise")).toHaveLength(1);
  });

  it("names the exit as the next task in the checkpoint", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = reviseLoop(1, "hold", { checkpointer, interruptAfter: ["check"] });
    expect((await graph.invoke(draftInput(99), { threadId: "t" })).status).toBe("interrupted");
    expect((await graph.getState("t"))?.tasks).toEqual([{ node: "revise", sent: false }]);
    expect((await graph.invoke(null, { threadId: "t" })).status).toBe("interrupted");
    expect((await graph.getState("t"))?.tasks).toEqual([{ node: "hold", sent: false }]);
  });
});

describe("declaring a bound", () => {
  it("refuses a malformed bound at addNode", () => {
    const node = () => ({});
    const builder = new StateGraph<{ n: number }>();
    expect(() => builder.addNode("a", node, { bound: { max: -1 } })).toThrow(InvalidOptionError);
    expect(() => builder.addNode("a", node, { bound: { max: 1.5 } })).toThrow(/whole number/);
  });

  it("refuses an exit that is not a node or END, or is the node itself, at compile()", () => {
    const compile = (exit: string) => () =>
      new StateGraph<{ n: number }>()
        .addNode("a", () => ({}), { bound: { max: 1, exit } })
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile({ typeLevelTopology: false });
    for (const exit of ["nowhere", "a"]) {
      const error = (() => {
        try {
          compile(exit)();
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(GraphValidationError);
      expect((error as GraphValidationError).problems.map((p) => p.code)).toEqual(["INVALID_BOUND"]);
    }
  });

  it("records the bounds in the spec", () => {
    expect(reviseLoop(2, "hold").spec.bounds).toEqual([{ node: "revise", max: 2, exit: "hold" }]);
  });
});
