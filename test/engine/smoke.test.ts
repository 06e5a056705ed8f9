import { expect, it } from "vitest";
import { StateGraph, START, END, append } from "../../src/index.js";
interface S { n: number; log: string[] }
it("runs", async () => {
  const g = new StateGraph<S>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: ["inc"] }))
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (s) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END })
    .compile();
  const r = await g.invoke({ n: 0, log: [] });
  expect(r.state).toEqual({ n: 3, log: ["inc", "inc", "inc"] });
});
