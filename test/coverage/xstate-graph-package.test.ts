/**
 * `coveragePlan(graph, { via: "@xstate/graph" })`, on the real `@xstate/graph` 3.0.4 package (a dev
 * dependency): the same plan as `xstate/graph`'s, and the same refusals.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CoverageError, coveragePlan } from "../../src/coverage/index.js";
import { buildAgentGraph, ScriptedModel } from "../../src/examples/agent/index.js";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { buildResearchGraph } from "../../src/examples/research/index.js";
import { compileSpec, isWalkOf, smallSpec } from "./_graphs.js";

const agent = buildAgentGraph(new ScriptedModel({ city: "Paris", task: "weather", language: "en" }));

describe('coveragePlan via "@xstate/graph"', () => {
  it("runs on @xstate/graph 3.0.4 itself, not on xstate's subpath", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../../node_modules/@xstate/graph/package.json"), "utf8")) as {
      version: string;
    };
    expect(manifest.version).toBe("3.0.4");
  });

  it("plans the report graph as xstate/graph does: 4 paths, 9/9", async () => {
    const plan = await coveragePlan(buildReportGraph(), { via: "@xstate/graph" });
    expect(plan.paths.map((p) => p.name)).toEqual(["accept", "revise → accept", "revise → hold", "hold"]);
    expect([plan.via, plan.covered, plan.total]).toEqual(["@xstate/graph", 9, 9]);
  });

  it("gives the same paths as xstate/graph on the example graphs", async () => {
    for (const graph of [buildReportGraph(), agent]) {
      const viaPackage = await coveragePlan(graph, { via: "@xstate/graph" });
      const viaSubpath = await coveragePlan(graph, { via: "xstate" });
      expect(viaPackage.paths).toEqual(viaSubpath.paths);
    }
  });

  test.prop([smallSpec], { numRuns: 60, seed: 11 })(
    "covers every transition of small random graphs with paths that follow the spec",
    async (spec) => {
      const plan = await coveragePlan(compileSpec(spec), { via: "@xstate/graph" });
      expect(plan.covered).toBe(plan.total);
      for (const path of plan.paths) expect(isWalkOf(spec, path), path.name).toBe(true);
    },
  );

  it("refuses a graph that fans out or joins, as via xstate does (XSTATE_PLAN_UNSUPPORTED)", async () => {
    const error = await coveragePlan(buildResearchGraph(), { via: "@xstate/graph" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoverageError);
    expect(error).toMatchObject({
      code: "XSTATE_PLAN_UNSUPPORTED",
      message: expect.stringMatching(/^coveragePlan: via "@xstate\/graph" plans on the coverage model/),
    });
  });

  it("the random graphs are not all trivial", () => {
    expect(fc.sample(smallSpec, { numRuns: 60, seed: 11 }).some((spec) => spec.routes.length > 1)).toBe(true);
  });
});
