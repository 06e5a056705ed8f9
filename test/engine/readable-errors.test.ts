/**
 * A run error is read by a person: printed (`console.error`, an uncaught rejection) it shows the
 * message, the code and the node, not the state of a map-reduce over 500 items; the state stays on the
 * error. A node that calls `interrupt()` where the run cannot pause is reported with its own code and
 * whole sentence (issue 37 §1).
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { GraphExecutionError, InterruptError, Send, append, interrupt, stateGraph } from "../../src/index.js";

interface MapReduce {
  items: string[];
  results: string[];
}

const N = 500;
const items = Array.from({ length: N }, (_, i) => `item-${i}-${"x".repeat(40)}`);

function mapReduce(work: (item: string) => Partial<MapReduce>) {
  return stateGraph<MapReduce>()({ reducers: { results: append } })
    .addNode("split", () => ({}))
    .addNode("work", (s: MapReduce & { item?: string }) => work(s.item ?? ""))
    .addNode("reduce", () => ({}))
    .addEdge("__start__", "split")
    .addConditionalEdges("split", (s) => s.items.map((item) => new Send("work", { ...s, item })), ["work"])
    .addEdge("work", "reduce")
    .addEdge("reduce", "__end__")
    .compile();
}

/** What `run` rejects with (or its result, which then fails the assertions). */
const failure = (run: () => Promise<unknown>): Promise<unknown> => run().catch((error: unknown) => error);

describe("a failed map-reduce at N=500", () => {
  const failing = mapReduce((item) => {
    if (item === items[N - 1]) throw new Error("boom");
    return { results: [item] };
  });

  it("prints its message, code and node, not the state nor the kept writes", async () => {
    const error = await failure(() => failing.invoke({ items, results: [] }));
    expect(error).toBeInstanceOf(GraphExecutionError);
    const printed = inspect(error);
    expect(printed).toContain('invoke: node "work" threw: boom');
    expect(printed).toContain("NODE_FAILED");
    expect(printed).not.toContain(items[0]);
    expect(printed.length).toBeLessThan(4000);
  });

  it("keeps the state, the kept writes and the attempts on the error", async () => {
    const error = (await failure(() => failing.invoke({ items, results: [] }))) as GraphExecutionError;
    expect(error.state["items"]).toEqual(items);
    expect(error.pendingWrites).toHaveLength(N - 1);
    expect(error.attempts).toEqual([]);
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "work", state: { items, results: [] } });
  });
});

describe("interrupt() in a run that cannot pause", () => {
  it("is INTERRUPT_OUTSIDE_THREAD with its whole sentence, naming the node", async () => {
    const graph = mapReduce(() => {
      interrupt("approve?");
      return {};
    });
    const error = await failure(() => graph.invoke({ items: ["one"], results: [] }));
    expect(error).toBeInstanceOf(InterruptError);
    expect(error).toMatchObject({ code: "INTERRUPT_OUTSIDE_THREAD" });
    const message = (error as Error).message;
    expect(message).toMatch(/^invoke: node "work" called interrupt\(\) outside a threaded run/);
    expect(message).toContain("without a checkpointer cannot pause.");
    expect(message).not.toContain("…");
  });
});

describe("an option that is not what it should be", () => {
  it("quotes at most a short piece of it (a threadId given a 10,000-item object)", async () => {
    const big = Object.fromEntries(items.map((item) => [item, item]));
    const graph = mapReduce((item) => ({ results: [item] }));
    const checkpointer = { latest: () => Promise.resolve(undefined) } as never;
    const error = await failure(() => graph.invoke({ items: [], results: [] }, { threadId: big, checkpointer } as never));
    expect(error).toMatchObject({ code: "INVALID_OPTION" });
    expect((error as Error).message).toMatch(/^invoke: threadId must be a non-empty string/);
    expect((error as Error).message.length).toBeLessThan(400);
  });
});
