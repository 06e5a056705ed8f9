/**
 * `updateState` on a paused subgraph's thread (LangGraph's `updateState` with a subgraph's config): the
 * edit goes to the child's own checkpoint, checked by the child's reducers and fields, and the resumed
 * run continues inside the child with the edited state, its completed supersteps not run again.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph, subgraph } from "../../../src/index.js";
import { InvalidOptionError, InvalidUpdateError } from "../../../src/errors.js";
import { MemoryCheckpointer, PersistenceError } from "../../../src/persistence/index.js";
import { nestedGraph, nestedInput } from "../../helpers/nested-graphs.js";
import { pausedInChild, type Trip, tripInput } from "../../helpers/trip-graphs.js";

const input = tripInput;

describe("updateState on a paused child's thread", () => {
  it("the top-level graph finds the child (LangGraph's way); a resume answers inside the child, on the edited state", async () => {
    const { trip, runs, checkpointer, child } = await pausedInChild();
    const edited = await trip.updateState(child.threadId, { flight: "LY 456" }, { checkpointer });
    expect(edited).toMatchObject({ threadId: child.threadId, parentId: child.id, next: ["approve"], metadata: { source: "update" } });
    expect(edited.state).toEqual({ flight: "LY 456", log: ["planned", "searched"] });
    // The same task runs again in the same superstep: its interrupt is still pending, and still answerable.
    expect(edited.interrupts?.map((pending) => pending.id)).toEqual(["approve:2:0:0"]);
    const shown = await trip.getState("trip", { checkpointer, subgraphs: true });
    expect(shown?.tasks[0]?.state?.state.flight).toBe("LY 456");

    const done = await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip", checkpointer });
    expect(done.status).toBe("done");
    // The edit reaches the parent with what the child's nodes wrote.
    expect(done.state).toEqual({ flight: "LY 456", log: ["planned", "searched", "LY 456: yes"] });
    expect(runs).toEqual({ plan: 1, search: 1, approve: 2 });
  });

  it("the child's own graph types the update and asNode: as `search`, approve runs next on the edited flight", async () => {
    const { trip, booking, runs, checkpointer, child } = await pausedInChild();
    const edited = await booking.updateState(child.threadId, { flight: "LY 789" }, { asNode: "search", checkpointer });
    expect(edited).toMatchObject({ next: ["approve"], metadata: { source: "update", writes: ["search"] } });
    // Its successor is the paused task itself, so the interrupt stays pending; invoke(null) asks again.
    expect(edited.interrupts?.map((pending) => pending.id)).toEqual(["approve:2:0:0"]);
    const again = await trip.invoke(null, { threadId: "trip", checkpointer });
    expect(again.status).toBe("interrupted");
    if (again.status !== "interrupted") return;
    expect(again.interrupt.interrupts?.[0]).toMatchObject({ id: "book:2:0/approve:2:0:0", value: { question: "Book LY 789?" } });
    const done = await trip.invoke(new Command({ resume: "ok" }), { threadId: "trip", checkpointer });
    expect(done.state.log).toEqual(["planned", "searched", "LY 789: ok"]);
    expect(runs).toEqual({ plan: 1, search: 1, approve: 3 });
  });

  it("asNode: END cancels the child's pending work: the subgraph node finishes with the child's state as it stands", async () => {
    const { trip, booking, runs, checkpointer, child } = await pausedInChild();
    const cancelled = await booking.updateState(child.threadId, { log: ["not booked"] }, { asNode: END, checkpointer });
    expect(cancelled).toMatchObject({ next: [], tasks: [] });
    expect(cancelled.interrupts).toBeUndefined();
    const done = await trip.invoke(null, { threadId: "trip", checkpointer });
    expect(done).toMatchObject({ status: "done", trace: ["plan", "book"] });
    expect(done.state).toEqual({ flight: "LY 123", log: ["planned", "searched", "not booked"] });
    expect(runs).toEqual({ plan: 1, search: 1, approve: 1 });
  });

  it("a child with a state of its own: its fields and reducers check the update, and `output` maps its edited state", async () => {
    type Ticket = { seat: string; notes: string[] };
    const seats = new StateGraph<Ticket>({ reducers: { notes: append }, fields: ["seat", "notes"] })
      .addNode("pick", (s) => ({ notes: [`${s.seat}? ${interrupt<string>("seat?")}`] }))
      .addEdge(START, "pick")
      .addEdge("pick", END)
      .compile();
    const trip = new StateGraph<Trip>({ reducers: { log: append } })
      .addNode("seat", subgraph(seats, { input: () => ({ seat: "12A", notes: [] }), output: (c) => ({ log: c.notes }) }))
      .addEdge(START, "seat")
      .addEdge("seat", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await trip.invoke(input, { threadId: "t", checkpointer });
    const child = (await trip.getState("t", { checkpointer, subgraphs: true }))?.tasks[0]?.state;
    const threadId = child?.threadId as string;
    await expect(seats.updateState(threadId, { flight: "x" } as never, { checkpointer })).rejects.toThrow(
      /^updateState: the update has fields the state of subgraph "seat" does not declare: flight\./,
    );
    const error = await trip.updateState(threadId, { flight: "x" }, { checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toMatchObject({ code: "UNDECLARED_FIELD" });
    await seats.updateState(threadId, { seat: "3C", notes: ["window"] }, { checkpointer });
    const done = await trip.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    expect(done.state.log).toEqual(["window", "3C? yes"]);
  });

  it("checkpointId forks the child from an older checkpoint of its own (time travel inside the child)", async () => {
    const { trip, booking, runs, checkpointer, child } = await pausedInChild();
    const history = await checkpointer.list(child.threadId);
    const started = history.find((checkpoint) => checkpoint.metadata.source === "input");
    expect(started?.next).toEqual(["search"]);
    const forked = await booking.updateState(child.threadId, { log: ["again"] }, { checkpointer, checkpointId: started?.id as string });
    expect(forked).toMatchObject({ parentId: started?.id, next: ["search"], subgraphUpdate: { log: ["again"] } });
    const again = await trip.invoke(null, { threadId: "trip", checkpointer });
    expect(again.status).toBe("interrupted");
    const done = await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip", checkpointer });
    expect(done.state.log).toEqual(["planned", "again", "searched", "LY 123: yes"]);
    expect(runs).toEqual({ plan: 1, search: 2, approve: 3 });
  });

  it("asNode names the child's nodes: the parent's, or an unknown one, is an InvalidOptionError naming the subgraph", async () => {
    const { trip, checkpointer, child } = await pausedInChild();
    const error = await trip.updateState(child.threadId, { flight: "x" }, { asNode: "plan", checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(String((error as Error).message)).toBe(
      'updateState: asNode "plan" is not a node of subgraph "book"; use one of search, approve, or END to cancel the pending work.',
    );
  });
});

describe("at depth 2 (a subgraph inside a subgraph)", () => {
  it("an edit of the innermost child resumes there, running none of the completed supersteps again", async () => {
    const runs = new Map<string, number>();
    const graph = nestedGraph(3, runs);
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    const view = await graph.getState("t", { checkpointer, subgraphs: true });
    const innermost = view?.tasks[0]?.state?.tasks[0]?.state;
    expect(innermost?.next).toEqual(["3.ask"]);
    await graph.updateState(innermost?.threadId as string, { log: ["edited"] }, { checkpointer });
    const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    expect(done.state).toEqual({ log: ["1.a", "2.a", "3.a", "edited", "3.ask", "3.b", "2.b", "1.b"], answers: ["3.ask=yes"] });
    expect(Object.fromEntries(runs)).toEqual({ "1.a": 1, "2.a": 1, "3.a": 1, "3.ask": 2, "3.b": 1, "2.b": 1, "1.b": 1 });
  });

  it("an edit of the middle child keeps its paused task: the innermost continues from its own checkpoint", async () => {
    const runs = new Map<string, number>();
    const graph = nestedGraph(3, runs);
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    const middle = (await graph.getState("t", { checkpointer, subgraphs: true }))?.tasks[0]?.state;
    const edited = await graph.updateState(middle?.threadId as string, { answers: ["by hand"] }, { checkpointer });
    expect(edited.interrupts?.map((pending) => pending.id)).toEqual(["2.sub:2:0/3.ask:2:0:0"]);
    const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    expect(done.state.answers).toEqual(["by hand", "3.ask=yes"]);
    expect(runs.get("3.a")).toBe(1);
  });
});

type Log = { log: string[] };

/** START → {sub, sibling} → END, where sub runs a one-node child that ends at once. */
function beside(sibling: () => Partial<Log>) {
  const quick = new StateGraph<Log>({ reducers: { log: append } })
    .addNode("work", () => ({ log: ["worked"] }))
    .addEdge(START, "work")
    .addEdge("work", END)
    .compile();
  return new StateGraph<Log>({ reducers: { log: append } })
    .addNode("sub", quick)
    .addNode("sibling", sibling)
    .addEdge(START, ["sub", "sibling"])
    .addEdge(["sub", "sibling"], END)
    .compile();
}

