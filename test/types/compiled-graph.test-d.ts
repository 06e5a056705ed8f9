/**
 * `CompiledGraph<S, N>` (issue 18 §2): `compile()` keeps the node names, which type the result's trace
 * and steps, where a thread paused and `updateState`'s `asNode`; `CompiledGraph<S>` still accepts every
 * graph of state `S`, so annotations and every engine's entry point keep compiling.
 */
import { describe, expectTypeOf, it } from "vitest";
import { replayPath, scriptedGraph } from "../../src/coverage/index.js";
import { registerOnDBOS, resumeOnDBOS, startOnDBOS } from "../../src/dbos/index.js";
import { END, START, StateGraph, type CompiledGraph, type Step, type TaskEvent, type TaskStart } from "../../src/index.js";
import type { RunnableGraph } from "../../src/inspect/target.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { assertEveryNodeReachesEnd } from "../../src/testing/index.js";
import { runOnXState, streamOnXState, toMachine } from "../../src/xstate/index.js";

interface S {
  draft: string;
  approved: boolean;
}
type Nodes = "write" | "publish";

const builder = new StateGraph<S>()
  .addNode("write", () => ({ draft: "hello" }))
  .addNode("publish", () => ({ approved: true }))
  .addEdge(START, "write")
  .addEdge("write", "publish")
  .addEdge("publish", END);
const graph = builder.compile();
const threaded = builder.compile({ interruptBefore: ["publish"] });
const checkpointer = new MemoryCheckpointer();
const input: S = { draft: "", approved: false };

describe("compile() keeps the node names", () => {
  it("types the trace, the steps and the streamed steps by them", async () => {
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, Nodes>>();
    const { trace, steps } = await graph.invoke(input);
    expectTypeOf(trace).toEqualTypeOf<Nodes[]>();
    expectTypeOf(steps).toEqualTypeOf<Step<S, Nodes>[]>();
    for await (const step of graph.stream(input)) expectTypeOf(step.node).toEqualTypeOf<Nodes>();
    for await (const [mode, chunk] of graph.stream(input, { streamMode: ["updates", "values"] }))
      if (mode === "updates") expectTypeOf(chunk.node).toEqualTypeOf<Nodes>();
  });

  it("types the chunks of the tasks, checkpoints and debug modes, and a list's chunks follow its modes", async () => {
    for await (const event of graph.stream(input, { streamMode: "tasks" })) {
      expectTypeOf(event).toEqualTypeOf<TaskEvent<S, Nodes>>();
      expectTypeOf(event.name).toEqualTypeOf<Nodes>();
      if ("result" in event) expectTypeOf(event.result).toEqualTypeOf<Partial<S> | undefined>();
    }
    for await (const checkpoint of threaded.stream(input, { threadId: "t", checkpointer, streamMode: "checkpoints" }))
      expectTypeOf(checkpoint.next).toEqualTypeOf<readonly Nodes[]>();
    for await (const event of threaded.stream(input, { threadId: "t", checkpointer, streamMode: "debug" }))
      if (event.type === "checkpoint") expectTypeOf(event.payload.state).toEqualTypeOf<S>();
      else if (event.type === "task") expectTypeOf(event.payload).toEqualTypeOf<TaskStart<Nodes>>();
    for await (const chunk of graph.stream(input, { streamMode: ["updates", "tasks"] })) {
      expectTypeOf(chunk[0]).toEqualTypeOf<"updates" | "tasks">();
      if (chunk[0] === "tasks") expectTypeOf(chunk[1]).toEqualTypeOf<TaskEvent<S, Nodes>>();
      // @ts-expect-error - "values" is not one of the modes asked for
      if (chunk[0] === "values") expectTypeOf(chunk[1]).toBeObject();
    }
  });

  it("types where a thread paused and what runs next", async () => {
    const result = await threaded.invoke(input, { threadId: "t", checkpointer });
    expectTypeOf(result.next).toEqualTypeOf<readonly Nodes[]>();
    if (result.status === "interrupted") {
      expectTypeOf(result.interrupt.nodes).toEqualTypeOf<readonly Nodes[]>();
      expectTypeOf(result.interrupt.interrupts?.[0]?.node).toEqualTypeOf<Nodes | undefined>();
      // issue 35 §4: a pause during nodes always lists its interrupt() calls, a pause before or after none
      if (result.interrupt.when === "during") expectTypeOf(result.interrupt.interrupts[0]?.node).toEqualTypeOf<Nodes | undefined>();
      // @ts-expect-error - a pause before or after nodes may have no interrupt() calls: narrow on when first
      void result.interrupt.interrupts.length;
      if (result.interrupt.when !== "during") expectTypeOf(result.interrupt.interrupts).toEqualTypeOf<undefined>();
    }
  });

  it("types getState's next, and the history's, by them (issue 35 §2)", async () => {
    const read = await threaded.getState("t", { checkpointer });
    expectTypeOf(read?.next).toEqualTypeOf<readonly Nodes[] | undefined>();
    // @ts-expect-error - "publsh" is not a node of the graph
    void read?.next.includes("publsh");
    expectTypeOf((await threaded.getStateHistory("t", { checkpointer }))[0]?.next).toEqualTypeOf<readonly Nodes[] | undefined>();
    expectTypeOf((await threaded.updateState("t", { approved: true }, { checkpointer })).next).toEqualTypeOf<readonly Nodes[]>();
    const anyNames: CompiledGraph<S> = threaded;
    expectTypeOf((await anyNames.getState("t", { checkpointer }))?.next).toEqualTypeOf<readonly string[] | undefined>();
  });

  it("checks updateState's asNode against them", () => {
    threaded.updateState("t", { approved: true }, { asNode: "write", checkpointer });
    threaded.updateState("t", null, { asNode: END, checkpointer });
    threaded.updateState("t", { approved: true }, { checkpointer });
    // @ts-expect-error - "writ" is not a node of the graph
    threaded.updateState("t", { approved: true }, { asNode: "writ", checkpointer });
    // @ts-expect-error - START is not a node a state update can come from
    threaded.updateState("t", { approved: true }, { asNode: START, checkpointer });
  });
});

