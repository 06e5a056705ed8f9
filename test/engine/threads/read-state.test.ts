/**
 * `getState` and `getStateHistory` on a subgraph's thread (LangGraph's `getState(subgraphConfig)`):
 * the child's own snapshot and history, read through the child's own compiled graph or the top-level
 * one, at any depth; an id that names no child with checkpoints is `SUBGRAPH_NOT_FOUND`.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, START, StateGraph } from "../../../src/index.js";
import { MemoryCheckpointer, PersistenceError } from "../../../src/persistence/index.js";
import { nestedGraph, nestedInput, nestedLevels } from "../../helpers/nested-graphs.js";
import { pausedInChild, type Trip, tripInput } from "../../helpers/trip-graphs.js";

/** The trip paused inside "book", with the child's thread id as `getState(…, { subgraphs: true })` shows it. */
async function pausedTrip() {
  const paused = await pausedInChild();
  return { ...paused, shown: paused.child, threadId: paused.child.threadId };
}

const input = tripInput;

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error as PersistenceError).code,
  );

describe("getState on a subgraph's thread", () => {
  it("the top-level graph and the child's own read the child's snapshot, as getState(…, { subgraphs: true }) shows it", async () => {
    const { trip, booking, checkpointer, shown, threadId } = await pausedTrip();
    const viaTop = await trip.getState(threadId, { checkpointer });
    const viaChild = await booking.getState(threadId, { checkpointer });
    expect(viaTop).toEqual(await checkpointer.latest(threadId));
    expect(viaChild).toEqual(viaTop);
    expect(viaTop).toEqual(shown);
    expect(viaTop).toMatchObject({
      threadId,
      next: ["approve"],
      state: { flight: "LY 123", log: ["planned", "searched"] },
      trace: ["search"],
      metadata: { source: "interrupt" },
    });
    expect(viaTop?.interrupts).toEqual([{ id: "approve:2:0:0", node: "approve", value: { question: "Book LY 123?" } }]);
    // Its parent: the child's checkpoint before, on the child's own thread.
    const [, before] = await checkpointer.list(threadId);
    expect(viaTop?.parentId).toBe(before?.id);
    expect(await booking.getState(threadId, { checkpointer, checkpointId: before?.id as string })).toMatchObject({
      id: before?.id,
      next: ["approve"],
      metadata: { source: "loop", writes: ["search"] },
    });
    // An unknown checkpoint of a child that exists reads as at the top level: nothing.
    expect(await trip.getState(threadId, { checkpointer, checkpointId: "nope" })).toBeUndefined();
  });

  it("getStateHistory lists the child's checkpoints newest first, with limit, through either graph", async () => {
    const { trip, booking, checkpointer, threadId } = await pausedTrip();
    const history = await trip.getStateHistory(threadId, { checkpointer });
    expect(history).toEqual(await checkpointer.list(threadId));
    expect(history.map((c) => c.metadata.source)).toEqual(["interrupt", "loop", "input"]);
    expect(history.map((c) => c.trace)).toEqual([["search"], ["search"], []]);
    expect(history.map((c) => c.parentId)).toEqual([history[1]?.id, history[2]?.id, null]);
    expect(await booking.getStateHistory(threadId, { checkpointer })).toEqual(history);
    expect(await booking.getStateHistory(threadId, { checkpointer, limit: 1 })).toEqual(history.slice(0, 1));
    expect(await trip.getStateHistory(threadId, { checkpointer, before: history[0]?.id as string, limit: 1 })).toEqual(history.slice(1, 2));
    // The parent's checkpoint ids are not the child's.
    const [parentLatest] = await trip.getStateHistory("trip", { checkpointer });
    await expect(trip.getStateHistory(threadId, { checkpointer, before: parentLatest?.id as string })).rejects.toMatchObject({
      code: "CHECKPOINT_NOT_FOUND",
    });
  });

  it("an edit of the child shows in its getState and history, and the resume continues from it", async () => {
    const { trip, booking, checkpointer, threadId } = await pausedTrip();
    const edit = await booking.updateState(threadId, { flight: "LY 456" }, { checkpointer });
    expect(await booking.getState(threadId, { checkpointer })).toEqual(edit);
    expect((await trip.getStateHistory(threadId, { checkpointer }))[0]).toEqual(edit);
    const done = await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip", checkpointer });
    expect(done.state.log).toEqual(["planned", "searched", "LY 456: yes"]);
  });

  it("a child's pending writes are merged as at the top level: next is only the task still to run", async () => {
    const graph = nestedGraph(2, new Map(), "parallel");
    const checkpointer = new MemoryCheckpointer();
    const paused = await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const [x] = paused.interrupt.interrupts ?? [];
    await graph.invoke(new Command({ resume: { [x?.id as string]: "left" } }), { threadId: "t", checkpointer });
    const threadId = (await graph.getState("t", { checkpointer, subgraphs: true }))?.tasks[0]?.state?.threadId as string;
    const child = await graph.getState(threadId, { checkpointer });
    expect(child).toMatchObject({ next: ["2.y"], state: { log: ["1.a", "2.a", "2.x"], answers: ["2.x=left"] } });
    expect(child?.pendingWrites?.map((write) => write.node)).toEqual(["2.x"]);
  });
});

