/**
 * Error handlers on XState: the machine runs each node through the engine's `runTask` and routes a
 * handled task as the kernel says (only its handler's goto), so it ends where the mini engine does.
 */
import { describe, expect, it } from "vitest";
import { runOnXState } from "../../src/xstate/index.js";
import { defaultHandler, handledBesideSibling, handledToRecovery } from "../helpers/handler-graphs.js";

describe("an error handler on XState", () => {
  it.each([
    ["supersteps", "beside a sibling", handledBesideSibling],
    ["supersteps", "the default handler", defaultHandler],
    ["supersteps", "a handler's goto", handledToRecovery],
  ] as const)("%s layout, %s: the same trace and state as invoke", async (layout, _name, build) => {
    const onXState = await runOnXState(build(), { log: [] }, { layout });
    const onMini = await build().invoke({ log: [] });
    expect({ trace: onXState.trace, state: onXState.state }).toEqual({ trace: onMini.trace, state: onMini.state });
  });
});
