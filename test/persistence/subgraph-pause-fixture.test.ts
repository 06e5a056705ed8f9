/**
 * A thread paused inside a subgraph by the version before subgraph interrupts resumed inside the child
 * (fixtures/subgraph-pause-v4.sqlite, made by make-subgraph-pause.mjs): its interrupt's id is the parent
 * task's, with no namespace. Today's code resumes it as it paused: the answer reaches the child, which
 * runs from its START once more, and the thread finishes.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph } from "../../src/index.js";
import { onDriver, openSqlite, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

type Log = { log: string[] };

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("a subgraph pause written before namespaces"), () => {
  it("resumes to END with the answer, the child starting again from its START", async () => {
    const starts: string[] = [];
    const child = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("c1", () => (starts.push("c1"), { log: ["c1"] }))
      .addNode("ask", () => (starts.push("ask"), { log: [`ask=${interrupt<string>({ question: "ok?" })}`] }))
      .addEdge(START, "c1")
      .addEdge("c1", "ask")
      .addEdge("ask", END)
      .compile();
    const parent = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("p1", () => (starts.push("p1"), { log: ["p1"] }))
      .addNode("sub", child)
      .addNode("p2", () => (starts.push("p2"), { log: ["p2"] }))
      .addEdge(START, "p1")
      .addEdge("p1", "sub")
      .addEdge("sub", "p2")
      .addEdge("p2", END)
      .compile();
    const file = join(dir, "paused.sqlite");
    copyFileSync(join(import.meta.dirname, "fixtures", "subgraph-pause-v4.sqlite"), file);
    const checkpointer = openSqlite(file);
    try {
      const before = await parent.getState("paused", { checkpointer, subgraphs: true });
      expect(before?.interrupts?.map((pending) => [pending.id, pending.ns])).toEqual([["sub:2:0:0", undefined]]);
      expect(before?.tasks).toEqual([{ node: "sub", sent: false }]);
      const done = await parent.invoke(new Command({ resume: "yes" }), { threadId: "paused", checkpointer });
      expect(done.status).toBe("done");
      expect(done.state.log).toEqual(["p1", "c1", "ask=yes", "p2"]);
      expect(starts).toEqual(["c1", "ask", "p2"]);
    } finally {
      checkpointer.close();
    }
  });
});
