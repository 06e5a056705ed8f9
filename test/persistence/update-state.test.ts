/**
 * updateState's rules, ported from LangGraph.js's own tests (libs/langgraph-core/src/tests/pregel.test.ts):
 * `asNode: END` cancels the pending work ("can interrupt then update state with asNode of __end__");
 * without `asNode` the update counts as the node that ran last and its routes are computed again, so an
 * edited tool call runs on the edited arguments ("tool call with interrupt before tools, modify ai
 * message"); an ambiguous update ("Ambiguous update, specify asNode") and an undeclared key are
 * InvalidUpdateErrors.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, InvalidUpdateError, Send, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { parallelGraph, parallelInput } from "./_helpers.js";

interface ToolState {
  question: string;
  call: { query: string } | null;
  results: string[];
}

/** START → agent ⟶ Send("tools", call) | END; tools → agent. The agent asks for one search, then stops. */
function toolGraph() {
  const ran: string[] = [];
  const graph = new StateGraph<ToolState>({ reducers: { results: append }, fields: ["question", "call", "results"] })
    .addNode("agent", (s) => (ran.push("agent"), { call: s.results.length === 0 ? { query: s.question } : null }))
    .addNode("tools", (input: { query: string }) => (ran.push(`tools ${input.query}`), { results: [`result for ${input.query}`] }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.call === null ? END : [new Send("tools", s.call)]), ["tools", END])
    .addEdge("tools", "agent")
    .compile({ interruptBefore: ["tools"] });
  return { graph, ran };
}

const toolInput = (): ToolState => ({ question: "weather", call: null, results: [] });

describe("updateState without asNode: the update counts as the node that ran last", () => {
  it("computes that node's routes again, so a Send made from the old arguments is dropped and the tool runs on the edited ones", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, ran } = toolGraph();
    const paused = await graph.invoke(toolInput(), { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({ status: "interrupted", next: ["tools"] });
    expect((await graph.getState("t1", { checkpointer }))?.tasks).toEqual([{ node: "tools", sent: true, input: { query: "weather" } }]);

    const updated = await graph.updateState("t1", { call: { query: "a different query" } }, { checkpointer });
    expect(updated).toMatchObject({ next: ["tools"], metadata: { source: "update", writes: ["agent"] } });
    expect(updated.tasks).toEqual([{ node: "tools", sent: true, input: { query: "a different query" } }]);
    // The agent's route is recorded once: the one its router took on the edited state.
    expect(updated.routes.filter((r) => r.from === "agent")).toHaveLength(1);

    const done = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(ran).toEqual(["agent", "tools a different query", "agent"]);
    expect(done).toMatchObject({ status: "done", state: { results: ["result for a different query"] } });
  });

  it("an edit that makes the router choose END leaves nothing to run", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, ran } = toolGraph();
    await graph.invoke(toolInput(), { threadId: "t1", checkpointer });
    const updated = await graph.updateState("t1", { call: null }, { checkpointer });
    expect(updated.next).toEqual([]);
    expect((await graph.invoke(null, { threadId: "t1", checkpointer })).status).toBe("done");
    expect(ran).toEqual(["agent"]);
  });

  it("repeated edits replace the last node's routes each time, and never those of its earlier supersteps", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = counterGraph(3);
    const paused = await graph.invoke(counterInput(), { threadId: "t1", checkpointer, maxSteps: 2 }).catch(() => undefined);
    expect(paused).toBeUndefined();
    const before = await graph.getState("t1", { checkpointer });
    expect(before?.routes.map((r) => r.key)).toEqual(["again", "again"]);
    const first = await graph.updateState("t1", { n: 9 }, { checkpointer });
    expect(first.routes.map((r) => r.key)).toEqual(["again", "stop"]);
    const second = await graph.updateState("t1", { n: 1 }, { checkpointer });
    expect([second.routes.map((r) => r.key), second.next]).toEqual([["again", "again"], ["inc"]]);
    const done = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(done.routes.map((r) => r.key)).toEqual(["again", "again", "again", "stop"]);
    expect(done.state.n).toBe(3);
  });

  it("on a thread that has only its input, counts as START: START's route is computed again", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<{ lang: string; log: string[] }>({ reducers: { log: append } })
      .addNode("en", () => ({ log: ["hello"] }))
      .addNode("fr", () => ({ log: ["bonjour"] }))
      .addConditionalEdges(START, (s): "en" | "fr" => (s.lang === "fr" ? "fr" : "en"), { en: "en", fr: "fr" })
      .addEdge("en", END)
      .addEdge("fr", END)
      .compile({ interruptBefore: ["en", "fr"] });
    await graph.invoke({ lang: "en", log: [] }, { threadId: "t1", checkpointer });
    const updated = await graph.updateState("t1", { lang: "fr" }, { checkpointer });
    expect(updated).toMatchObject({ next: ["fr"], routes: [{ from: START, key: "fr", to: "fr" }], metadata: { writes: [] } });
    expect((await graph.invoke(null, { threadId: "t1", checkpointer })).state.log).toEqual(["bonjour"]);
  });

  it("after a superstep of several nodes, asks for asNode (AMBIGUOUS_UPDATE) and saves nothing", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptAfter: ["left"] });
    const paused = await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
    expect(paused).toMatchObject({ status: "interrupted", next: ["left2"] });
    const error = await graph.updateState("t1", { log: ["x"] }, { checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toMatchObject({
      code: "AMBIGUOUS_UPDATE",
      message:
        "updateState: the last superstep ran several nodes (left, right), so which one the update comes from is ambiguous. " +
        "Pass { asNode } naming one of them, or END to cancel the pending work.",
    });
    expect((await checkpointer.latest("t1"))?.id).toBe(paused.checkpointId);
    const named = await graph.updateState("t1", { log: ["x"] }, { asNode: "left", checkpointer });
    expect(named).toMatchObject({ next: ["left2"], metadata: { writes: ["left"] } });
  });
});