describe("bulkUpdateState is typed as updateState is", () => {
  it("checks each update's asNode against the node names, and its values against the state", async () => {
    const latest = await threaded.bulkUpdateState(
      "t",
      [{ updates: [{ values: { approved: true }, asNode: "write" }] }, { updates: [{ values: null, asNode: END }] }],
      { checkpointer },
    );
    expectTypeOf(latest.next).toEqualTypeOf<readonly Nodes[]>();
    // @ts-expect-error - "writ" is not a node of the graph
    void threaded.bulkUpdateState("t", [{ updates: [{ values: { approved: true }, asNode: "writ" }] }], { checkpointer });
    // @ts-expect-error - START is not a node a state update can come from
    void threaded.bulkUpdateState("t", [{ updates: [{ values: { approved: true }, asNode: START }] }], { checkpointer });
    // @ts-expect-error - "aproved" is not a field of the state
    void threaded.bulkUpdateState("t", [{ updates: [{ values: { aproved: true }, asNode: "write" }] }], { checkpointer });
    // @ts-expect-error - a superstep is { updates }, as LangGraph's
    void threaded.bulkUpdateState("t", [[{ values: { approved: true }, asNode: "write" }]], { checkpointer });
  });
});

describe("CompiledGraph<S> accepts a graph with any node names", () => {
  it("keeps annotations compiling, and forgets the names", async () => {
    const annotated: CompiledGraph<S> = graph;
    expectTypeOf((await annotated.invoke(input)).trace).toEqualTypeOf<string[]>();
    annotated.updateState("t", { approved: true }, { asNode: "any name: checked at run time", checkpointer });
    expectTypeOf<CompiledGraph<S, "write">>().toExtend<CompiledGraph<S>>();
    expectTypeOf<CompiledGraph<S, Nodes>>().toExtend<CompiledGraph<object>>();
  });

  it("does not pass a graph of any names for one of known names", () => {
    const annotated: CompiledGraph<S> = graph;
    // its trace could hold any name
    expectTypeOf(annotated).not.toExtend<CompiledGraph<S, Nodes>>();
    expectTypeOf<CompiledGraph<S, "write">>().not.toExtend<CompiledGraph<S, "publish">>();
  });

  it("each engine's entry point takes a graph with its names", () => {
    expectTypeOf(runOnXState(graph, input)).toBeObject();
    expectTypeOf(streamOnXState(graph, input)).toBeObject();
    expectTypeOf(toMachine(graph)).toBeObject();
    expectTypeOf(runOnLangGraph(graph, input)).toBeObject();
    expectTypeOf(toLangGraph(graph)).toBeObject();
    expectTypeOf(startOnDBOS(graph, input, { workflowId: "w" })).toBeObject();
    expectTypeOf(resumeOnDBOS(threaded, "w")).toBeObject();
    expectTypeOf(registerOnDBOS(graph, { name: "report" })).toEqualTypeOf<CompiledGraph<S>>();
    expectTypeOf(scriptedGraph(graph, [])).toEqualTypeOf<CompiledGraph<S>>();
    expectTypeOf(replayPath(graph, { trace: ["write", "publish"], routes: [] }, input, { run: runOnXState })).toBeObject();
    assertEveryNodeReachesEnd(graph);
    const runnable: RunnableGraph = graph;
    expectTypeOf(runnable).toEqualTypeOf<CompiledGraph<object>>();
  });
});
