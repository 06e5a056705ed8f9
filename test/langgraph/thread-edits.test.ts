/**
 * Edits and reads of a paused thread, differential against LangGraph.js 1.7.3: each case runs the same
 * graph on a thread of the mini engine and on its LangGraph export (the export's own `updateState` and
 * `getState`), and compares what a person reads back. Ported from LangGraph.js's
 * libs/langgraph/src/tests/pregel.test.ts, as each case cites.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { END, interrupt, Send, START, StateGraph } from "../../src/index.js";
import { toLangGraph } from "../../src/langgraph/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Market {
  my_key: string;
  market: string;
}
const concat = (a: string, b: string) => a + b;

/** START → [tool_two, Send(tool_one)]: tool_one writes " one", tool_two asks for market DE. */
function partialPending() {
  return new StateGraph<Market>({ reducers: { my_key: concat }, fields: ["my_key", "market"] })
    .addNode("tool_one", () => ({ my_key: " one" }))
    .addNode("tool_two", (s: Market) => ({ my_key: s.market === "DE" ? interrupt<string>("Just because...") : " all good" }))
    .addConditionalEdges(START, (s) => ["tool_two", new Send("tool_one", s)], ["tool_one", "tool_two"])
    .addEdge("tool_one", END)
    .addEdge("tool_two", END)
    .compile();
}

/** The same graph paused on a thread of each engine; `mini` and `lang` read and edit it. */
async function pausedOnBoth(build: () => ReturnType<typeof partialPending>, input: Market) {
  const graph = build();
  const checkpointer = new MemoryCheckpointer();
  const config = { configurable: { thread_id: "t" } };
  const lg = await toLangGraph(build(), { checkpointer: new MemorySaver() });
  await graph.invoke(input, { threadId: "t", checkpointer });
  await lg.invoke(input, config);
  return { graph, checkpointer, lg, config };
}

describe("updateState on a paused thread, on both engines", () => {
  it("asNode END keeps the finished sibling's write and clears the rest (pregel.test.ts, 'should handle partial pending checkpoint')", async () => {
    const { graph, checkpointer, lg, config } = await pausedOnBoth(partialPending, { my_key: "value ⛰️", market: "DE" });
    expect((await graph.getState("t", { checkpointer }))?.state).toEqual((await lg.getState(config)).values);
    await graph.updateState("t", null, { asNode: END, checkpointer });
    await lg.updateState(config, null, END);
    const mini = await graph.getState("t", { checkpointer });
    const lang = await lg.getState(config);
    expect(lang).toMatchObject({ values: { my_key: "value ⛰️ one", market: "DE" }, next: [], tasks: [] });
    expect({ state: mini?.state, next: mini?.next, tasks: mini?.tasks }).toEqual({ state: lang.values, next: lang.next, tasks: [] });
    expect(mini?.trace).toEqual(["tool_one"]);
    // Nothing is left to run, on both.
    expect((await graph.invoke(null, { threadId: "t", checkpointer })).state).toEqual(lang.values);
  });
});

describe("getState of a checkpoint with kept writes, on both engines", () => {
  /** START → [ok, boom]: ok writes " one", boom throws; the failed superstep keeps ok's write. */
  function failing() {
    return new StateGraph<Market>({ reducers: { my_key: concat }, fields: ["my_key", "market"] })
      .addNode("ok", () => ({ my_key: " one" }))
      .addNode("boom", (): Partial<Market> => {
        throw new Error("boom");
      })
      .addEdge(START, ["ok", "boom"])
      .addEdge("ok", END)
      .addEdge("boom", END)
      .compile();
  }

  it("the latest state merges them; the same checkpoint read by its id does not (pregel.test.ts, 'should handle partial pending checkpoint')", async () => {
    const graph = failing();
    const checkpointer = new MemoryCheckpointer();
    const lg = await toLangGraph(failing(), { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const input = { my_key: "value", market: "DE" };
    await expect(graph.invoke(input, { threadId: "t", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    await expect(lg.invoke(input, config)).rejects.toThrow();
    const [miniLatest, langLatest] = [await graph.getState("t", { checkpointer }), await lg.getState(config)];
    if (miniLatest === undefined) throw new Error("the failed run saved no checkpoint");
    expect(langLatest.values).toEqual({ my_key: "value one", market: "DE" });
    expect({ state: miniLatest.state, next: miniLatest.next }).toEqual({ state: langLatest.values, next: langLatest.next });
    const miniById = await graph.getState("t", { checkpointer, checkpointId: miniLatest.id });
    const langById = await lg.getState(langLatest.config);
    expect(langById.values).toEqual({ my_key: "value", market: "DE" });
    expect({ state: miniById?.state, next: miniById?.next }).toEqual({ state: langById.values, next: langById.next });
  });
});

describe("a failed task's error on getState, on both engines", () => {
  interface Value {
    value: number;
  }
  /** START → [one, two]: one adds 2, two fails under a retry of 2 attempts. */
  function failingPair() {
    return new StateGraph<Value>({ reducers: { value: (a: number, b: number) => a + b }, fields: ["value"] })
      .addNode("one", () => ({ value: 2 }))
      .addNode(
        "two",
        (): Partial<Value> => {
          throw new Error("I'm not good");
        },
        { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } },
      )
      .addEdge(START, ["one", "two"])
      .addEdge(["one", "two"], END)
      .compile();
  }

  it("the failed task carries it, latest and by id (python_port/checkpoint.test.ts, 'should test pending writes resume functionality')", async () => {
    const graph = failingPair();
    const checkpointer = new MemoryCheckpointer();
    const lg = await toLangGraph(failingPair(), { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    await expect(graph.invoke({ value: 1 }, { threadId: "t", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    await expect(lg.invoke({ value: 1 }, config)).rejects.toThrow();
    const mini = await graph.getState("t", { checkpointer });
    const lang = await lg.getState(config);
    // Which tasks failed, and why: LangGraph keeps the node's own error, this library the run's (its code, and the node's message in it).
    const failures = (tasks: readonly { error?: { message: string } | undefined }[]) =>
      tasks.map((task) => (task.error === undefined ? null : task.error.message.includes("I'm not good")));
    expect(lang.tasks.map((task) => task.name)).toEqual(mini?.tasks.map((task) => task.node));
    expect(failures(lang.tasks as { error?: { message: string } }[])).toEqual([null, true]);
    expect(failures(mini?.tasks ?? [])).toEqual([null, true]);
    expect({ state: mini?.state, next: mini?.next }).toEqual({ state: lang.values, next: lang.next });
    const langById = await lg.getState(lang.config);
    const miniById = await graph.getState("t", { checkpointer, checkpointId: mini?.id ?? "" });
    expect(failures(langById.tasks as { error?: { message: string } }[])).toEqual([null, true]);
    expect(failures(miniById?.tasks ?? [])).toEqual([null, true]);
    expect({ state: miniById?.state, next: miniById?.next }).toEqual({ state: langById.values, next: langById.next });
  });
});
