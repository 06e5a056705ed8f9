/** Interrupt names are checked at compile time like every other name; threaded runs are typed. */
import { describe, expectTypeOf, it } from "vitest";
import { END, START, StateGraph, type RunResult } from "../../src/index.js";
import { MemoryCheckpointer, type Checkpoint, type ThreadRunResult } from "../../src/persistence/index.js";

interface S {
  draft: string;
  approved: boolean;
}

const builder = new StateGraph<S>()
  .addNode("write", () => ({ draft: "hello" }))
  .addNode("publish", () => ({ approved: true }))
  .addEdge(START, "write")
  .addEdge("write", "publish")
  .addEdge("publish", END);

describe("compile({ interruptBefore, interruptAfter })", () => {
  it("accepts declared node names", () => {
    builder.compile({ interruptBefore: ["publish"], interruptAfter: ["write"] });
    builder.compile({ typeLevelTopology: false, interruptBefore: ["publish"] });
  });

  it("rejects names that are not nodes", () => {
    // @ts-expect-error - "publsh" is not a declared node
    builder.compile({ interruptBefore: ["publsh"] });
    // @ts-expect-error - END is not a node one can pause at
    builder.compile({ interruptAfter: [END] });
    // @ts-expect-error - the check holds with typeLevelTopology: false too
    builder.compile({ typeLevelTopology: false, interruptBefore: ["nope"] });
  });
});

describe("threaded runs", () => {
  const graph = builder.compile({ interruptBefore: ["publish"] });
  const checkpointer = new MemoryCheckpointer();

  it("a threaded invoke resolves with a ThreadRunResult; a plain one with a RunResult", () => {
    expectTypeOf(graph.invoke({ draft: "", approved: false }, { threadId: "t", checkpointer })).resolves.toEqualTypeOf<
      ThreadRunResult<S, "write" | "publish">
    >();
    expectTypeOf(graph.invoke({ draft: "", approved: false })).resolves.toEqualTypeOf<RunResult<S, "write" | "publish">>();
  });

  it("only a threaded invoke may pass null, to resume", () => {
    expectTypeOf(graph.invoke(null, { threadId: "t", checkpointer })).resolves.toEqualTypeOf<ThreadRunResult<S, "write" | "publish">>();
    // @ts-expect-error - null resumes a thread: it needs a threadId
    void graph.invoke(null);
  });

  it("the interrupt is only there when the status says interrupted", async () => {
    const result = await graph.invoke(null, { threadId: "t", checkpointer });
    if (result.status === "interrupted") expectTypeOf(result.interrupt.nodes).toEqualTypeOf<readonly ("write" | "publish")[]>();
    // @ts-expect-error - a done run has no interrupt
    void result.interrupt;
  });

  it("getState and updateState are typed by the state", async () => {
    expectTypeOf(graph.getState("t", { checkpointer })).resolves.toEqualTypeOf<Checkpoint<S, "write" | "publish"> | undefined>();
    // @ts-expect-error - "title" is not a field of the state
    void graph.updateState("t", { title: "x" }, { checkpointer });
    // @ts-expect-error - draft is a string
    void graph.updateState("t", { draft: 1 }, { checkpointer });
  });
});
