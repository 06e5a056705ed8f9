/** getState(threadId, { subgraphs: true }) types each task's child state; without the option, tasks are plain; a child's own graph types its thread's reads. */
import { describe, expectTypeOf, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import type { Checkpoint, CheckpointTask, CheckpointWithSubgraphs } from "../../src/persistence/index.js";

type S = { n: number };
const graph = new StateGraph<S>().addNode("inc", (s) => ({ n: s.n + 1 })).addEdge(START, "inc").addEdge("inc", END).compile();

describe("getState", () => {
  it("with subgraphs: true, resolves to a checkpoint whose tasks may carry the child's checkpoint", async () => {
    const read = await graph.getState("t1", { subgraphs: true });
    expectTypeOf(read).toEqualTypeOf<CheckpointWithSubgraphs<S, "inc"> | undefined>();
    expectTypeOf(read?.tasks[0]?.state).toEqualTypeOf<CheckpointWithSubgraphs | undefined>();
    expectTypeOf(read?.tasks[0]?.state?.tasks[0]?.state?.next).toEqualTypeOf<readonly string[] | undefined>();
  });

  it("without it, resolves to a plain checkpoint, whose tasks have no state", async () => {
    const read = await graph.getState("t1");
    expectTypeOf(read).toEqualTypeOf<Checkpoint<S, "inc"> | undefined>();
    expectTypeOf(read?.next).toEqualTypeOf<readonly "inc"[] | undefined>();
    expectTypeOf(read?.tasks[0]).toEqualTypeOf<CheckpointTask | undefined>();
    // @ts-expect-error - a plain checkpoint's task has no child state
    void read?.tasks[0]?.state;
  });
});

describe("a subgraph's thread, read through the child's own graph", () => {
  type Ticket = { seat: string };
  const seats = new StateGraph<Ticket>().addNode("pick", () => ({ seat: "3C" })).addEdge(START, "pick").addEdge("pick", END).compile();

  it("getState and getStateHistory are typed by the child's state", async () => {
    const child = (await graph.getState("t1", { subgraphs: true }))?.tasks[0]?.state?.threadId ?? "";
    expectTypeOf((await seats.getState(child))?.state).toEqualTypeOf<Ticket | undefined>();
    expectTypeOf(await seats.getStateHistory(child, { limit: 5, before: "checkpoint-id" })).toEqualTypeOf<Checkpoint<Ticket, "pick">[]>();
    // @ts-expect-error - before is a checkpoint id, not a position
    void seats.getStateHistory(child, { before: 3 });
  });
});
