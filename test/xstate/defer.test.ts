/**
 * Deferred nodes on XState: the superstep machine keeps the waiting tasks in its context (the run
 * kernel's snapshot), so it runs the deferred node where the mini engine does. A "nodes" machine runs
 * one node per state, so a graph whose branches run in parallel is refused there, deferred or not.
 */
import { describe, expect, it } from "vitest";
import { runOnXState } from "../../src/xstate/index.js";
import { joinIntoDeferred, reduceBesideSends, unevenBranches } from "../helpers/defer-graphs.js";

describe("a deferred node on XState (supersteps layout)", () => {
  it.each([
    ["branches of different lengths", () => unevenBranches(true)],
    ["beside pending Sends", reduceBesideSends],
    ["after a join, once the longest branch is done", joinIntoDeferred],
  ])("%s: the same trace, state and steps as invoke", async (_name, build) => {
    const onXState = await runOnXState(build(), { log: [] }, { layout: "supersteps" });
    const onMini = await build().invoke({ log: [] });
    expect({ trace: onXState.trace, state: onXState.state }).toEqual({ trace: onMini.trace, state: onMini.state });
    expect(onXState.trace.filter((node) => node === "reduce")).toHaveLength(1);
  });
});
