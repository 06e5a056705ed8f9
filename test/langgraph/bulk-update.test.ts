/**
 * `bulkUpdateState`, differential against LangGraph.js 1.7.3: each case applies the same supersteps of
 * edits to a thread paused on the mini engine and on a native LangGraph.js graph of the same shape, and
 * compares what a person reads back (the state, what runs next, how many checkpoints were added) and
 * what a resume then does. Ported from LangGraph.js's libs/langgraph/src/tests/pregel.test.ts ("should
 * handle bulk state updates", "batch update as input (map-reduce)"), started from a paused thread: a
 * thread of this library starts with `invoke`, so LangGraph's edits of an empty thread have no counterpart.
 */
import { Annotation, MemorySaver, Send as LangSend, StateGraph as LangStateGraph, START as LANG_START } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { type CompiledGraph, END, Send, START, StateGraph, type UpdateSuperstep } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface FooBaz {
  foo: string;
  baz: string;
}

/** START → nodeA → nodeB, paused before nodeA, on both engines. */
async function pausedChain() {
  const ours = new StateGraph<FooBaz>({ fields: ["foo", "baz"] })
    .addNode("nodeA", () => ({ foo: "bar" }))
    .addNode("nodeB", () => ({ baz: "qux" }))
    .addEdge(START, "nodeA")
    .addEdge("nodeA", "nodeB")
    .addEdge("nodeB", END)
    .compile({ interruptBefore: ["nodeA"] });
  const State = Annotation.Root({ foo: Annotation<string>, baz: Annotation<string> });
  const lang = new LangStateGraph(State)
    .addNode("nodeA", () => ({ foo: "bar" }))
    .addNode("nodeB", () => ({ baz: "qux" }))
    .addEdge(LANG_START, "nodeA")
    .addEdge("nodeA", "nodeB")
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["nodeA"] });
  return both(ours, lang, { foo: "", baz: "" });
}

interface LangThread {
  invoke(input: unknown, config: { configurable: { thread_id: string } }): Promise<unknown>;
  bulkUpdateState(config: { configurable: { thread_id: string } }, supersteps: readonly unknown[]): Promise<unknown>;
  getState(config: { configurable: { thread_id: string } }): Promise<{ values: unknown; next: readonly string[] }>;
  getStateHistory(config: { configurable: { thread_id: string } }): AsyncIterable<unknown>;
}

/** The same graph started on a thread of each engine; `bulk` applies edits to both, `read` reads both back. */
async function both<S extends object, N extends string>(ours: CompiledGraph<S, N>, lang: LangThread, input: S) {
  const checkpointer = new MemoryCheckpointer();
  const config = { configurable: { thread_id: "t" } };
  await ours.invoke(input, { threadId: "t", checkpointer });
  await lang.invoke(input, config);
  const history = async () => {
    let count = 0;
    for await (const _ of lang.getStateHistory(config)) count++;
    return { ours: (await checkpointer.list("t")).length, lang: count };
  };
  return {
    bulk: async (supersteps: readonly UpdateSuperstep<S, N>[]) => {
      const settle = (call: () => Promise<unknown>) =>
        call().then(
          () => "stored",
          (error: unknown) => (error instanceof Error ? error.name : "thrown"),
        );
      const before = await history();
      const outcome = {
        ours: await settle(() => ours.bulkUpdateState("t", supersteps, { checkpointer })),
        lang: await settle(() => lang.bulkUpdateState(config, supersteps)),
      };
      const after = await history();
      return { outcome, added: { ours: after.ours - before.ours, lang: after.lang - before.lang } };
    },
    read: async () => {
      const [mine, theirs] = [await ours.getState("t", { checkpointer }), await lang.getState(config)];
      return { ours: { state: mine?.state, next: mine?.next }, lang: { state: theirs.values, next: theirs.next } };
    },
    resume: async () => ({ ours: (await ours.invoke(null, { threadId: "t", checkpointer })).state, lang: await lang.invoke(null, config) }),
  };
}

