/**
 * A node that returns a list of Commands on XState: the machine commits through the run kernel, so the
 * parts merge in order and the gotos are all taken, as on `invoke`. (A node with ends runs in the
 * "supersteps" layout; the one-state-per-node layout refuses it, as test/xstate/command-goto.test.ts shows.)
 */
import { describe, expect, it } from "vitest";
import { runOnXState } from "../../src/xstate/index.js";
import { fanOutByCommands, plainFieldWrittenTwice, reducerWrittenThrice, type Desk } from "../helpers/command-list-graphs.js";

const INPUT: Desk = { topic: "", log: [] };

describe("a list of Commands on XState", () => {
  it.each([
    ["every goto taken", fanOutByCommands],
    ["a reducer field written by three Commands", reducerWrittenThrice],
  ])("%s (supersteps layout): the same trace, state and steps as invoke", async (_name, build) => {
    const onXState = await runOnXState(build(), INPUT, { layout: "supersteps" });
    const onMini = await build().invoke(INPUT);
    expect({ trace: onXState.trace, state: onXState.state }).toEqual({ trace: onMini.trace, state: onMini.state });
    expect(onXState.steps.map((step) => step.update)).toEqual(onMini.steps.map((step) => step.update));
  });

  it("refuses a field without a reducer written by two Commands, as invoke does", async () => {
    await expect(runOnXState(plainFieldWrittenTwice(), INPUT, { layout: "supersteps" })).rejects.toMatchObject({
      code: "CONCURRENT_WRITE",
      node: "a",
    });
  });
});
