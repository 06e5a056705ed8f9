/**
 * `bulkUpdateState` on this library's threads: every rule of `updateState` holds for each update (the
 * node it counts as, the update checked first, reducers, field schemas, kept writes with END), and the
 * supersteps are stored all or none: in one `saveMany`, or refused (`NO_ATOMIC_SAVE`) on a store that
 * cannot. The differential cases against LangGraph.js are in test/langgraph/bulk-update.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { append, END, interrupt, Send, START, StateGraph, stateGraph } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";
import type { Checkpointer } from "../../../src/persistence/index.js";

interface Doc {
  draft: string;
  notes: string[];
  score: number;
}

/** write → review → END, with a field schema on score; paused before review. */
function docGraph() {
  return stateGraph<Doc>()({ reducers: { notes: append }, fields: ["draft", "notes", "score"], fieldSchemas: { score: z.number().min(0) } })
    .addNode("write", () => ({ draft: "v1", notes: ["written"] }))
    .addNode("review", (s) => ({ notes: [`reviewed ${s.draft}`] }))
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addEdge("review", END)
    .compile({ interruptBefore: ["review"] });
}

async function paused<C extends Checkpointer>(checkpointer: C) {
  const graph = docGraph();
  await graph.invoke({ draft: "", notes: [], score: 0 }, { threadId: "t", checkpointer });
  return { graph, checkpointer };
}

/** A store with only the required methods: no saveMany. */
function withoutSaveMany(inner: MemoryCheckpointer): Checkpointer {
  return {
    save: (checkpoint, expected) => inner.save(checkpoint, expected),
    latest: (threadId) => inner.latest(threadId),
    get: (threadId, id) => inner.get(threadId, id),
    list: (threadId, options) => inner.list(threadId, options),
    deleteThread: (threadId) => inner.deleteThread(threadId),
    putWrites: (threadId, id, writes) => inner.putWrites(threadId, id, writes),
  };
}

describe("bulkUpdateState: each superstep one checkpoint, by updateState's rules", () => {
  it("writes one checkpoint per superstep, each continuing the one before; the last is the thread's latest", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const before = await checkpointer.latest("t");
    const latest = await graph.bulkUpdateState(
      "t",
      [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: { notes: ["by hand"] }, asNode: "review" }] }],
      { checkpointer },
    );
    const [second, first] = await checkpointer.list("t", { limit: 2 });
    expect(second?.id).toBe(latest.id);
    expect(first?.parentId).toBe(before?.id);
    expect(second?.parentId).toBe(first?.id);
    expect(first).toMatchObject({
      state: { draft: "v2", notes: ["written"] },
      next: ["review"],
      metadata: { source: "update", writes: ["write"] },
    });
    expect(second).toMatchObject({
      state: { draft: "v2", notes: ["written", "by hand"] },
      next: [],
      metadata: { source: "update", writes: ["review"] },
    });
    // The trace lists nodes that ran, never an update's asNode.
    expect(second?.trace).toEqual(["write"]);
  });

  it("stores them in one saveMany: one store save for the whole batch", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const store = checkpointer;
    const save = vi.spyOn(store, "save");
    const saveMany = vi.spyOn(store, "saveMany");
    await graph.bulkUpdateState(
      "t",
      [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: { draft: "v3" }, asNode: "write" }] }],
      { checkpointer },
    );
    expect(save).not.toHaveBeenCalled();
    expect(saveMany).toHaveBeenCalledTimes(1);
    expect(saveMany.mock.calls[0]?.[0]).toHaveLength(2);
  });

  it("an update without asNode counts as the node that ran last, as updateState's", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const latest = await graph.bulkUpdateState("t", [{ updates: [{ values: { draft: "v2" } }] }], { checkpointer });
    expect(latest).toMatchObject({ next: ["review"], metadata: { writes: ["write"] } });
  });

  it("asNode END in a superstep of its own cancels the pending work; the next superstep continues from there", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const latest = await graph.bulkUpdateState(
      "t",
      [{ updates: [{ values: null, asNode: END }] }, { updates: [{ values: { draft: "closed" }, asNode: "review" }] }],
      { checkpointer },
    );
    expect(latest).toMatchObject({ state: { draft: "closed" }, next: [] });
  });

  it("keeps a paused superstep's finished sibling's write when END cancels the rest (the rule of updateState)", async () => {
    interface Market {
      my_key: string;
      market: string;
    }
    const graph = new StateGraph<Market>({ reducers: { my_key: (a: string, b: string) => a + b }, fields: ["my_key", "market"] })
      .addNode("tool_one", () => ({ my_key: " one" }))
      .addNode("tool_two", () => ({ my_key: interrupt<string>("why?") }))
      .addConditionalEdges(START, (s) => ["tool_two", new Send("tool_one", s)], ["tool_one", "tool_two"])
      .addEdge("tool_one", END)
      .addEdge("tool_two", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke({ my_key: "value", market: "DE" }, { threadId: "t", checkpointer });
    const latest = await graph.bulkUpdateState(
      "t",
      [{ updates: [{ values: null, asNode: END }] }, { updates: [{ values: { market: "FR" }, asNode: "tool_one" }] }],
      { checkpointer },
    );
    expect(latest).toMatchObject({ state: { my_key: "value one", market: "FR" }, next: [] });
  });

  it("forks from checkpointId, as updateState does", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const [, start] = await checkpointer.list("t");
    const latest = await graph.bulkUpdateState("t", [{ updates: [{ values: { draft: "forked" }, asNode: "write" }] }], {
      checkpointer,
      checkpointId: start?.id as string,
    });
    expect(latest.parentId).toBe(start?.id);
    expect(latest.state.draft).toBe("forked");
  });
});

