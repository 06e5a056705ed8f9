/**
 * An input is validated by the state schema once (issue 39): a plain `invoke`, a `stream`, a new
 * thread, and a thread that has state (its input merged with that state through the reducers, then
 * checked) each call the schema's `validate` once before the first node runs. The schema below counts
 * its calls, the one effect a caller can observe.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { append, END, START, stateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import type { StandardSchemaV1 } from "../../src/engine/state-schema.js";

const Log = z.object({ topic: z.string(), events: z.array(z.string()) });
type Log = z.output<typeof Log>;

/** The zod schema behind a `validate` that counts its calls; `seen` is the count when the node started. */
function countedGraph() {
  const counter = { calls: 0, seen: -1 };
  const props = Log["~standard"];
  const schema: StandardSchemaV1<Log, Log> = {
    "~standard": {
      ...props,
      validate: (value) => {
        counter.calls += 1;
        return props.validate(value);
      },
    },
  };
  const graph = stateGraph(schema)({ reducers: { events: append } })
    .addNode("note", () => {
      counter.seen = counter.calls;
      return { events: ["noted"] };
    })
    .addEdge(START, "note")
    .addEdge("note", END)
    .compile();
  // compile() probes the schema once (is it synchronous?): the runs' calls count from here.
  counter.calls = 0;
  return { graph, counter };
}

const input: Log = { topic: "tides", events: [] };

describe("the state schema validates an input once", () => {
  it("plain invoke: once for the input, once for the one superstep", async () => {
    const { graph, counter } = countedGraph();
    await graph.invoke(input);
    expect(counter).toEqual({ calls: 2, seen: 1 });
  });

  it("stream: once for the input", async () => {
    const { graph, counter } = countedGraph();
    for await (const _ of graph.stream(input)) {
      // drain
    }
    expect(counter).toEqual({ calls: 2, seen: 1 });
  });

  it("a new thread: once for the input", async () => {
    const { graph, counter } = countedGraph();
    await graph.invoke(input, { threadId: "t", checkpointer: new MemoryCheckpointer() });
    expect(counter).toEqual({ calls: 2, seen: 1 });
  });

  it("a thread with state: once for the input merged with it", async () => {
    const { graph, counter } = countedGraph();
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke(input, { threadId: "t", checkpointer });
    counter.calls = 0;
    const { state } = await graph.invoke({ events: ["again"] }, { threadId: "t", checkpointer });
    expect(state.events).toEqual(["noted", "again", "noted"]);
    expect(counter).toEqual({ calls: 2, seen: 1 });
  });

  it.each([
    ["XState", runOnXState],
    ["LangGraph.js", runOnLangGraph],
  ] as const)("%s: once for the input", async (_engine, run) => {
    const { graph, counter } = countedGraph();
    await run(graph, input);
    expect(counter.seen).toBe(1);
  });
});