describe("refusals, each with its code", () => {
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => "resolved",
      (error: unknown) => (error as PersistenceError).code,
    );

  it("a path that names no subgraph, or a child thread with no checkpoint: SUBGRAPH_NOT_FOUND", async () => {
    const { trip, checkpointer, child } = await pausedInChild();
    const [, ns] = child.threadId.split("\u001f");
    for (const threadId of ["trip\u001fnot-a-namespace", "trip\u001fbook:nope:0", `trip\u001f${ns}\u001fsearch:x:0`, "\u001fbook:x:0"]) {
      expect(await code(trip.updateState(threadId, { flight: "x" }, { checkpointer })), threadId).toBe("SUBGRAPH_NOT_FOUND");
    }
    const error = await trip.updateState(`trip\u001f${ns}\u001fsearch:x:0`, {}, { checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect(String((error as Error).message)).toMatch(/names node "search" of subgraph "book", which does not run a subgraph/);
    // Once the parent's superstep commits, the child's thread is gone.
    await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip", checkpointer });
    expect(await code(trip.updateState(child.threadId, { flight: "x" }, { checkpointer }))).toBe("SUBGRAPH_NOT_FOUND");
  });

  it("a child its parent will not resume (the parent forked or cancelled, or holding the child's result): SUBGRAPH_NOT_PAUSED", async () => {
    const { trip, checkpointer, child } = await pausedInChild();
    // An edit of the parent that keeps its task keeps the child where it paused.
    await trip.updateState("trip", { log: ["note"] }, { checkpointer });
    expect(await code(trip.updateState(child.threadId, { flight: "LY 1" }, { checkpointer }))).toBe("resolved");
    // A fork from before the pause: book runs as a new task, whose child starts afresh elsewhere.
    const planned = (await trip.getStateHistory("trip", { checkpointer })).find((c) => c.metadata.source === "loop");
    await trip.updateState("trip", { log: ["fork"] }, { checkpointer, checkpointId: planned?.id as string });
    expect(await code(trip.updateState(child.threadId, { flight: "x" }, { checkpointer }))).toBe("SUBGRAPH_NOT_PAUSED");
    // The parent's pending work cancelled.
    await trip.updateState("trip", null, { asNode: END, checkpointer });
    const error = await trip.updateState(child.threadId, { flight: "x" }, { checkpointer }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SUBGRAPH_NOT_PAUSED", threadId: child.threadId });
    expect(String((error as Error).message)).toMatch(
      /^updateState: subgraph "book" \(thread .+\) is not paused: its parent thread "trip" will not resume it/,
    );

    // A child that reached END while a sibling paused: the parent keeps its result as a pending write.
    const parent = beside(() => ({ log: [interrupt<string>("go?")] }));
    await parent.invoke({ log: [] }, { threadId: "p", checkpointer });
    const paused = await parent.getState("p", { checkpointer });
    expect(paused?.pendingWrites?.map((write) => write.node)).toEqual(["sub"]);
    // Its thread stays until the parent's superstep commits (named after the checkpoint that superstep started from).
    const finished = `p\u001fsub:${paused?.parentId}:0`;
    expect((await checkpointer.latest(finished))?.next).toEqual([]);
    expect(await code(parent.updateState(finished, { log: ["x"] }, { checkpointer }))).toBe("SUBGRAPH_NOT_PAUSED");
  });

  it("a child that reached END before its parent's superstep stopped (its result not kept: a crash): SUBGRAPH_NOT_PAUSED", async () => {
    /** A store that loses pending writes, as a process killed before they were stored. */
    class LosesWrites extends MemoryCheckpointer {
      override async putWrites(): Promise<void> {}
    }
    const checkpointer = new LosesWrites();
    const parent = beside(() => {
      throw new Error("down");
    });
    await expect(parent.invoke({ log: [] }, { threadId: "p", checkpointer })).rejects.toMatchObject({ code: "NODE_FAILED" });
    const child = (await parent.getState("p", { checkpointer, subgraphs: true }))?.tasks[0]?.state;
    expect(child?.next).toEqual([]);
    const error = await parent.updateState(child?.threadId as string, { log: ["x"] }, { checkpointer }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SUBGRAPH_NOT_PAUSED", message: expect.stringMatching(/is not paused: it reached END/) });
  });

  it("a graph that neither leads to the child nor wrote its checkpoints: INCOMPATIBLE_CHECKPOINT", async () => {
    const { checkpointer, child } = await pausedInChild();
    const other = new StateGraph<Trip>({ reducers: { log: append } })
      .addNode("elsewhere", () => ({}))
      .addEdge(START, "elsewhere")
      .addEdge("elsewhere", END)
      .compile();
    expect(await code(other.updateState(child.threadId, { flight: "x" }, { checkpointer }))).toBe("INCOMPATIBLE_CHECKPOINT");
  });
});
