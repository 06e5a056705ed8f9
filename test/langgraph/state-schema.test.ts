/**
 * A graph with a state schema runs on LangGraph.js with the mini engine's checks (issue 39): each
 * superstep's merged state is validated before LangGraph commits it, so a state the schema refuses
 * fails the run with the kernel's INVALID_STATE (same message, node, trace and state), and LangGraph
 * commits nothing of that superstep, on a thread too.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { append, Command, END, interrupt, START, stateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { settle } from "./_helpers.js";

const Counter = z.object({ count: z.number().int().min(0), label: z.string().max(5), tags: z.array(z.string()) });
type Counter = z.output<typeof Counter>;
const start: Counter = { count: 0, label: "", tags: [] };

/** START → [left, right] → last → END, each node returning what it is given. */
function graph(left: Partial<Counter>, right: Partial<Counter>, last: Partial<Counter> = { count: 9 }) {
  return stateGraph(Counter)({ reducers: { tags: append }, fields: ["count", "label", "tags"] })
    .addNode("left", () => left)
    .addNode("right", () => right)
    .addNode("last", () => last)
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], "last")
    .addEdge("last", END)
    .compile();
}

describe("a state schema on LangGraph.js", () => {
  it.each([
    ["a parallel superstep whose merged state is refused", graph({ count: 1 }, { label: "far too long" })],
    ["a later, sequential superstep", graph({ count: 1 }, { tags: ["a"] }, { count: -1 })],
    ["a value of the wrong type", graph({ count: 1 }, { tags: [7 as unknown as string] })],
  ])("%s fails with the mini engine's INVALID_STATE", async (_case, compiled) => {
    const mini = await settle(compiled.invoke(start));
    expect(mini.failed).toMatchObject({ code: "INVALID_STATE" });
    expect(await settle(runOnLangGraph(compiled, start))).toEqual(mini);
  });

  it("a valid run agrees", async () => {
    const compiled = graph({ count: 1 }, { tags: ["a"] });
    const mini = await settle(compiled.invoke(start));
    expect(mini.ok?.state).toEqual({ count: 9, label: "", tags: ["a"] });
    expect(await settle(runOnLangGraph(compiled, start))).toEqual(mini);
  });

  it("on a thread, LangGraph commits nothing of the refused superstep", async () => {
    const compiled = graph({ count: 1 }, { tags: ["a"] }, { count: -1 });
    const checkpointer = new MemorySaver();
    const failed = await runOnLangGraph(compiled, start, { threadId: "t", checkpointer }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: "INVALID_STATE", node: "last", state: { count: 1, label: "", tags: ["a"] } });
    const lg = await toLangGraph(compiled, { checkpointer });
    const snapshot = await lg.getState({ configurable: { thread_id: "t" } });
    expect(snapshot.values).toEqual({ count: 1, label: "", tags: ["a"] });
    expect(snapshot.next).toEqual(["last"]);
  });

  it("a resume's Command update the schema refuses is INVALID_STATE on both, before anything runs", async () => {
    const asking = stateGraph(Counter)({ reducers: { tags: append }, fields: ["count", "label", "tags"] })
      .addNode("ask", () => ({ label: interrupt<string>("label?") }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const resume = new Command({ resume: "ok", update: { count: -1 } });
    const mini = { threadId: "m", checkpointer: new MemoryCheckpointer() };
    const lang = { threadId: "l", checkpointer: new MemorySaver() };
    await asking.invoke(start, mini);
    await runOnLangGraph(asking, start, lang);
    const onMini = await asking.invoke(resume, mini).catch((error: unknown) => error);
    const onLang = await runOnLangGraph(asking, resume, lang).catch((error: unknown) => error);
    expect(onMini).toMatchObject({ code: "INVALID_STATE", node: "Command" });
    expect(onLang).toMatchObject({ code: "INVALID_STATE", node: "Command", message: (onMini as Error).message });
  });
});
