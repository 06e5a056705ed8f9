/** Threaded runs: a checkpoint per superstep, resume, interrupts, getState/updateState, history and forks. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  append,
  sum,
  END,
  GraphExecutionError,
  GraphValidationError,
  InvalidOptionError,
  START,
  StateGraph,
  type CompiledGraph,
} from "../../src/index.js";
import { CheckpointConflictError, MemoryCheckpointer, type Checkpoint } from "../../src/persistence/index.js";
import { counterGraph, counterInput, type CounterState } from "../helpers/graphs.js";
import { openSqlite, parallelGraph, parallelInput, SQLITE_DRIVER, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

const plainOutcome = <T extends { state: unknown; trace: unknown; routes: unknown; supersteps: unknown }>(r: T) => ({
  state: r.state,
  trace: r.trace,
  routes: r.routes,
  supersteps: r.supersteps,
});

describe("a threaded run saves as it goes", () => {
  it("writes one checkpoint for the input and one per superstep, each the child of the one before", async () => {
    const checkpointer = new MemoryCheckpointer();
    const result = await counterGraph(3).invoke(counterInput(), { threadId: "t1", checkpointer });
    const history = (await checkpointer.list("t1")).reverse();
    expect(history.map((c) => [c.step, c.metadata.source, c.metadata.writes, c.next])).toEqual([
      [0, "input", [], ["inc"]],
      [1, "loop", ["inc"], ["inc"]],
      [2, "loop", ["inc"], ["inc"]],
      [3, "loop", ["inc"], ["done"]],
      [4, "loop", ["done"], []],
    ]);
    expect(history.map((c) => c.parentId)).toEqual([null, ...history.slice(0, -1).map((c) => c.id)]);
    expect(result).toMatchObject({ status: "done", threadId: "t1", checkpointId: history.at(-1)?.id, next: [] });
    expect(history.at(-1)?.state).toEqual(result.state);
  });

  it("ends with the same state, trace, routes and supersteps as a run without a checkpointer", async () => {
    const graph = parallelGraph();
    const plain = await graph.invoke(parallelInput());
    const threaded = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer: new MemoryCheckpointer() });
    expect(plainOutcome(threaded)).toEqual(plainOutcome(plain));
    expect(threaded.steps.map((s) => [s.node, s.update])).toEqual(plain.steps.map((s) => [s.node, s.update]));
  });

  it("uses the checkpointer given to compile() when invoke names none", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ n: number }>()
      .addNode("inc", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "inc")
      .addEdge("inc", END)
      .compile({ checkpointer });
    await graph.invoke({ n: 0 }, { threadId: "t1" });
    expect((await graph.getState("t1"))?.state).toEqual({ n: 1 });
    await expect(graph.invoke({ n: 0 })).rejects.toThrow(/pass \{ threadId \}/);
  });

  it.each([
    ["an empty threadId", { threadId: "", checkpointer: new MemoryCheckpointer() }, /threadId must be a non-empty string/],
    ["no checkpointer", { threadId: "t1" }, /a thread needs a checkpointer/],
    [
      "a checkpointer without the interface",
      { threadId: "t1", checkpointer: {} },
      /must implement save, latest, get, list, deleteThread and putWrites/,
    ],
  ])("rejects %s with InvalidOptionError", async (_name, options, message) => {
    const error = await counterGraph()
      .invoke(counterInput(), options as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(message);
  });
});

describe("resume: invoke(null, { threadId })", () => {
  it("after a failure, re-runs only the superstep that failed; nothing committed runs again", async () => {
    const runs: string[] = [];
    let failOnce = true;
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => (runs.push("a"), { log: ["a"] }))
      .addNode("b", () => {
        runs.push("b");
        if (failOnce) throw new Error("flaky");
        return { log: ["b"] };
      })
      .addNode("c", () => (runs.push("c"), { log: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await expect(graph.invoke({ log: [] }, { threadId: "t1", checkpointer })).rejects.toBeInstanceOf(GraphExecutionError);
    expect((await graph.getState("t1", { checkpointer }))?.next).toEqual(["b"]);
    failOnce = false;
    const resumed = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(runs).toEqual(["a", "b", "b", "c"]);
    expect(resumed).toMatchObject({ status: "done", state: { log: ["a", "b", "c"] }, trace: ["a", "b", "c"] });
    expect(resumed.steps.map((s) => s.node)).toEqual(["b", "c"]);
  });

  it.skipIf(!SQLITE_DRIVER_INSTALLED)(
    `restores join arrivals and Send inputs from an SQLite file reopened by a new checkpointer (${SQLITE_DRIVER})`,
    async () => {
      const { dir, remove } = tempDir();
      try {
        const file = join(dir, "runs.sqlite");
        const plain = await parallelGraph().invoke(parallelInput());
        const graph = parallelGraph({ interruptAfter: ["left"], interruptBefore: ["summarize"] });
        let checkpointer = openSqlite(file);
        const first = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
        expect(first).toMatchObject({ status: "interrupted", interrupt: { when: "after", nodes: ["left"] }, next: ["left2"] });
        expect((await checkpointer.latest("t1"))?.joins).toEqual([["right"]]);
        checkpointer.close();

        checkpointer = openSqlite(file);
        const second = await graph.invoke(null, { threadId: "t1", checkpointer });
        expect(second).toMatchObject({
          status: "interrupted",
          interrupt: { when: "before", nodes: ["summarize"] },
          next: ["summarize", "summarize", "summarize"],
        });
        expect((await checkpointer.latest("t1"))?.tasks.map((t) => t.input)).toEqual([{ doc: "x" }, { doc: "y" }, { doc: "z" }]);
        checkpointer.close();

        checkpointer = openSqlite(file);
        const last = await graph.invoke(null, { threadId: "t1", checkpointer });
        checkpointer.close();
        expect(last.status).toBe("done");
        expect(plainOutcome(last)).toEqual(plainOutcome(plain));
      } finally {
        remove();
      }
    },
  );

  it("after maxSteps stopped the run, continues with a larger bound (limits count the whole run)", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(5);
    await expect(graph.invoke(counterInput(), { threadId: "t1", checkpointer, maxSteps: 3 })).rejects.toMatchObject({ code: "STEP_LIMIT" });
    const resumed = await graph.invoke(null, { threadId: "t1", checkpointer, maxSteps: 6 });
    expect(resumed).toMatchObject({ status: "done", trace: ["inc", "inc", "inc", "inc", "inc", "done"] });
    expect(resumed.steps).toHaveLength(3);
  });

  it("of a finished thread does nothing and reports it done", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(1);
    const first = await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    const again = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(again).toMatchObject({ status: "done", steps: [], checkpointId: first.checkpointId, state: first.state });
    expect(await checkpointer.list("t1")).toHaveLength(3);
  });

  it("of a thread with no checkpoint is a PersistenceError that says how to start it", async () => {
    await expect(counterGraph().invoke(null, { threadId: "ghost", checkpointer: new MemoryCheckpointer() })).rejects.toMatchObject({
      code: "NOTHING_TO_RESUME",
      message: expect.stringContaining(`thread "ghost" has no checkpoint. Start it with invoke(input`),
    });
  });

  it("refuses a checkpoint written by a graph with other nodes", async () => {
    const checkpointer = new MemoryCheckpointer();
    await parallelGraph({ interruptBefore: ["gather"] }).invoke(parallelInput(), { threadId: "t1", checkpointer });
    await expect(counterGraph().invoke(null, { threadId: "t1", checkpointer })).rejects.toMatchObject({
      code: "INCOMPATIBLE_CHECKPOINT",
      message: expect.stringMatching(/names node "gather", which this graph does not have: a different graph wrote it/),
    });
  });

  it("keeps the caller's metadata on every checkpoint, resumes included", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptBefore: ["gather"] });
    await graph.invoke(parallelInput(), { threadId: "t1", checkpointer, metadata: { requestedBy: "ana" } });
    await graph.invoke(null, { threadId: "t1", checkpointer });
    const users = (await checkpointer.list("t1")).map((c) => c.metadata.user);
    expect(users.every((u) => u?.["requestedBy"] === "ana")).toBe(true);
  });

  class Tag {
    readonly label = "x";
  }
  it.each([
    ["a list", ["ana"], "a list"],
    ["a string", "ana", '"ana"'],
    ["null", null, "null"],
    ["a class instance", new Tag(), "an instance of Tag"],
  ])("refuses metadata that is %s with INVALID_OPTION, before writing anything", async (_what, metadata, described) => {
    const checkpointer = new MemoryCheckpointer();
    const run = counterGraph(1).invoke(counterInput(), {
      threadId: "t1",
      checkpointer,
      metadata: metadata as unknown as Record<string, never>,
    });
    await expect(run).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(run).rejects.toThrow(`invoke: metadata must be a plain object of JSON values, such as { user: "ada" }; got ${described}.`);
    expect(await checkpointer.list("t1")).toEqual([]);
  });
});

describe("a new input on a thread that has state", () => {
  const totalGraph = () =>
    new StateGraph<{ total: number; added: number; log: string[] }>({ reducers: { log: append } })
      .addNode("add", (s) => ({ total: s.total + s.added, log: [`+${s.added}`] }))
      .addEdge(START, "add")
      .addEdge("add", END)
      .compile();

  it("is merged onto the thread's state through the reducers, and a new run starts from START", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = totalGraph();
    const first = await graph.invoke({ total: 0, added: 2, log: [] }, { threadId: "t1", checkpointer });
    expect(first.state).toEqual({ total: 2, added: 2, log: ["+2"] });
    // total and added have no reducer: the input replaces them; log appends.
    const second = await graph.invoke({ total: first.state.total, added: 5, log: ["turn 2"] }, { threadId: "t1", checkpointer });
    expect(second).toMatchObject({
      status: "done",
      state: { total: 7, added: 5, log: ["+2", "turn 2", "+5"] },
      trace: ["add"],
      supersteps: 1,
    });
    expect(second.steps.map((s) => s.node)).toEqual(["add"]);
    const history = (await checkpointer.list("t1")).reverse();
    expect(history.map((c) => [c.step, c.metadata.source, c.trace])).toEqual([
      [0, "input", []],
      [1, "loop", ["add"]],
      [2, "input", []],
      [3, "loop", ["add"]],
    ]);
    expect(history[2]?.state).toEqual({ total: 2, added: 5, log: ["+2", "turn 2"] });
  });

  it("starts a counter carried between runs where the last one ended (2 then 7)", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ total: number; add: number }>({ reducers: { total: sum } })
      .addNode("count", (s) => ({ total: s.add }))
      .addEdge(START, "count")
      .addEdge("count", END)
      .compile();
    expect((await graph.invoke({ total: 0, add: 2 }, { threadId: "t1", checkpointer })).state.total).toBe(2);
    expect((await graph.invoke({ total: 0, add: 5 }, { threadId: "t1", checkpointer })).state.total).toBe(7);
  });

  it("counts limits from the new input: a run stopped by maxSteps is followed by a full new run", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(2);
    await expect(graph.invoke(counterInput(), { threadId: "t1", checkpointer, maxSteps: 1 })).rejects.toMatchObject({ code: "STEP_LIMIT" });
    const next = await graph.invoke({ ...counterInput(), n: 0 }, { threadId: "t1", checkpointer, maxSteps: 3 });
    expect(next).toMatchObject({ status: "done", trace: ["inc", "inc", "done"] });
    expect(next.state.log).toEqual(["inc 1", "inc 1", "inc 2"]);
  });

  it("with checkpointId, is merged onto that checkpoint's state and forks from it", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = totalGraph();
    await graph.invoke({ total: 0, added: 2, log: [] }, { threadId: "t1", checkpointer });
    await graph.invoke({ total: 2, added: 3, log: [] }, { threadId: "t1", checkpointer });
    const first = (await checkpointer.list("t1")).find((c) => c.step === 1) as Checkpoint;
    const fork = await graph.invoke({ total: 2, added: 10, log: [] }, { threadId: "t1", checkpointer, checkpointId: first.id });
    expect(fork.state).toEqual({ total: 12, added: 10, log: ["+2", "+10"] });
    expect((await checkpointer.list("t1"))[1]?.parentId).toBe(first.id);
  });

  it("an input field the graph does not declare is still INVALID_INPUT", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ n: number }>({ fields: ["n"] })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    await graph.invoke({ n: 1 }, { threadId: "t1", checkpointer });
    await expect(graph.invoke({ n: 1, extra: 1 } as never, { threadId: "t1", checkpointer })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });
});

describe("state must be JSON when a checkpointer is used", () => {
  const cases: [string, unknown, string, RegExp][] = [
    ["a function", () => 1, "state.nested.items[0]", /it is a function/],
    ["a class instance", new Date(0), "state.nested.items[0]", /it is an instance of Date/],
    ["undefined inside an array", undefined, "state.nested.items[0]", /it is undefined inside an array\. .*store null instead/],
    ["NaN", Number.NaN, "state.nested.items[0]", /it is NaN\. .*finite number/],
  ];

  it.each(cases)(
    "a node that writes %s fails before its checkpoint is written, naming the field and the node",
    async (_name, bad, path, message) => {
      const graph = new StateGraph<CounterState>({ reducers: { log: append } })
        .addNode("ok", () => ({ log: ["ok"] }))
        .addNode("bad", () => ({ nested: { items: [bad as number] } }))
        .addEdge(START, "ok")
        .addEdge("ok", "bad")
        .addEdge("bad", END)
        .compile();
      const checkpointer = new MemoryCheckpointer();
      const error = await graph.invoke(counterInput(), { threadId: "t1", checkpointer }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "NotSerializableError", code: "NOT_SERIALIZABLE", path });
      expect((error as Error).message).toContain(`cannot checkpoint "${path}" (written by "bad")`);
      expect((error as Error).message).toMatch(message);
      expect((await checkpointer.list("t1")).map((c) => c.metadata.writes)).toEqual([["ok"], []]);
    },
  );

  it.each(cases)("an input holding %s is refused before anything is written", async (_name, bad) => {
    const checkpointer = new MemoryCheckpointer();
    const input = { ...counterInput(), nested: { items: [bad as number] } };
    await expect(counterGraph().invoke(input, { threadId: "t1", checkpointer })).rejects.toMatchObject({ path: "input.nested.items[0]" });
    expect(await checkpointer.list("t1")).toEqual([]);
  });

  it("names an odd key with brackets", async () => {
    const checkpointer = new MemoryCheckpointer();
    const input = { ...counterInput(), nested: { "odd key": Number.POSITIVE_INFINITY } as never };
    await expect(counterGraph().invoke(input, { threadId: "t1", checkpointer })).rejects.toMatchObject({ path: 'input.nested["odd key"]' });
  });
});

describe("two runs on one thread", () => {
  it("started together: the second gets CheckpointConflictError and the history holds only the first run", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(2);
    const [first, second] = await Promise.allSettled([
      graph.invoke(counterInput(), { threadId: "t1", checkpointer }),
      graph.invoke({ ...counterInput(), n: 100 }, { threadId: "t1", checkpointer }),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second.status === "rejected" && second.reason).toBeInstanceOf(CheckpointConflictError);
    const history = await checkpointer.list("t1");
    expect(history.map((c) => c.state["n"])).toEqual([2, 2, 1, 0]);
  });

  it("overlapping mid-run: the run that writes second fails, and no run's checkpoints interleave", async () => {
    const checkpointer = new MemoryCheckpointer();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const graph = new StateGraph<{ n: number }>()
      .addNode("slow", async (s) => (await gate, { n: s.n + 1 }))
      .addEdge(START, "slow")
      .addEdge("slow", END)
      .compile();
    const slow = graph.invoke({ n: 0 }, { threadId: "t1", checkpointer });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const error = await graph.updateState("t1", { n: 50 }, { checkpointer }).then(
      () => undefined,
      (e: unknown) => e,
    );
    release();
    const outcomes = [error, await slow.catch((e: unknown) => e)];
    // updateState read the thread after slow's input checkpoint and wrote first, so slow loses.
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]).toBeInstanceOf(CheckpointConflictError);
    const history = (await checkpointer.list("t1")).reverse();
    expect(history.map((c) => [c.metadata.source, c.parentId])).toEqual([
      ["input", null],
      ["update", history[0]?.id],
    ]);
  });
});

describe("interrupts", () => {
  it("interruptBefore stops before the node with the checkpoint saved; resuming runs it", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptBefore: ["gather"] });
    const paused = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "before", nodes: ["gather"] }, next: ["gather"] });
    expect(paused.trace).toEqual(["plan", "left", "right", "left2"]);
    expect(await graph.getState("t1", { checkpointer })).toMatchObject({ id: paused.checkpointId, next: ["gather"] });
    const done = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(done.status).toBe("done");
    expect(done.steps[0]?.node).toBe("gather");
  });

  it("interruptAfter stops after the node ran, naming what runs next", async () => {
    const checkpointer = new MemoryCheckpointer();
    const paused = await parallelGraph({ interruptAfter: ["plan"] }).invoke(parallelInput(), { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({
      status: "interrupted",
      interrupt: { when: "after", nodes: ["plan"] },
      next: ["left", "right"],
      trace: ["plan"],
    });
  });

  it("an interrupt at the last node leaves nothing to pause before: the run is done", async () => {
    const result = await counterGraph(1).invoke(counterInput(), { threadId: "t1", checkpointer: new MemoryCheckpointer() });
    expect(result.status).toBe("done");
  });

  it("compile() rejects interrupt names that are not nodes", () => {
    const build = () =>
      new StateGraph<{ n: number }>()
        .addNode("a", () => ({}))
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile({ interruptBefore: ["b" as "a"] });
    expect(build).toThrow(GraphValidationError);
    expect(build).toThrow(`interruptBefore names "b", which is not a node`);
  });

  it("a graph with interrupts refuses a run without a thread", async () => {
    await expect(parallelGraph({ interruptBefore: ["gather"] }).invoke(parallelInput())).rejects.toThrow(
      "invoke: this graph runs on threads, because it pauses at interrupts (gather); pass { threadId }",
    );
  });
});

describe("getState and updateState", () => {
  it("getState returns the latest checkpoint, or undefined for an unknown thread", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(2);
    expect(await graph.getState("t1", { checkpointer })).toBeUndefined();
    const result = await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    expect(await graph.getState("t1", { checkpointer })).toMatchObject({ id: result.checkpointId, state: result.state, next: [] });
  });

  it("updateState merges through the reducers and records a new checkpoint, as the node that ran last", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptBefore: ["gather"] });
    const paused = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
    const updated = await graph.updateState("t1", { log: ["by hand"], docs: ["only"] }, { checkpointer });
    expect(updated).toMatchObject({ parentId: paused.checkpointId, next: ["gather"], metadata: { source: "update", writes: ["left2"] } });
    expect(updated.state.log).toEqual(["plan", "left", "right", "left2", "by hand"]);
    const done = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(done.state.sums).toEqual(["sum only"]);
  });

  it("with asNode, what runs next is what follows that node (its router reads the updated state)", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(3);
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    expect((await graph.updateState("t1", { n: 1 }, { asNode: "inc", checkpointer })).next).toEqual(["inc"]);
    expect((await graph.updateState("t1", { n: 7 }, { asNode: "inc", checkpointer })).next).toEqual(["done"]);
    const resumed = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(resumed.steps.map((s) => s.node)).toEqual(["done"]);
  });

  it.each([
    ["an unknown asNode", { n: 1 }, { asNode: "nope" }, /asNode "nope" is not a node of this graph; use one of inc, done/],
    ["an update that is not an object", null, {}, /the update must be a plain object/],
    ["an update that is not JSON", { n: Number.NaN }, {}, /cannot checkpoint "update\.n": it is NaN/],
  ])("rejects %s", async (_name, update, options, message) => {
    const checkpointer = new MemoryCheckpointer();
    const graph: CompiledGraph<CounterState> = counterGraph(1); // any node name: the table names unknown ones
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    await expect(graph.updateState("t1", update as never, { ...options, checkpointer })).rejects.toThrow(message);
    expect(await checkpointer.list("t1")).toHaveLength(3);
  });

  it("updateState of a thread with no checkpoint says how to start it", async () => {
    await expect(counterGraph().updateState("t1", { n: 1 }, { checkpointer: new MemoryCheckpointer() })).rejects.toMatchObject({
      code: "NOTHING_TO_RESUME",
    });
  });
});

describe("history and time travel", () => {
  it("resuming from an older checkpoint forks a new branch; the old branch stays readable", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(3);
    const original = await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    const before = await graph.getStateHistory("t1", { checkpointer });
    const afterFirstInc = before.find((c) => c.step === 1) as Checkpoint<CounterState>;

    const forked = await graph.invoke(null, { threadId: "t1", checkpointer, checkpointId: afterFirstInc.id });
    expect(plainOutcome(forked)).toEqual(plainOutcome(original));
    const after = await graph.getStateHistory("t1", { checkpointer });
    expect(after).toHaveLength(before.length + 3);
    const branch = after.slice(0, 3);
    expect(branch.map((c) => c.step)).toEqual([4, 3, 2]);
    expect(branch.at(-1)?.parentId).toBe(afterFirstInc.id);
    expect(await graph.getState("t1", { checkpointer, checkpointId: original.checkpointId })).toEqual(before[0]);
    expect(await graph.getStateHistory("t1", { checkpointer, limit: 2 })).toEqual(after.slice(0, 2));
  });

  it("before pages through the history in its order, every branch included; limit counts after it", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(3);
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    const first = (await graph.getStateHistory("t1", { checkpointer })).find((c) => c.step === 1) as Checkpoint<CounterState>;
    await graph.invoke(null, { threadId: "t1", checkpointer, checkpointId: first.id });
    const all = await graph.getStateHistory("t1", { checkpointer });
    const page = (before: string) => graph.getStateHistory("t1", { checkpointer, before, limit: 2 });
    const pages: Checkpoint<CounterState>[] = [];
    let next = await graph.getStateHistory("t1", { checkpointer, limit: 2 });
    // Bounded, so a page that repeats its `before` fails the test rather than looping.
    for (let read = 0; next.length > 0 && read < all.length; read++) {
      pages.push(...next);
      next = await page(next.at(-1)?.id as string);
    }
    expect(pages).toEqual(all);
    expect(await graph.getStateHistory("t1", { checkpointer, before: all[2]?.id as string })).toEqual(all.slice(3));
    expect(await graph.getStateHistory("t1", { checkpointer, before: all.at(-1)?.id as string })).toEqual([]);
    await expect(graph.getStateHistory("t1", { checkpointer, before: "nope" })).rejects.toMatchObject({
      code: "CHECKPOINT_NOT_FOUND",
      message: expect.stringMatching(/^getStateHistory: thread "t1" has no checkpoint "nope"/),
    });
    for (const bad of ["", 7]) {
      await expect(graph.getStateHistory("t1", { checkpointer, before: bad as string })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    }
    await expect(graph.getStateHistory("t1", { checkpointer, before: all[0]?.id as string, limit: 0 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringMatching(/^getStateHistory: limit must be a positive integer/),
    });
  });

  it("updateState on an older checkpoint forks too", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(3);
    await graph.invoke(counterInput(), { threadId: "t1", checkpointer });
    const first = (await graph.getStateHistory("t1", { checkpointer })).at(-1) as Checkpoint<CounterState>;
    const fork = await graph.updateState("t1", { n: 2 }, { checkpointId: first.id, checkpointer });
    expect(fork).toMatchObject({ parentId: first.id, step: 1, next: ["inc"] });
    expect((await graph.invoke(null, { threadId: "t1", checkpointer })).state.log).toEqual(["inc 3"]);
  });

  it("an unknown checkpoint id is a clear error", async () => {
    const checkpointer = new MemoryCheckpointer();
    await counterGraph().invoke(counterInput(), { threadId: "t1", checkpointer });
    await expect(counterGraph().invoke(null, { threadId: "t1", checkpointer, checkpointId: "nope" })).rejects.toMatchObject({
      code: "CHECKPOINT_NOT_FOUND",
      message: expect.stringContaining(`List its checkpoints with getStateHistory("t1")`),
    });
  });
});

describe("stream on a thread", () => {
  it("checkpoints every superstep and pauses at interrupts exactly as invoke does", async () => {
    const viaInvoke = new MemoryCheckpointer();
    const viaStream = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptBefore: ["gather"] });
    const paused = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer: viaInvoke });
    const nodes: string[] = [];
    for await (const step of graph.stream(parallelInput(), { threadId: "t1", checkpointer: viaStream })) nodes.push(step.node);
    expect(nodes).toEqual(paused.trace);
    const shape = (list: Checkpoint[]) => list.map((c) => [c.step, c.metadata.source, c.metadata.writes, c.next, c.state]);
    expect(shape(await viaStream.list("t1"))).toEqual(shape(await viaInvoke.list("t1")));

    const resumed: string[] = [];
    for await (const step of graph.stream(null, { threadId: "t1", checkpointer: viaStream })) resumed.push(step.node);
    const done = await graph.invoke(null, { threadId: "t1", checkpointer: viaInvoke });
    expect(resumed).toEqual(done.steps.map((s) => s.node));
    expect((await graph.getState("t1", { checkpointer: viaStream }))?.state).toEqual(done.state);
  });

  it("values begin with the thread's state, and custom events stream on a thread too", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ n: number }>({ reducers: { n: sum } })
      .addNode("inc", (_s, context) => (context.writer(`inc on ${context.threadId}`), { n: 1 }))
      .addEdge(START, "inc")
      .addEdge("inc", END)
      .compile();
    await graph.invoke({ n: 1 }, { threadId: "t1", checkpointer });
    const chunks: unknown[] = [];
    for await (const chunk of graph.stream({ n: 10 }, { threadId: "t1", checkpointer, streamMode: ["values", "custom"] }))
      chunks.push(chunk);
    expect(chunks).toEqual([
      ["values", { superstep: 0, nodes: [], state: { n: 12 } }],
      ["custom", { node: "inc", event: "inc on t1" }],
      ["values", { superstep: 1, nodes: ["inc"], state: { n: 13 } }],
    ]);
  });

  it("a graph with interrupts refuses a stream without a thread, as invoke does", async () => {
    const consume = async () => {
      for await (const _ of parallelGraph({ interruptBefore: ["gather"] }).stream(parallelInput())) void _;
    };
    await expect(consume()).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(consume()).rejects.toThrow(
      "stream: this graph runs on threads, because it pauses at interrupts (gather); pass { threadId }",
    );
  });
});
