/**
 * `stream`'s `tasks`, `checkpoints` and `debug` modes, differential against LangGraph.js 1.7.3 where the
 * shapes meet: ported from LangGraph.js's libs/langgraph/src/tests/pregel.test.ts ("checkpoint events"
 * streams `debug` and `checkpoints`; its task events are the `tasks` mode's).
 */
import { Annotation, END as LG_END, MemorySaver, START as LG_START, StateGraph as LangGraphStateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, Send, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { gather } from "../helpers/streams.js";

interface Log {
  log: string[];
}

function twoSteps() {
  return new StateGraph<Log>({ reducers: { log: append } })
    .addNode("a", (s) => ({ log: [`a${s.log.length}`] }))
    .addNode("b", (s) => ({ log: [`b${s.log.length}`] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile();
}

/** The same graph on LangGraph.js, with a checkpointer. */
function langTwoSteps() {
  const State = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  return new LangGraphStateGraph(State)
    .addNode("a", (s) => ({ log: [`a${s.log.length}`] }))
    .addNode("b", (s) => ({ log: [`b${s.log.length}`] }))
    .addEdge(LG_START, "a")
    .addEdge("a", "b")
    .addEdge("b", LG_END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("streamMode tasks", () => {
  it("yields each task's start, then its result, with LangGraph's fields (name, input, result, error, interrupts)", async () => {
    const mini = await gather(twoSteps().stream({ log: [] }, { streamMode: "tasks" }));
    const lang = (await gather(
      await langTwoSteps().stream({ log: [] }, { streamMode: "tasks", configurable: { thread_id: "t" } }),
    )) as unknown as Record<string, unknown>[];
    const shape = (event: Record<string, unknown>) =>
      "input" in event
        ? { name: event.name, input: event.input }
        : { name: event.name, result: event.result, error: event.error, interrupts: event.interrupts };
    expect(mini.map((event) => shape(event as unknown as Record<string, unknown>))).toEqual(lang.map(shape));
    expect(mini).toEqual([
      { id: "a:1:0", name: "a", input: { log: [] } },
      { id: "a:1:0", name: "a", result: { log: ["a0"] }, error: null, interrupts: [] },
      { id: "b:2:0", name: "b", input: { log: ["a0"] } },
      { id: "b:2:0", name: "b", result: { log: ["b1"] }, error: null, interrupts: [] },
    ]);
  });

  it("a Send's task reads its input; a failed task's result carries its error as JSON; the run still rejects", async () => {
    const graph = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("fan", () => ({}))
      .addNode("each", (s: Log) => {
        if (s.log[0] === "bad") throw new Error("bad item");
        return { log: s.log };
      })
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => [new Send("each", { log: ["bad"] }), new Send("each", { log: ["ok"] })], ["each"])
      .addEdge("each", END)
      .compile();
    const chunks: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of graph.stream({ log: [] }, { streamMode: "tasks" })) chunks.push(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "NODE_FAILED", node: "each" });
    expect(chunks.slice(2)).toEqual([
      { id: "each:2:0", name: "each", input: { log: ["bad"] } },
      { id: "each:2:1", name: "each", input: { log: ["ok"] } },
      {
        id: "each:2:0",
        name: "each",
        result: undefined,
        error: { name: "GraphExecutionError", code: "NODE_FAILED", message: expect.stringContaining("bad item") },
        interrupts: [],
      },
    ]);
  });

  it("on a thread, a paused task's result names its interrupts and a finished sibling's its kept write", async () => {
    const graph = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("ask", () => ({ log: [`ask=${interrupt<string>("ok?")}`] }))
      .addNode("calm", () => ({ log: ["calm"] }))
      .addEdge(START, ["ask", "calm"])
      .addEdge(["ask", "calm"], END)
      .compile();
    const thread = { threadId: "t", checkpointer: new MemoryCheckpointer() };
    const paused = await gather(graph.stream({ log: [] }, { ...thread, streamMode: "tasks" }));
    expect(paused.slice(2)).toEqual([
      { id: "ask:1:0", name: "ask", result: undefined, error: null, interrupts: [{ id: "ask:1:0:0", value: "ok?" }] },
      { id: "calm:1:1", name: "calm", result: { log: ["calm"] }, error: null, interrupts: [] },
    ]);
    const resumed = await gather(graph.stream(new Command({ resume: "yes" }), { ...thread, streamMode: "tasks" }));
    expect(resumed.at(-2)).toEqual({ id: "ask:1:0", name: "ask", result: { log: ["ask=yes"] }, error: null, interrupts: [] });
  });
});

describe("streamMode checkpoints and debug", () => {
  it("checkpoints: each checkpoint as written, in order, the same the thread's history lists", async () => {
    const graph = twoSteps();
    const checkpointer = new MemoryCheckpointer();
    const chunks = await gather(graph.stream({ log: [] }, { threadId: "t", checkpointer, streamMode: "checkpoints" }));
    const history = await graph.getStateHistory("t", { checkpointer });
    expect(chunks).toEqual([...history].reverse());
    expect(chunks.map((c) => [c.metadata.source, c.state.log, c.next])).toEqual([
      ["input", [], ["a"]],
      ["loop", ["a0"], ["b"]],
      ["loop", ["a0", "b1"], []],
    ]);
    // LangGraph yields one more: its input checkpoint runs a __start__ task of its own.
    const lang = (await gather(
      await langTwoSteps().stream({ log: [] }, { streamMode: "checkpoints", configurable: { thread_id: "t" } }),
    )) as {
      values: unknown;
      next: string[];
    }[];
    expect(lang.slice(1).map((c) => [c.values, c.next])).toEqual(chunks.map((c) => [c.state, c.next]));
  });

  it("checkpoints without a thread is refused (INVALID_OPTION): such a run writes none", async () => {
    await expect(gather(twoSteps().stream({ log: [] }, { streamMode: "checkpoints" }))).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringContaining('streamMode "checkpoints" needs a thread'),
    });
  });

  it("debug: LangGraph's order of checkpoint, task and task_result events, with their steps", async () => {
    const graph = twoSteps();
    const checkpointer = new MemoryCheckpointer();
    const mini = await gather(graph.stream({ log: [] }, { threadId: "t", checkpointer, streamMode: "debug" }));
    const lang = (await gather(await langTwoSteps().stream({ log: [] }, { streamMode: "debug", configurable: { thread_id: "t" } }))) as {
      type: string;
      step: number;
    }[];
    // LangGraph's first checkpoint (step -1, before its __start__ task) has no counterpart here.
    expect(mini.map((e) => [e.type, e.step])).toEqual(lang.slice(1).map((e) => [e.type, e.step]));
    expect(mini.every((e) => typeof e.timestamp === "string")).toBe(true);
    // Without a thread, debug yields the task events alone, as LangGraph's does without a checkpointer.
    const bare = await gather(twoSteps().stream({ log: [] }, { streamMode: "debug" }));
    expect(bare.map((e) => e.type)).toEqual(["task", "task_result", "task", "task_result"]);
  });

  it("with other modes, chunks are tagged: a task's start, its update, then its result, as on LangGraph.js", async () => {
    const chunks = await gather(twoSteps().stream({ log: [] }, { streamMode: ["updates", "tasks"] }));
    const lines = chunks.map(([mode, chunk]) => `${mode}:${"node" in chunk ? chunk.node : chunk.name}`);
    expect(lines).toEqual(["tasks:a", "updates:a", "tasks:a", "tasks:b", "updates:b", "tasks:b"]);
    const lang = await gather(
      await langTwoSteps().stream({ log: [] }, { streamMode: ["updates", "tasks"], configurable: { thread_id: "t" } }),
    );
    expect(lang.map(([mode, chunk]) => `${mode}:${mode === "updates" ? Object.keys(chunk)[0] : (chunk as { name: string }).name}`)).toEqual(
      lines,
    );
  });
});
