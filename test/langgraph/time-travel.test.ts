/**
 * Time travel to a paused point, differential against LangGraph.js 1.7.3: a thread of two sequential
 * interrupts (`b` asks, then `c` asks) runs on the mini engine and on its LangGraph export (the export's
 * own checkpoints), then a resume is sent to an older checkpoint, or to a fork of one. Ported from
 * LangGraph.js's libs/langgraph/src/tests/pregel.test.ts ("fork and update task results" forks with
 * `updateState` from a history entry; "should handle dynamic interrupt" resumes with `Command({ resume })`).
 */
import { Command as LangGraphCommand, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { Command, END, interrupt, START, StateGraph } from "../../src/index.js";
import { toLangGraph } from "../../src/langgraph/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Log {
  log: string[];
}
const concat = (a: string[], b: string[]) => [...a, ...b];

/** START → a → b (asks "b?") → c (asks "c?") → END; each node logs what it was answered. */
function twoAsks() {
  return new StateGraph<Log>({ reducers: { log: concat }, fields: ["log"] })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: [`b=${interrupt<string>("b?")}`] }))
    .addNode("c", () => ({ log: [`c=${interrupt<string>("c?")}`] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile();
}

/** Both engines paused at `c`, `b` answered "1"; the id of each one's checkpoint before `node` ran. */
async function pausedAtC() {
  const graph = twoAsks();
  const checkpointer = new MemoryCheckpointer();
  const lg = await toLangGraph(twoAsks(), { checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t" } };
  await graph.invoke({ log: [] }, { threadId: "t", checkpointer });
  await graph.invoke(new Command({ resume: "1" }), { threadId: "t", checkpointer });
  await lg.invoke({ log: [] }, config);
  await lg.invoke(new LangGraphCommand({ resume: "1" }), config);
  const miniBefore = async (node: "a" | "b" | "c") => {
    const history = await graph.getStateHistory("t", { checkpointer });
    const found = history.find((checkpoint) => checkpoint.metadata.source !== "interrupt" && checkpoint.next.includes(node));
    if (found === undefined) throw new Error(`no checkpoint before ${node}`);
    return found.id;
  };
  const langBefore = async (node: string) => {
    for await (const snapshot of lg.getStateHistory(config)) {
      if (snapshot.next.includes(node)) return snapshot.config;
    }
    throw new Error(`no LangGraph checkpoint before ${node}`);
  };
  return { graph, checkpointer, lg, config, miniBefore, langBefore };
}

/** A LangGraph result in the mini engine's terms: the state, and the payloads it waits for. */
function asked(result: Record<string, unknown>) {
  const { __interrupt__: pending, ...state } = result;
  return { state, asks: ((pending ?? []) as { value: unknown }[]).map((i) => i.value) };
}

describe("time travel to a paused point, on both engines", () => {
  it("a resume sent to the checkpoint between two sequential interrupts re-fires the second and takes the answer", async () => {
    const { graph, checkpointer, lg, miniBefore, langBefore } = await pausedAtC();
    const mini = await graph.invoke(new Command({ resume: "fork" }), { threadId: "t", checkpointer, checkpointId: await miniBefore("c") });
    const lang = asked(await lg.invoke(new LangGraphCommand({ resume: "fork" }), await langBefore("c")));
    expect(lang).toEqual({ state: { log: ["a", "b=1", "c=fork"] }, asks: [] });
    expect(mini).toMatchObject({ status: "done", state: lang.state });
  });

  it("a fork made by updateState from before the first interrupt: the resume answers it, then the second asks again", async () => {
    const { graph, checkpointer, lg, config, miniBefore, langBefore } = await pausedAtC();
    const miniFork = await graph.updateState("t", { log: ["edit"] }, { checkpointer, checkpointId: await miniBefore("b") });
    const langFork = await lg.updateState(await langBefore("b"), { log: ["edit"] });
    const mini = await graph.invoke(new Command({ resume: "x" }), { threadId: "t", checkpointer, checkpointId: miniFork.id });
    const lang = asked(await lg.invoke(new LangGraphCommand({ resume: "x" }), langFork));
    expect(lang).toEqual({ state: { log: ["a", "edit", "b=x"] }, asks: ["c?"] });
    expect(mini).toMatchObject({ status: "interrupted", state: lang.state });
    expect(mini.status === "interrupted" ? mini.interrupt.interrupts?.map((i) => i.value) : []).toEqual(lang.asks);
    // The fork is now the thread's latest: its second interrupt is resumed as any other.
    const miniDone = await graph.invoke(new Command({ resume: "y" }), { threadId: "t", checkpointer });
    const langDone = asked(await lg.invoke(new LangGraphCommand({ resume: "y" }), config));
    expect(langDone).toEqual({ state: { log: ["a", "edit", "b=x", "c=y"] }, asks: [] });
    expect(miniDone).toMatchObject({ status: "done", state: langDone.state });
  });

  it("a resume sent where the next superstep asks nothing is dropped with it: the later interrupt asks again", async () => {
    const { graph, checkpointer, lg, miniBefore, langBefore } = await pausedAtC();
    const mini = await graph.invoke(new Command({ resume: "early" }), { threadId: "t", checkpointer, checkpointId: await miniBefore("a") });
    const lang = asked(await lg.invoke(new LangGraphCommand({ resume: "early" }), await langBefore("a")));
    expect(lang).toEqual({ state: { log: ["a"] }, asks: ["b?"] });
    expect(mini).toMatchObject({ status: "interrupted", state: lang.state });
    expect(mini.status === "interrupted" ? mini.interrupt.interrupts?.map((i) => i.value) : []).toEqual(lang.asks);
  });

  it("a difference, pinned: before a pause whose node then finished, LangGraph replays the node's kept write; the mini engine runs it again", async () => {
    const { graph, checkpointer, lg, miniBefore, langBefore } = await pausedAtC();
    const mini = await graph.invoke(new Command({ resume: "again" }), { threadId: "t", checkpointer, checkpointId: await miniBefore("b") });
    const lang = asked(await lg.invoke(new LangGraphCommand({ resume: "again" }), await langBefore("b")));
    // LangGraph keeps b's write (answered "1") on the checkpoint b's superstep started from, and reuses it.
    expect(lang).toEqual({ state: { log: ["a", "b=1"] }, asks: ["c?"] });
    // Here that superstep's writes live in the checkpoint it committed: b runs again and takes the new answer.
    expect(mini).toMatchObject({ status: "interrupted", state: { log: ["a", "b=again"] } });
  });

  it("a map of interrupt ids at a checkpoint that waits for none yet is UNKNOWN_INTERRUPT; at the latest pause, the rule is unchanged", async () => {
    const { graph, checkpointer, miniBefore } = await pausedAtC();
    const checkpointId = await miniBefore("c");
    await expect(
      graph.invoke(new Command({ resume: { "c:3:0:0": "x" } }), { threadId: "t", checkpointer, checkpointId }),
    ).rejects.toMatchObject({
      code: "UNKNOWN_INTERRUPT",
      message: expect.stringContaining(`checkpoint "${checkpointId}" of thread "t" waits for no interrupt yet`),
    });
    const latest = await graph.invoke(new Command({ resume: "z" }), { threadId: "t", checkpointer });
    expect(latest).toMatchObject({ status: "done", state: { log: ["a", "b=1", "c=z"] } });
  });
});