describe("bulkUpdateState: all or none", () => {
  it("stores nothing when a later superstep is refused (a field schema, a field written twice), naming where", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const before = await checkpointer.list("t");
    await expect(
      graph.bulkUpdateState(
        "t",
        [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: { score: -1 }, asNode: "review" }] }],
        { checkpointer },
      ),
    ).rejects.toMatchObject({ code: "INVALID_FIELD" });
    await expect(
      graph.bulkUpdateState(
        "t",
        [
          { updates: [{ values: { draft: "v2" }, asNode: "write" }] },
          {
            updates: [
              { values: { draft: "a" }, asNode: "write" },
              { values: { draft: "b" }, asNode: "review" },
            ],
          },
        ],
        { checkpointer },
      ),
    ).rejects.toMatchObject({ name: "InvalidUpdateError", code: "CONCURRENT_WRITE" });
    expect(await checkpointer.list("t")).toEqual(before);
  });

  it("checks every update before it reads the thread: an unknown field anywhere is UNDECLARED_FIELD, naming its place", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const bad = { nope: 1 } as unknown as Partial<Doc>;
    const error = await graph
      .bulkUpdateState(
        "empty",
        [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: bad, asNode: "write" }] }],
        {
          checkpointer,
        },
      )
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "InvalidUpdateError", code: "UNDECLARED_FIELD" });
    expect((error as Error).message).toMatch(/^bulkUpdateState: supersteps\[1\]\.updates\[0\]: the update has fields/);
    // A good batch on that thread is NOTHING_TO_RESUME: a thread starts with invoke.
    await expect(
      graph.bulkUpdateState("empty", [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }], { checkpointer }),
    ).rejects.toMatchObject({
      code: "NOTHING_TO_RESUME",
    });
  });

  it("refuses several checkpoints on a store without saveMany (NO_ATOMIC_SAVE), storing nothing; one superstep is one save", async () => {
    const inner = new MemoryCheckpointer();
    const { graph } = await paused(inner);
    const checkpointer = withoutSaveMany(inner);
    const before = await inner.list("t");
    const error = await graph
      .bulkUpdateState(
        "t",
        [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: { draft: "v3" }, asNode: "write" }] }],
        { checkpointer },
      )
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "PersistenceError", code: "NO_ATOMIC_SAVE" });
    expect((error as Error).message).toMatch(/^bulkUpdateState: these edits make 2 checkpoints/);
    expect(await inner.list("t")).toEqual(before);
    const one = await graph.bulkUpdateState("t", [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }], { checkpointer });
    expect((await inner.latest("t"))?.id).toBe(one.id);
  });

  it("refuses a batch whose thread moved on since it was read (the version check), storing none of it", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    const store = checkpointer;
    const latest = vi.spyOn(store, "latest");
    // Another writer saves right after the batch read the thread's latest.
    latest.mockImplementationOnce(async (threadId) => {
      const found = await MemoryCheckpointer.prototype.latest.call(store, threadId);
      await graph.updateState("t", { draft: "elsewhere" }, { asNode: "write", checkpointer });
      return found;
    });
    await expect(
      graph.bulkUpdateState(
        "t",
        [{ updates: [{ values: { draft: "v2" }, asNode: "write" }] }, { updates: [{ values: { draft: "v3" }, asNode: "write" }] }],
        { checkpointer },
      ),
    ).rejects.toMatchObject({ code: "CHECKPOINT_CONFLICT" });
    expect((await store.latest("t"))?.state.draft).toBe("elsewhere");
  });

  it("refuses a malformed batch with INVALID_ARGUMENT: no supersteps, a superstep without updates, an update without values", async () => {
    const { graph, checkpointer } = await paused(new MemoryCheckpointer());
    for (const supersteps of [[], [{ updates: [] }], [{}], [{ updates: [{ asNode: "write" }] }], "nope"]) {
      await expect(graph.bulkUpdateState("t", supersteps as never, { checkpointer })).rejects.toMatchObject({
        name: "InvalidOptionError",
        code: "INVALID_ARGUMENT",
      });
    }
  });
});
