/**
 * `Command.PARENT` on XState (issue 38 §2): the machine commits through the run kernel, so a child's
 * handoff ends the child's run and the parent routes to its goto beside the subgraph node's own edge,
 * as on `invoke`; a child run on its own fails with `NO_PARENT_GRAPH`.
 */
import { describe, expect, it } from "vitest";
import { runOnXState } from "../../src/xstate/index.js";
import { handingChild, handoffParent, type Desk } from "../engine/_handoff.js";

const INPUT: Desk = { log: [], who: "none" };

describe("Command.PARENT on XState", () => {
  it("hands off as invoke does (supersteps layout): the same trace, state and steps", async () => {
    const [onXState, onMini] = await Promise.all([
      runOnXState(handoffParent(), INPUT, { layout: "supersteps" }),
      handoffParent().invoke(INPUT),
    ]);
    const seen = (run: { trace: readonly string[]; state: Desk; steps: readonly { update: unknown }[] }) => ({
      trace: run.trace,
      state: run.state,
      updates: run.steps.map((step) => step.update),
    });
    expect(seen(onXState)).toEqual(seen(onMini));
  });

  it("a child run on its own fails with NO_PARENT_GRAPH, as invoke does", async () => {
    await expect(runOnXState(handingChild(), INPUT, { layout: "supersteps" })).rejects.toMatchObject({
      code: "NO_PARENT_GRAPH",
      node: "c1",
    });
  });
});
