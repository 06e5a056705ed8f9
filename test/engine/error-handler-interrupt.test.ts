/**
 * An error handler that calls `interrupt()` on a thread (issue 38, note-s5 'left'): the run pauses inside
 * the handler, a `Command({ resume })` answers it, and the handler's update lands in the failed node's place.
 * As for any handled node, its own edge does not apply (only a handler's `Command` goto follows).
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface LogState {
  log: string[];
}

describe("an error handler that asks a person", () => {
  it("pauses on a thread, and the resume's answer is its update; the run then finishes", async () => {
    let attempts = 0;
    const graph = new StateGraph<LogState>({ reducers: { log: append }, fields: ["log"] })
      .addNode(
        "a",
        async (): Promise<Partial<LogState>> => {
          attempts += 1;
          throw new Error("boom");
        },
        {
          errorHandler: (_state, { error }) => ({
            log: [
              `${typeof error === "object" && error !== null && "message" in error ? String(error.message) : "?"}: ${String(interrupt("retry by hand?"))}`,
            ],
          }),
        },
      )
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    const paused = await graph.invoke({ log: [] }, { threadId: "t", checkpointer });
    expect(paused.status).toBe("interrupted");
    if (paused.status !== "interrupted") return;
    expect(paused.interrupt.interrupts?.[0]?.value).toBe("retry by hand?");
    const done = await graph.invoke(new Command({ resume: "fixed" }), { threadId: "t", checkpointer });
    expect(done.status).toBe("done");
    expect(done.state.log).toEqual(["boom: fixed"]);
    expect(done.trace).toEqual(["a"]);
    // The paused task runs again from its start on resume (an interrupt re-runs its task): the node, then its handler.
    expect(attempts).toBe(2);
  });
});
