/**
 * `stream(input, { subgraphs: true })` (issue 38 §2): the chunks of the subgraphs' runs, at any depth,
 * each under its namespace (the ids of the tasks it runs in; `[]` for the graph's own), `[namespace,
 * chunk]` with one mode and `[namespace, mode, chunk]` with several, in the order they happened. Without
 * a thread, on a thread (where a child runs on a thread of its own: its checkpoints stream too, and a
 * pause and resume inside it), with every mode. The shapes against LangGraph.js 1.7.3 are in
 * stream-subgraphs-langgraph.test.ts.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, Send, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { gather } from "../helpers/streams.js";
import { nested, outline, type S, type Tagged } from "./_nested-subgraphs.js";

const P = ["p_two:2:0"];
const G = ["p_two:2:0", "c_three:3:0"];

/** Each tagged chunk in a line. */
function outlines(chunks: readonly unknown[]): ReturnType<typeof outline>[] {
  return chunks.map((chunk) => outline(chunk as Tagged));
}

describe("stream with subgraphs: true", () => {
  it("one mode: [namespace, chunk], the children's chunks under the ids of the tasks they run in, two levels deep", async () => {
    const chunks = await gather(nested().stream({ at: "" }, { subgraphs: true }));
    expect(chunks.map(([namespace, step]) => [namespace, step.node])).toEqual([
      [[], "p_one"],
      [P, "c_one"],
      [P, "c_two"],
      [G, "g_one"],
      [P, "c_three"],
      [[], "p_two"],
    ]);
    expect(chunks[3]?.[1]).toMatchObject({ node: "g_one", update: { at: "g_one" }, state: { at: "g_one" } });
  });

  it("several modes: [namespace, mode, chunk], every mode of the children in the order it happened", async () => {
    const chunks = await gather(
      nested().stream({ at: "" }, { streamMode: ["updates", "values", "custom", "messages", "tasks", "debug"], subgraphs: true }),
    );
    const lines = outlines(chunks);
    // The parent's task p_two starts, then everything of its child, then p_two's step and result.
    const start = lines.findIndex((line) => JSON.stringify(line) === JSON.stringify([[], "tasks", "p_two"]));
    const end = lines.findIndex((line) => JSON.stringify(line) === JSON.stringify([[], "updates", "p_two"]));
    expect(lines.slice(start + 2, end).every(([namespace]) => namespace[0] === "p_two:2:0")).toBe(true);
    expect(lines.filter(([, mode]) => mode !== "debug")).toEqual([
      [[], "values", ""],
      [[], "tasks", "p_one"],
      [[], "custom", "parent"],
      [[], "updates", "p_one"],
      [[], "tasks", "p_one done"],
      [[], "values", "p_one"],
      [[], "tasks", "p_two"],
      [P, "values", "p_one"],
      [P, "tasks", "c_one"],
      [P, "updates", "c_one"],
      [P, "tasks", "c_one done"],
      [P, "values", "c_one"],
      [P, "tasks", "c_two"],
      [P, "custom", "child"],
      [P, "updates", "c_two"],
      [P, "tasks", "c_two done"],
      [P, "values", "c_two"],
      [P, "tasks", "c_three"],
      [G, "values", "c_two"],
      [G, "tasks", "g_one"],
      [G, "custom", "grandchild"],
      [G, "messages", "hi"],
      [G, "updates", "g_one"],
      [G, "tasks", "g_one done"],
      [G, "values", "g_one"],
      [P, "updates", "c_three"],
      [P, "tasks", "c_three done"],
      [P, "values", "g_one"],
      [[], "updates", "p_two"],
      [[], "tasks", "p_two done"],
      [[], "values", "g_one"],
    ]);
    // debug: each task event twice (once as a task, once in debug), under the same namespace.
    expect(lines.filter(([, mode]) => mode === "debug").map(([namespace]) => namespace)).toEqual(
      lines.filter(([, mode]) => mode === "tasks").map(([namespace]) => namespace),
    );
  });

  it("a child's custom events come under its namespace, without the path they carry on a stream without subgraphs", async () => {
    const chunks = await gather(nested().stream({ at: "" }, { streamMode: "custom", subgraphs: true }));
    expect(chunks).toEqual([
      [[], { node: "p_one", event: { from: "parent" } }],
      [P, { node: "c_two", event: { from: "child" } }],
      [G, { node: "g_one", event: { from: "grandchild" } }],
    ]);
    const plain = await gather(nested().stream({ at: "" }, { streamMode: "custom" }));
    expect(plain[2]).toEqual({ node: "g_one", event: { from: "grandchild" }, path: ["p_two", "c_three", "g_one"] });
  });

  it("the run's result is the same: the parent's state and steps, whatever the stream shows", async () => {
    const graph = nested();
    const values = await gather(graph.stream({ at: "" }, { streamMode: "values", subgraphs: true }));
    const own = values.filter(([namespace]) => namespace.length === 0).map(([, chunk]) => chunk.state);
    const plain = (await gather(graph.stream({ at: "" }, { streamMode: "values" }))).map((chunk) => chunk.state);
    expect(own).toEqual(plain);
  });

  it("Sends to a subgraph node: each task's child streams under that task's id", async () => {
    interface L {
      log: string[];
    }
    const child = new StateGraph<L>({ reducers: { log: append } })
      .addNode("inner", (s) => ({ log: [`${s.log[0]}!`] }))
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    const graph = new StateGraph<L>({ reducers: { log: append } })
      .addNode("fan", () => ({}))
      .addNode("sub", child)
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => [new Send("sub", { log: ["a"] }), new Send("sub", { log: ["b"] })], ["sub"])
      .addEdge("sub", END)
      .compile();
    const chunks = await gather(graph.stream({ log: [] }, { subgraphs: true }));
    expect(chunks.map(([namespace, step]) => [namespace, step.node, step.update.log])).toEqual([
      [[], "fan", undefined],
      [["sub:2:0"], "inner", ["a!"]],
      [["sub:2:1"], "inner", ["b!"]],
      [[], "sub", ["a!"]],
      [[], "sub", ["b!"]],
    ]);
  });

  it("a failure inside a child: its failed task's result under its namespace, then the parent's, then the stream rejects", async () => {
    const child = new StateGraph<S>()
      .addNode("boom", () => {
        throw new Error("no");
      })
      .addEdge(START, "boom")
      .addEdge("boom", END)
      .compile();
    const graph = new StateGraph<S>().addNode("sub", child).addEdge(START, "sub").addEdge("sub", END).compile();
    const chunks: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of graph.stream({ at: "" }, { streamMode: "tasks", subgraphs: true })) chunks.push(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "NODE_FAILED", node: "sub" });
    expect(
      chunks.map((chunk) => [(chunk as [string[]])[0], (chunk as [unknown, { name: string; error?: unknown }])[1].error ?? null]),
    ).toEqual([
      [[], null],
      [["sub:1:0"], null],
      [["sub:1:0"], expect.objectContaining({ code: "NODE_FAILED" })],
      [[], expect.objectContaining({ code: "NODE_FAILED" })],
    ]);
  });

  it("refuses a subgraphs option that is not a boolean", async () => {
    const graph = nested();
    const options = { subgraphs: "yes" } as unknown as { subgraphs: boolean };
    await expect(gather(graph.stream({ at: "" }, options))).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: 'stream: subgraphs must be true or false; got "yes".',
    });
  });
});

