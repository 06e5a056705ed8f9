/**
 * Loop bounds count visits as the run goes (kernel/bounds.ts `visitCounts`, `countVisits`): admitting
 * a task reads the running count, not the trace, and a restored run counts its snapshot's trace once.
 */
import { describe, expect, it } from "vitest";
import { executableOf } from "../../src/engine/compiled-graph.js";
import { countVisits, visitCounts } from "../../src/engine/kernel/bounds.js";
import { resolveLimits } from "../../src/engine/kernel/limits.js";
import { admit } from "../../src/engine/kernel/superstep.js";
import { Run } from "../../src/engine/run.js";
import type { Task } from "../../src/engine/step.js";
import { END, START, StateGraph } from "../../src/index.js";

interface Count {
  n: number;
}

/** START → a → b, b routes "again" to a; a runs at most twice, then the run goes to "exit"; b at most once, with no exit. */
const bounded = executableOf(
  new StateGraph<Count>()
    .addNode("a", (state) => ({ n: state.n + 1 }), { bound: { max: 2, exit: "exit" } })
    .addNode("b", () => ({}), { bound: { max: 1 } })
    .addNode("exit", () => ({}))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addConditionalEdges("b", (): "again" | "done" => "again", { again: "a", done: END })
    .addEdge("exit", END)
    .compile(),
);
const task = (node: string, sent = false): Task => ({ node, sent });
const limits = resolveLimits({ maxSteps: 100 });

describe("visit counts", () => {
  it("counts the bounded nodes of a trace, and nothing in a graph without bounds", () => {
    expect([...visitCounts(bounded, ["a", "b", "exit", "a"])]).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    const unbounded = executableOf(
      new StateGraph<Count>()
        .addNode("a", () => ({}))
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile(),
    );
    expect(visitCounts(unbounded, ["a", "a"]).size).toBe(0);
  });

  it("adds a superstep's tasks one by one (two Sends to a node are two visits)", () => {
    const visits = visitCounts(bounded, ["a"]);
    countVisits(bounded, visits, [task("a", true), task("a", true), task("exit")]);
    expect(visits.get("a")).toBe(3);
    expect(visits.has("exit")).toBe(false);
  });

  it("admit reads the running count when the driver keeps one, not the trace", () => {
    const snapshot = { tasks: [task("b")], trace: [], supersteps: 0, joins: [] };
    expect(admit(bounded, snapshot, limits, undefined).kind).toBe("run");
    const counted = admit(bounded, { ...snapshot, visits: new Map([["b", 1]]) }, limits, undefined);
    expect(counted.kind === "stop" && counted.failure.code).toBe("LOOP_BOUND");
  });

  it("a restored run counts its snapshot's trace: the bound holds across the restore", async () => {
    const snapshot = { state: { n: 2 }, tasks: [task("a")], trace: ["a", "b", "a", "b"], routes: [], supersteps: 4, joins: [] };
    const run = Run.restore(bounded, snapshot, undefined);
    // a ran twice before the restore: the task goes to the exit instead, and b (once already) is never admitted again.
    while ((await run.superstepRecords()) !== undefined);
    expect(run.trace).toEqual(["a", "b", "a", "b", "exit"]);
    expect(run.state).toEqual({ n: 2 });
  });
});