describe("bulkUpdateState on both engines (pregel.test.ts, 'should handle bulk state updates')", () => {
  it("one superstep as one node, then a superstep of two nodes: the same state, the same next node, one checkpoint each", async () => {
    const thread = await pausedChain();
    const first = await thread.bulk([{ updates: [{ values: { foo: "bar" }, asNode: "nodeA" }] }]);
    expect(first).toEqual({ outcome: { ours: "stored", lang: "stored" }, added: { ours: 1, lang: 1 } });
    const afterFirst = await thread.read();
    expect(afterFirst.ours).toEqual(afterFirst.lang);
    expect(afterFirst.ours).toEqual({ state: { foo: "bar", baz: "" }, next: ["nodeB"] });
    const second = await thread.bulk([
      {
        updates: [
          { values: { foo: "updated" }, asNode: "nodeA" },
          { values: { baz: "new" }, asNode: "nodeB" },
        ],
      },
    ]);
    expect(second.added).toEqual({ ours: 1, lang: 1 });
    const read = await thread.read();
    expect(read.ours).toEqual(read.lang);
    expect(read.ours).toEqual({ state: { foo: "updated", baz: "new" }, next: ["nodeB"] });
    const resumed = await thread.resume();
    expect(resumed.ours).toEqual(resumed.lang);
  });

  it("several supersteps in one call: one checkpoint per superstep, the same end state", async () => {
    const thread = await pausedChain();
    const applied = await thread.bulk([
      { updates: [{ values: { foo: "bar" }, asNode: "nodeA" }] },
      {
        updates: [
          { values: { foo: "updated" }, asNode: "nodeA" },
          { values: { baz: "new" }, asNode: "nodeB" },
        ],
      },
    ]);
    expect(applied).toEqual({ outcome: { ours: "stored", lang: "stored" }, added: { ours: 2, lang: 2 } });
    const read = await thread.read();
    expect(read.ours).toEqual(read.lang);
    expect(read.ours.state).toEqual({ foo: "updated", baz: "new" });
  });

  it("refuses what LangGraph refuses, and stores nothing: no asNode among several, no supersteps, no updates, END among others, a field written twice", async () => {
    const thread = await pausedChain();
    const refused = [
      [{ updates: [{ values: { foo: "error" } }, { values: { baz: "error" } }] }],
      [],
      [{ updates: [] }],
      [
        {
          updates: [
            { values: null, asNode: END },
            { values: { foo: "x" }, asNode: "nodeA" },
          ],
        },
      ],
      [
        {
          updates: [
            { values: { foo: "x" }, asNode: "nodeA" },
            { values: { foo: "y" }, asNode: "nodeB" },
          ],
        },
      ],
    ] as const satisfies readonly (readonly UpdateSuperstep<FooBaz, "nodeA" | "nodeB">[])[];
    for (const supersteps of refused) {
      const { outcome, added } = await thread.bulk(supersteps);
      expect(outcome.ours).not.toBe("stored");
      expect(outcome.lang).not.toBe("stored");
      expect(added).toEqual({ ours: 0, lang: 0 });
    }
    // The field written twice is the same fault on both: LangGraph's LastValue InvalidUpdateError.
    const twice = await thread.bulk(refused[4]);
    expect(twice.outcome).toEqual({ ours: "InvalidUpdateError", lang: "InvalidUpdateError" });
  });
});

interface MapReduce {
  foo: string;
  tasks: number[];
}

describe("a map-reduce's Sends answered by a superstep of updates (pregel.test.ts, 'batch update as input (map-reduce)')", () => {
  it("three updates as the three Sent tasks: merged in order by the reducer, nothing left to run, on both", async () => {
    const concat = (a: number[], b: number[]) => [...a, ...b];
    const ours = new StateGraph<MapReduce>({ reducers: { tasks: concat }, fields: ["foo", "tasks"] })
      .addNode("agent", () => ({ foo: "agent" }))
      .addNode("task", (task: { index: number }) => ({ tasks: [task.index] }))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", () => [0, 1, 2].map((index) => new Send("task", { index })), ["task"])
      .addEdge("task", END)
      .compile({ interruptBefore: ["task"] });
    const State = Annotation.Root({
      foo: Annotation<string>,
      tasks: Annotation<number[]>({ reducer: concat, default: () => [] }),
    });
    const lang = new LangStateGraph(State)
      .addNode("agent", () => ({ foo: "agent" }))
      .addNode("task", (task: { index: number }) => ({ tasks: [task.index] }))
      .addEdge(LANG_START, "agent")
      .addConditionalEdges("agent", () => [0, 1, 2].map((index) => new LangSend("task", { index })), ["task"])
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["task"] });
    const thread = await both(ours, lang, { foo: "input", tasks: [] });
    const paused = await thread.read();
    expect(paused.ours).toEqual(paused.lang);
    expect(paused.ours.next).toEqual(["task", "task", "task"]);
    const applied = await thread.bulk([
      {
        updates: [
          { values: { tasks: [0] }, asNode: "task" },
          { values: { tasks: [1] }, asNode: "task" },
          { values: { tasks: [2] }, asNode: "task" },
        ],
      },
    ]);
    expect(applied).toEqual({ outcome: { ours: "stored", lang: "stored" }, added: { ours: 1, lang: 1 } });
    const read = await thread.read();
    expect(read.ours).toEqual(read.lang);
    expect(read.ours).toEqual({ state: { foo: "agent", tasks: [0, 1, 2] }, next: [] });
  });
});

interface Join {
  log: string[];
}

describe("a superstep of updates as both sources of a join", () => {
  it("fires the join, as the two nodes running together would, on both", async () => {
    const concat = (a: string[], b: string[]) => [...a, ...b];
    const ours = new StateGraph<Join>({ reducers: { log: concat }, fields: ["log"] })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", () => ({ log: ["d"] }))
      .addEdge(START, ["b", "c"])
      .addEdge(["b", "c"], "d")
      .addEdge("d", END)
      .compile({ interruptBefore: ["b"] });
    const lang = new LangStateGraph(Annotation.Root({ log: Annotation<string[]>({ reducer: concat, default: () => [] }) }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", () => ({ log: ["d"] }))
      .addEdge(LANG_START, "b")
      .addEdge(LANG_START, "c")
      .addEdge(["b", "c"], "d")
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
    const thread = await both(ours, lang, { log: [] });
    const applied = await thread.bulk([
      {
        updates: [
          { values: { log: ["B by hand"] }, asNode: "b" },
          { values: { log: ["C by hand"] }, asNode: "c" },
        ],
      },
    ]);
    expect(applied.added).toEqual({ ours: 1, lang: 1 });
    const read = await thread.read();
    expect(read.ours).toEqual(read.lang);
    expect(read.ours).toEqual({ state: { log: ["B by hand", "C by hand"] }, next: ["d"] });
    const resumed = await thread.resume();
    expect(resumed.ours).toEqual(resumed.lang);
    expect(resumed.ours).toEqual({ log: ["B by hand", "C by hand", "d"] });
  });
});
