/** A graph compiled with interrupts is refused by every XState entry, never run straight through its interrupts. */
import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import { runOnXState, streamOnXState, toMachine, XStateExportError } from "../../src/xstate/index.js";

const gated = (interrupts: { interruptBefore?: "ship"[]; interruptAfter?: "review"[] }) =>
  new StateGraph<{ shipped: boolean }>()
    .addNode("review", () => ({}))
    .addNode("ship", () => ({ shipped: true }))
    .addEdge(START, "review")
    .addEdge("review", "ship")
    .addEdge("ship", END)
    .compile(interrupts);

describe("XState and interrupts", () => {
  it.each([
    ["interruptBefore", { interruptBefore: ["ship" as const] }, "ship"],
    ["interruptAfter", { interruptAfter: ["review" as const] }, "review"],
  ])("%s: toMachine, runOnXState and streamOnXState refuse with UNSUPPORTED_INTERRUPT", async (_what, interrupts, node) => {
    const graph = gated(interrupts);
    const expected = { name: "XStateExportError", code: "UNSUPPORTED_INTERRUPT", names: [node] };
    expect(() => toMachine(graph)).toThrow(XStateExportError);
    expect(() => toMachine(graph)).toThrow(`toMachine: the graph pauses at interrupts (${node})`);
    await expect(runOnXState(graph, { shipped: false })).rejects.toMatchObject(expected);
    const consume = async () => {
      for await (const _ of streamOnXState(graph, { shipped: false })) void _;
    };
    await expect(consume()).rejects.toMatchObject(expected);
  });

  it("a graph without interrupts still exports", () => {
    expect(() => toMachine(gated({}))).not.toThrow();
  });
});
