/**
 * Deferred nodes (`addNode(name, fn, { defer: true })`, LangGraph's `defer`) on the mini engine:
 * `invoke`, `stream`, a thread paused and resumed while a deferred node waits (its waiting task is
 * part of the checkpoint, on every store), and the declarations (`addNode`, `defineGraph`) with their
 * coded refusals. The rule is the kernel's `deferTasks` (test/engine/kernel.test.ts has its row).
 */
import { describe, expect, it } from "vitest";
import { append, Command, defineGraph, END, interrupt, START, StateGraph, type SuperstepValues } from "../../src/index.js";
import { joinIntoDeferred, reduceBesideSends, unevenBranches, type LogState } from "../helpers/defer-graphs.js";
import { checkpointShapeProblem } from "../../src/persistence/checkpoint-shape.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { storesUnderTest } from "../persistence/_helpers.js";

describe("a deferred node on invoke and stream", () => {
  it("runs once, after the longest branch; without defer it runs after each branch", async () => {
    expect((await unevenBranches(true).invoke({ log: [] })).state.log).toEqual(["a", "b", "a2", "reduce(a,b,a2)"]);
    expect((await unevenBranches(false).invoke({ log: [] })).state.log).toEqual([
      "a",
      "b",
      "a2",
      "reduce(a,b)",
      "reduce(a,b,a2,reduce(a,b))",
    ]);
  });

  it("waits in its own superstep: stream's values show a2 alone, then reduce alone", async () => {
    const supersteps: string[][] = [];
    for await (const values of unevenBranches(true).stream({ log: [] }, { streamMode: "values" }))
      supersteps.push([...(values as SuperstepValues<LogState>).nodes]);
    expect(supersteps).toEqual([[], ["a", "b"], ["a2"], ["reduce"]]);
  });

  it("runs beside pending Sends (they do not hold it back), and after a join once the other branch is done", async () => {
    expect((await reduceBesideSends().invoke({ log: [] })).trace).toEqual(["a", "b", "reduce", "work", "work"]);
    expect((await joinIntoDeferred().invoke({ log: [] })).state.log).toEqual(["a", "b", "c", "c2", "c3", "reduce(a,b,c,c2,c3)"]);
  });

  it("counts for recursionLimit as the superstep it runs in", async () => {
    await expect(unevenBranches(true).invoke({ log: [] }, { recursionLimit: 1 })).rejects.toMatchObject({ code: "STEP_LIMIT", node: "a2" });
    await expect(unevenBranches(true).invoke({ log: [] }, { recursionLimit: 2 })).rejects.toMatchObject({
      code: "STEP_LIMIT",
      node: "reduce",
    });
  });
});

describe.each(storesUnderTest("defer.sqlite"))("a deferred node on a thread (%s)", (_store, open) => {
  it("a static pause before a2 keeps the waiting reduce in the checkpoint; the resume runs a2, then reduce once", async () => {
    const { checkpointer, close } = open();
    try {
      const graph = unevenBranches(true, { checkpointer, interruptBefore: ["a2"] });
      const paused = await graph.invoke({ log: [] }, { threadId: "t" });
      expect(paused.next).toEqual(["a2"]);
      const checkpoint = await graph.getState("t");
      expect(checkpoint?.next).toEqual(["a2"]);
      expect(checkpoint?.deferred).toEqual([{ node: "reduce", sent: false }]);
      const done = await graph.invoke(null, { threadId: "t" });
      expect(done.state.log).toEqual(["a", "b", "a2", "reduce(a,b,a2)"]);
      expect(done.next).toEqual([]);
    } finally {
      close();
    }
  });

  it("interruptBefore a deferred node pauses when it is about to run, not while it waits", async () => {
    const { checkpointer, close } = open();
    try {
      const graph = unevenBranches(true, { checkpointer, interruptBefore: ["reduce"] });
      const paused = await graph.invoke({ log: [] }, { threadId: "t" });
      expect({ next: paused.next, log: paused.state.log }).toEqual({ next: ["reduce"], log: ["a", "b", "a2"] });
      expect((await graph.invoke(null, { threadId: "t" })).state.log).toEqual(["a", "b", "a2", "reduce(a,b,a2)"]);
    } finally {
      close();
    }
  });

  it("an interrupt() inside the branch the reduce waits for: the resume finishes the branch, then the reduce", async () => {
    const { checkpointer, close } = open();
    try {
      const graph = new StateGraph<LogState>({ reducers: { log: append } })
        .addNode("a", () => ({ log: ["a"] }))
        .addNode("b", () => ({ log: ["b"] }))
        .addNode("ask", () => ({ log: [`ask:${interrupt<string>("which?")}`] }))
        .addNode("reduce", (s: LogState) => ({ log: [`reduce(${s.log.join(",")})`] }), { defer: true })
        .addEdge(START, ["a", "b"])
        .addEdge("a", "ask")
        .addEdge("ask", "reduce")
        .addEdge("b", "reduce")
        .addEdge("reduce", END)
        .compile({ checkpointer });
      const paused = await graph.invoke({ log: [] }, { threadId: "t" });
      expect(paused.next).toEqual(["ask"]);
      const done = await graph.invoke(new Command({ resume: "this" }), { threadId: "t" });
      expect(done.state.log).toEqual(["a", "b", "ask:this", "reduce(a,b,ask:this)"]);
    } finally {
      close();
    }
  });
});

