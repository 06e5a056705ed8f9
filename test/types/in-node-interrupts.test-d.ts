/** In-node interrupts: defineInterrupt types the node's answer and the resume value; Command is accepted where a thread resumes. */
import { describe, expectTypeOf, it } from "vitest";
import { Command, defineInterrupt, END, interrupt, START, StateGraph, type PendingInterrupt } from "../../src/index.js";
import { MemoryCheckpointer, type ThreadRunResult } from "../../src/persistence/index.js";

interface S {
  draft: string;
  approved: boolean;
}

const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval");
const graph = new StateGraph<S>()
  .addNode("review", (s) => ({ approved: approval({ draft: s.draft }).approved }))
  .addEdge(START, "review")
  .addEdge("review", END)
  .compile();
const checkpointer = new MemoryCheckpointer();

describe("defineInterrupt", () => {
  it("the node's call returns the declared answer type", () => {
    expectTypeOf(approval({ draft: "d" })).toEqualTypeOf<{ approved: boolean }>();
    expectTypeOf(interrupt<number>("how many?")).toEqualTypeOf<number>();
  });

  it("the payload must be of the declared type, and JSON", () => {
    // @ts-expect-error - the payload lacks draft
    approval({ text: "d" });
    // @ts-expect-error - a function is not JSON: it could not be saved with the thread
    interrupt(() => 1);
  });

  it("resume takes only an answer of the declared type", () => {
    expectTypeOf(approval.resume({ approved: true })).toEqualTypeOf<Command<{ approved: boolean }>>();
    // @ts-expect-error - "yes" is not { approved: boolean }
    approval.resume("yes");
    // @ts-expect-error - approved must be a boolean
    approval.resume({ approved: "yes" });
    // @ts-expect-error - each answer of the map too
    approval.resumeById({ "review:1:0:0": { approved: 1 } });
  });
});

describe("a thread resumes with a Command", () => {
  it("invoke and stream take a Command on a thread, and resolve with a ThreadRunResult", () => {
    expectTypeOf(graph.invoke(approval.resume({ approved: true }), { threadId: "t", checkpointer })).resolves.toEqualTypeOf<
      ThreadRunResult<S, "review">
    >();
    graph.stream(new Command({ resume: "yes", update: { draft: "v2" }, goto: "review" }), { threadId: "t", checkpointer });
  });

  it("a Command's update holds only fields of the state", () => {
    // @ts-expect-error - drafts is not a field of S
    graph.invoke(new Command({ update: { drafts: "v2" } }), { threadId: "t", checkpointer });
  });

  it("a Command needs a thread", () => {
    // @ts-expect-error - without a threadId there is nothing to resume
    graph.invoke(new Command({ resume: "yes" }));
  });

  it("the pending interrupts are typed on the result", async () => {
    const result = await graph.invoke({ draft: "", approved: false }, { threadId: "t", checkpointer });
    if (result.status === "interrupted") expectTypeOf(result.interrupt.interrupts).toEqualTypeOf<readonly (PendingInterrupt & { readonly node: "review" })[] | undefined>();
  });
});
