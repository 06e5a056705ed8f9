/** Without the `@xstate/graph` package, `via: "@xstate/graph"` says what to install; `via: "xstate"` does not need it. */
import { describe, expect, it, vi } from "vitest";
import { CoverageError, coveragePlan } from "../../src/coverage/index.js";
import { buildReportGraph } from "../../src/examples/report/index.js";

vi.mock("@xstate/graph", () => {
  throw Object.assign(new Error("Cannot find package '@xstate/graph' imported from _xstate-plan.js"), { code: "ERR_MODULE_NOT_FOUND" });
});

describe('via "@xstate/graph" without the package', () => {
  it("rejects with XSTATE_UNAVAILABLE and the install command", async () => {
    const error = await coveragePlan(buildReportGraph(), { via: "@xstate/graph" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoverageError);
    expect(error).toMatchObject({
      code: "XSTATE_UNAVAILABLE",
      message:
        'coveragePlan: via "@xstate/graph" needs the @xstate/graph package and xstate, and they could not be loaded. ' +
        "Install them (npm install @xstate/graph xstate), or omit `via` for the built-in linear plan.",
    });
  });

  it('leaves via "xstate" (xstate\'s own subpath) working', async () => {
    expect((await coveragePlan(buildReportGraph(), { via: "xstate" })).covered).toBe(9);
  });
});