describe("stream with subgraphs: true on a thread", () => {
  it("the children's checkpoints stream under their namespaces, each child's from its first", async () => {
    const checkpointer = new MemoryCheckpointer();
    const chunks = await gather(nested().stream({ at: "" }, { threadId: "t", checkpointer, streamMode: ["checkpoints"], subgraphs: true }));
    expect(outlines(chunks)).toEqual([
      [[], "checkpoints", 0],
      [[], "checkpoints", 1],
      [P, "checkpoints", 0],
      [P, "checkpoints", 1],
      [P, "checkpoints", 2],
      [G, "checkpoints", 0],
      [G, "checkpoints", 1],
      [P, "checkpoints", 3],
      [[], "checkpoints", 2],
    ]);
    expect(chunks[2]?.[2].threadId.startsWith("t\u001fp_two:")).toBe(true);
  });

  it("a pause two levels down: the paused task's result under its namespace; the resume streams the rest, nothing completed again", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = nested(true);
    const first = await gather(
      graph.stream({ at: "" }, { threadId: "t", checkpointer, streamMode: ["updates", "tasks"], subgraphs: true }),
    );
    // The pause reaches each level in turn: each paused task's result, under its own namespace.
    expect(outlines(first).slice(-4)).toEqual([
      [G, "tasks", "g_one"],
      [G, "tasks", "g_one done"],
      [P, "tasks", "c_three done"],
      [[], "tasks", "p_two done"],
    ]);
    const interrupts = first.slice(-3).map(([, , event]) => ("interrupts" in event ? event.interrupts : []));
    expect(interrupts.map((list) => list.map((pending) => pending.value))).toEqual([["ok?"], ["ok?"], ["ok?"]]);
    expect(interrupts[2]?.[0]?.id).toMatch(/^p_two:2:0\/c_three:3:0\/g_one:1:0/);
    const resumed = await gather(
      graph.stream(new Command({ resume: "yes" }), { threadId: "t", checkpointer, streamMode: ["updates"], subgraphs: true }),
    );
    expect(outlines(resumed)).toEqual([
      [G, "updates", "g_one"],
      [P, "updates", "c_three"],
      [[], "updates", "p_two"],
    ]);
  });
});