describe("updateState with asNode: END cancels the pending work", () => {
  it("leaves no task: the next resume ends at once, with the state as it was", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, ran } = toolGraph();
    const paused = await graph.invoke(toolInput(), { threadId: "t1", checkpointer });
    const cleared = await graph.updateState("t1", null, { asNode: END, checkpointer });
    expect(cleared).toMatchObject({ parentId: paused.checkpointId, next: [], tasks: [], state: paused.state });
    expect(cleared.metadata).toMatchObject({ source: "update", writes: [] });
    const resumed = await graph.invoke(null, { threadId: "t1", checkpointer });
    expect(resumed).toMatchObject({ status: "done", steps: [], next: [] });
    expect(ran).toEqual(["agent"]);
  });

  it("with an update, merges it and still cancels; a join left waiting is cancelled too", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = parallelGraph({ interruptAfter: ["left"] });
    await graph.invoke(parallelInput(), { threadId: "t1", checkpointer });
    expect((await checkpointer.latest("t1"))?.joins).toEqual([["right"]]);
    const cleared = await graph.updateState("t1", { log: ["cancelled"] }, { asNode: END, checkpointer });
    expect(cleared).toMatchObject({ next: [], joins: [[]] });
    expect(cleared.state.log).toEqual(["plan", "left", "right", "cancelled"]);
    // Without the cancelled join, the run ends cleanly instead of failing with JOIN_INCOMPLETE.
    expect((await graph.invoke(null, { threadId: "t1", checkpointer })).status).toBe("done");
  });
});

describe("updateState refuses a bad update with InvalidUpdateError (docs/concepts.md's table)", () => {
  it.each([
    [
      "an undeclared key",
      { question: "q", extra: 1 },
      /updateState: the update has fields the state does not declare: extra\. Update only declared fields\./,
      "UNDECLARED_FIELD",
    ],
    ["null without asNode: END", null, /updateState: the update must be a plain object.*null is for \{ asNode: END \}/, "INVALID_UPDATE"],
    [
      "a list",
      ["x"],
      /updateState: the update must be a plain object of changed fields, such as \{ draft \}; got an array/,
      "INVALID_UPDATE",
    ],
  ])("%s", async (_name, update, message, code) => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = toolGraph();
    await graph.invoke(toolInput(), { threadId: "t1", checkpointer });
    const error = await graph.updateState("t1", update as never, { checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
    expect(await checkpointer.list("t1")).toHaveLength(2);
  });
});

describe("updateState on a thread paused at interrupt(): the interrupts of the tasks it keeps stay pending", () => {
  type Review = { draft: string; verdicts: string[] };
  /** START → {x, y} → END; each asks, then writes its verdict on the draft. */
  function reviewGraph() {
    const runs = { x: 0, y: 0 };
    const ask = (node: "x" | "y") => (s: Review) => {
      runs[node]++;
      return { verdicts: [`${node} on ${s.draft}: ${interrupt<string>(node)}`] };
    };
    const graph = new StateGraph<Review>({ reducers: { verdicts: append }, fields: ["draft", "verdicts"] })
      .addNode("x", ask("x"))
      .addNode("y", ask("y"))
      .addEdge(START, ["x", "y"])
      .addEdge(["x", "y"], END)
      .compile();
    return { graph, runs };
  }
  const reviewInput: Review = { draft: "v1", verdicts: [] };

  it("an edit that keeps the paused tasks keeps their interrupts and the answers given so far", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, runs } = reviewGraph();
    await graph.invoke(reviewInput, { threadId: "t1", checkpointer });
    await graph.invoke(new Command({ resume: { "x:1:0:0": "ok" } }), { threadId: "t1", checkpointer });
    const edited = await graph.updateState("t1", { draft: "v2" }, { checkpointer });
    expect(edited.interrupts?.map((pending) => pending.id)).toEqual(["y:1:1:0"]);
    expect(edited.resumes).toEqual({ "x:1:0:0": "ok" });
    // x's finished write was made from v1: it is not kept, and x runs again on v2 with its answer.
    expect(edited.pendingWrites).toBeUndefined();
    const done = await graph.invoke(new Command({ resume: "fine" }), { threadId: "t1", checkpointer });
    expect(done.state.verdicts).toEqual(["x on v2: ok", "y on v2: fine"]);
    expect(runs).toEqual({ x: 3, y: 3 });
  });

  it("an edit that replaces the tasks drops their interrupts: a resume value is NO_PENDING_INTERRUPT", async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = reviewGraph();
    await graph.invoke(reviewInput, { threadId: "t1", checkpointer });
    const cancelled = await graph.updateState("t1", null, { asNode: END, checkpointer });
    expect(cancelled.interrupts).toBeUndefined();
    await expect(graph.invoke(new Command({ resume: "ok" }), { threadId: "t1", checkpointer })).rejects.toMatchObject({
      code: "NO_PENDING_INTERRUPT",
    });
  });
});