describe("a checkpoint's waiting deferred tasks, read back", () => {
  it("a stored body whose deferred is not a list of tasks is named; a graph without the node refuses the checkpoint", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = unevenBranches(true, { checkpointer, interruptBefore: ["a2"] });
    await graph.invoke({ log: [] }, { threadId: "t" });
    const stored = JSON.parse(JSON.stringify(await graph.getState("t")));
    expect(checkpointShapeProblem(stored)).toBeUndefined();
    expect(checkpointShapeProblem({ ...stored, deferred: [1] })).toBe("its field deferred is not a list of { node, sent } tasks");
    const renamed = new StateGraph<LogState>({ reducers: { log: append }, fields: ["log"] })
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("a2", () => ({}))
      .addNode("merge", () => ({}), { defer: true })
      .addEdge(START, ["a", "b"])
      .addEdge("a", "a2")
      .addEdge("a2", "merge")
      .addEdge("b", "merge")
      .addEdge("merge", END)
      .compile({ checkpointer });
    await expect(renamed.invoke(null, { threadId: "t" })).rejects.toMatchObject({
      code: "INCOMPATIBLE_CHECKPOINT",
      message: expect.stringContaining('names node "reduce", which this graph does not have'),
    });
  });
});

describe("declaring a deferred node", () => {
  it("the spec lists the deferred nodes; defer: false declares none", () => {
    expect(unevenBranches(true).spec.deferred).toEqual(["reduce"]);
    expect(unevenBranches(false).spec).not.toHaveProperty("deferred");
  });

  it("defineGraph takes defer: a list of its nodes", async () => {
    const graph = defineGraph<LogState>()({
      reducers: { log: append },
      nodes: {
        a: () => ({ log: ["a"] }),
        a2: () => ({ log: ["a2"] }),
        b: () => ({ log: ["b"] }),
        reduce: (s: LogState) => ({ log: [`reduce(${s.log.join(",")})`] }),
      },
      edges: [
        [START, ["a", "b"]],
        ["a", "a2"],
        ["a2", "reduce"],
        ["b", "reduce"],
        ["reduce", END],
      ],
      defer: ["reduce"],
    });
    expect(graph.spec.deferred).toEqual(["reduce"]);
    expect((await graph.invoke({ log: [] })).state.log).toEqual(["a", "b", "a2", "reduce(a,b,a2)"]);
  });

  it("refuses a defer that is not a boolean, and a defineGraph defer naming no node, with INVALID_ARGUMENT", () => {
    const builder = new StateGraph<LogState>({ reducers: { log: append } });
    // @ts-expect-error defer is a boolean
    expect(() => builder.addNode("r", () => ({}), { defer: "yes" })).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        message: expect.stringMatching(/^StateGraph\.addNode: the defer option of "r" must be true or false/),
      }),
    );
    const define = () =>
      defineGraph<LogState>()({
        nodes: { a: () => ({}) },
        edges: [
          [START, "a"],
          ["a", END],
        ],
        // @ts-expect-error "nope" is not a node
        defer: ["nope"],
      });
    expect(define).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        message: expect.stringMatching(/^defineGraph: defer .*"nope" is not one of its nodes/),
      }),
    );
  });
});
