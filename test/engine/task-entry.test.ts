/**
 * The task entry drivers that start tasks themselves go through (engine/task-entry.ts `taskEntry`,
 * used by dbos/_step.ts and langgraph/_wrap.ts): a task runs as the mini engine runs it, its output is
 * split as the kernel reads it, a failure after an abort the node read counts as cancelled, and a
 * router runs with the engine's key check.
 */
import { describe, expect, it } from "vitest";
import { executableOf } from "../../src/engine/compiled-graph.js";
import type { InterruptFrame } from "../../src/engine/interrupt-scope.js";
import { taskEntry } from "../../src/engine/task-entry.js";
import { Command, END, interrupt, START, StateGraph } from "../../src/index.js";

interface Count {
  n: number;
  read?: boolean;
}

const graph = executableOf(
  new StateGraph<Count>()
    .addNode("inc", (state) => ({ n: state.n + 1 }))
    .addNode("jump", () => new Command({ update: { n: 10 }, goto: "inc" }), { ends: ["inc"] })
    .addNode("ask", () => ({ n: interrupt<number>("how many?") }))
    .addNode("watch", (_state, context) => {
      const aborted = context.signal.aborted;
      throw new Error(`stopped (aborted: ${aborted})`);
    })
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (state): "more" | "done" => (state.n < 3 ? "more" : "done"), { more: "jump", done: "watch" })
    .addEdge("jump", "ask")
    .addEdge("ask", END)
    .addEdge("watch", END)
    .compile(),
);
const io = { signal: undefined, superstep: 1, threadId: undefined };

describe("taskEntry", () => {
  it("runs a node on a copy of the state and hands back its update", async () => {
    const state = { n: 1 };
    const output = await taskEntry.run(graph, { node: "inc", sent: false }, state, taskEntry.context("inc", io));
    expect(taskEntry.output(output)).toEqual({ update: { n: 2 }, parts: [{ n: 2 }], goto: undefined, handoff: false });
    expect(state).toEqual({ n: 1 });
  });

  it("splits a Command's goto from its update", async () => {
    const output = await taskEntry.run(graph, { node: "jump", sent: false }, { n: 1 }, taskEntry.context("jump", io));
    const { update, goto } = taskEntry.output(output);
    expect(update).toEqual({ n: 10 });
    expect(goto).toEqual([{ node: "inc", sent: false }]);
  });

  it("runs the task inside the frame it is given: its interrupt() asks that frame", async () => {
    const asked: unknown[] = [];
    const frame: InterruptFrame = {
      paused: false,
      call: (value) => {
        asked.push(value);
        return { resumed: true, value: 7 };
      },
    };
    const output = await taskEntry.run(graph, { node: "ask", sent: false }, { n: 0 }, taskEntry.context("ask", io), frame);
    expect(output).toEqual({ n: 7 });
    expect(asked).toEqual(["how many?"]);
    expect(taskEntry.frame()).toBeUndefined();
    // Without a frame, interrupt() has no thread to pause: it fails as on a plain run.
    await expect(async () => taskEntry.run(graph, { node: "ask", sent: false }, { n: 0 }, taskEntry.context("ask", io))).rejects.toThrow();
  });

  it("counts a failure as cancelled only when the signal aborted and the node read it", async () => {
    const controller = new AbortController();
    controller.abort();
    const context = taskEntry.context("watch", { ...io, signal: controller.signal });
    expect(taskEntry.cancelled(context, controller.signal)).toBe(false);
    await expect(async () => taskEntry.run(graph, { node: "watch", sent: false }, { n: 0 }, context)).rejects.toThrow(/aborted: true/);
    expect(taskEntry.cancelled(context, controller.signal)).toBe(true);
    expect(taskEntry.cancelled(context, undefined)).toBe(false);
  });

  it("runs a router with the engine's route-key check", async () => {
    const successors = await taskEntry.route(graph, "inc", { n: 1 }, io);
    expect(successors.tasks).toEqual([{ node: "jump", sent: false }]);
    expect(successors.routes.map((route) => route.key)).toEqual(["more"]);
  });
});