describe("at depth 2 (a subgraph inside a subgraph)", () => {
  it("the middle and innermost children read through the top-level graph; { subgraphs: true } resolves the levels below", async () => {
    const graph = nestedGraph(3, new Map());
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(nestedInput, { threadId: "t", checkpointer });
    const view = await graph.getState("t", { checkpointer, subgraphs: true });
    const middle = view?.tasks[0]?.state;
    const innermost = middle?.tasks[0]?.state;
    if (middle === undefined || innermost === undefined) throw new Error("expected both levels");

    expect(await graph.getState(middle.threadId, { checkpointer, subgraphs: true })).toEqual(middle);
    expect(await graph.getState(innermost.threadId, { checkpointer, subgraphs: true })).toEqual(innermost);
    const plain = await graph.getState(middle.threadId, { checkpointer });
    expect(plain?.tasks).toEqual([{ node: "2.sub", sent: false }]);
    expect(innermost).toMatchObject({ next: ["3.ask"], trace: ["3.a"], state: { log: ["1.a", "2.a", "3.a"] } });

    const history = await graph.getStateHistory(innermost.threadId, { checkpointer });
    expect(history[0]).toEqual(await checkpointer.latest(innermost.threadId));
    expect(history.map((c) => c.metadata.source)).toEqual(["interrupt", "loop", "input"]);
    expect(await graph.getStateHistory(middle.threadId, { checkpointer, limit: 2 })).toHaveLength(2);

    await graph.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    for (const threadId of [middle.threadId, innermost.threadId]) {
      expect(await code(graph.getState(threadId, { checkpointer })), threadId).toBe("SUBGRAPH_NOT_FOUND");
      expect(await code(graph.getStateHistory(threadId, { checkpointer })), threadId).toBe("SUBGRAPH_NOT_FOUND");
    }
  });
});

describe("any level's own graph reads the levels below it", () => {
  it("the middle graph finds the innermost child along the namespaces below it; the innermost graph reads its own thread", async () => {
    const [top, middle, inner] = nestedLevels(3, new Map());
    if (top === undefined || middle === undefined || inner === undefined) throw new Error("expected three levels");
    const checkpointer = new MemoryCheckpointer();
    await top.invoke(nestedInput, { threadId: "t", checkpointer });
    const view = await top.getState("t", { checkpointer, subgraphs: true });
    const middleState = view?.tasks[0]?.state;
    const innermost = middleState?.tasks[0]?.state;
    if (middleState === undefined || innermost === undefined) throw new Error("expected both levels");
    expect(await middle.getState(middleState.threadId, { checkpointer, subgraphs: true })).toEqual(middleState);
    expect(await middle.getState(innermost.threadId, { checkpointer, subgraphs: true })).toEqual(innermost);
    expect(await inner.getState(innermost.threadId, { checkpointer, subgraphs: true })).toEqual(innermost);
    expect(await middle.getStateHistory(innermost.threadId, { checkpointer })).toEqual(await checkpointer.list(innermost.threadId));
    // The innermost graph is below the middle child: it neither leads to it nor wrote it.
    expect(await code(inner.getState(middleState.threadId, { checkpointer }))).toBe("INCOMPATIBLE_CHECKPOINT");
    // updateState finds the child the same way.
    await middle.updateState(innermost.threadId, { log: ["edited"] }, { checkpointer });
    const done = await top.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer });
    expect(done.state.log).toEqual(["1.a", "2.a", "3.a", "edited", "3.ask", "3.b", "2.b", "1.b"]);
  });
});

describe("a child id that names no child with checkpoints", () => {
  it("a finished child (its parent's superstep committed, which removes its thread): SUBGRAPH_NOT_FOUND pointing to the parent", async () => {
    const { trip, booking, checkpointer, threadId } = await pausedTrip();
    await trip.invoke(new Command({ resume: "yes" }), { threadId: "trip", checkpointer });
    for (const read of [
      trip.getState(threadId, { checkpointer }),
      booking.getState(threadId, { checkpointer }),
      trip.getState(threadId, { checkpointer, checkpointId: "any" }),
      trip.getStateHistory(threadId, { checkpointer }),
      booking.getStateHistory(threadId, { checkpointer, limit: 1 }),
    ]) {
      const error = await read.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code: "SUBGRAPH_NOT_FOUND", threadId });
      expect(String((error as Error).message)).toMatch(
        /^getState(History)?: thread ".+" has no checkpoint: subgraph "book" is not paused or stopped there .*getState\("trip"\)/,
      );
    }
  });

  it("a path that names no subgraph of the graph: SUBGRAPH_NOT_FOUND; a graph that neither leads to it nor wrote it: INCOMPATIBLE_CHECKPOINT", async () => {
    const { trip, checkpointer, threadId } = await pausedTrip();
    const [, ns] = threadId.split("\u001f");
    for (const bad of ["trip\u001fnot-a-namespace", "\u001fbook:x:0", `trip\u001f${ns}\u001fsearch:x:0`, "trip\u001fbook:nope:0"]) {
      expect(await code(trip.getState(bad, { checkpointer })), bad).toBe("SUBGRAPH_NOT_FOUND");
      expect(await code(trip.getStateHistory(bad, { checkpointer })), bad).toBe("SUBGRAPH_NOT_FOUND");
    }
    const error = await trip.getState(`trip\u001f${ns}\u001fsearch:x:0`, { checkpointer }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^getState: .*names node "search" of subgraph "book", which does not run a subgraph/);
    const other = new StateGraph<Trip>({ reducers: { log: append } })
      .addNode("elsewhere", () => ({}))
      .addEdge(START, "elsewhere")
      .addEdge("elsewhere", END)
      .compile();
    expect(await code(other.getState(threadId, { checkpointer }))).toBe("INCOMPATIBLE_CHECKPOINT");
    expect(await code(other.getStateHistory(threadId, { checkpointer }))).toBe("INCOMPATIBLE_CHECKPOINT");
  });

  it("a top-level thread id still may not contain the separator when a run starts on it", async () => {
    const { trip, checkpointer } = await pausedTrip();
    await expect(trip.invoke(input, { threadId: "a\u001fb", checkpointer })).rejects.toMatchObject({ name: "InvalidOptionError" });
  });
});
