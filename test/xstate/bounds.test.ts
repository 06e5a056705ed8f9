/** Loop bounds on XState, in both layouts: the exit and `LOOP_BOUND` where the mini engine has them. */
import { describe, expect, it } from "vitest";
import { END } from "../../src/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { draftInput, reviseLoop } from "../helpers/loop-graphs.js";

const settle = async (run: Promise<{ trace: readonly string[]; state: unknown }>) => {
  try {
    const { trace, state } = await run;
    return { trace, state };
  } catch (error) {
    const { name, code, node, trace, message } = error as Error & Record<string, unknown>;
    return { name, code, node, trace, message: message.replace(/^\w+: /, "") };
  }
};

describe.each(["nodes", "supersteps"] as const)("a bounded node on XState (%s layout)", (layout) => {
  const cases = [
    { name: "exit hold, stubborn", graph: reviseLoop(2, "hold"), failing: 99 },
    { name: "exit hold, within the bound", graph: reviseLoop(2, "hold"), failing: 1 },
    { name: "max 0, exit hold", graph: reviseLoop(0, "hold"), failing: 1 },
    { name: "max 0, correct first draft", graph: reviseLoop(0, "hold"), failing: 0 },
    { name: "exit END", graph: reviseLoop(1, END), failing: 99 },
    { name: "no exit: LOOP_BOUND", graph: reviseLoop(1), failing: 99 },
  ];

  it.each(cases)("$name: as on the mini engine", async ({ graph, failing }) => {
    const onXState = await settle(runOnXState(graph, draftInput(failing), { layout }));
    expect(onXState).toEqual(await settle(graph.invoke(draftInput(failing))));
  });

  it("LOOP_BOUND is a GraphLimitError naming the node", async () => {
    await expect(runOnXState(reviseLoop(1), draftInput(99), { layout })).rejects.toMatchObject({
      name: "GraphLimitError",
      code: "LOOP_BOUND",
      node: "revise",
    });
  });
});
