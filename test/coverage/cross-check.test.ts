/**
 * The built-in linear plan and XState's plan, checked against each other and against the spec; and
 * the linear plan's speed on a large graph.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { coveragePlan, type CoveragePlan } from "../../src/coverage/index.js";
import { buildAgentGraph, ScriptedModel } from "../../src/examples/agent/index.js";
import { buildReportGraph } from "../../src/examples/report/index.js";
import type { GraphSpec } from "../../src/index.js";
import { bigSpec, compileSpec, isWalkOf, smallSpec } from "./_graphs.js";

const labels = (plan: CoveragePlan): Set<string> => new Set(plan.paths.flatMap((p) => p.transitions.map((t) => t.label)));

function expectSound(spec: GraphSpec, plan: CoveragePlan): void {
  expect(plan.covered).toBe(plan.total);
  expect(labels(plan)).toEqual(new Set(plan.transitions.map((t) => t.label)));
  for (const path of plan.paths) expect(isWalkOf(spec, path), path.name).toBe(true);
}

describe("linear and xstate plans agree", () => {
  it("on the example graphs: the same transitions covered, and every linear path is one of XState's", async () => {
    const agent = buildAgentGraph(new ScriptedModel({ city: "Paris", task: "weather", language: "en" }));
    for (const graph of [buildReportGraph(), agent]) {
      const linear = coveragePlan(graph);
      const viaXState = await coveragePlan(graph, { via: "xstate" });
      expectSound(graph.spec, linear);
      expectSound(graph.spec, viaXState);
      const xstateNames = viaXState.paths.map((p) => p.name);
      expect(linear.paths.every((p) => xstateNames.includes(p.name))).toBe(true);
    }
  });

  test.prop([smallSpec], { numRuns: 200, seed: 5 })(
    "on small random graphs (self-loops and back-edges): both cover every transition with valid paths",
    async (spec) => {
      const graph = compileSpec(spec);
      const linear = coveragePlan(graph);
      const viaXState = await coveragePlan(graph, { via: "xstate" });
      expectSound(spec, linear);
      expectSound(spec, viaXState);
      // The linear plan adds a path only for a transition no earlier path took.
      expect(linear.paths.length).toBeLessThanOrEqual(linear.total);
    },
  );

  it("the random graphs have what makes plans hard (the property is not vacuous)", () => {
    let selfLoops = 0;
    let backEdges = 0;
    for (const spec of fc.sample(smallSpec, { numRuns: 200, seed: 5 })) {
      for (const route of spec.routes) {
        for (const to of Object.values(route.paths)) {
          if (to === route.from) selfLoops += 1;
          else if (spec.nodes.indexOf(to) >= 0 && spec.nodes.indexOf(to) < spec.nodes.indexOf(route.from)) backEdges += 1;
        }
      }
    }
    expect(selfLoops).toBeGreaterThan(20);
    expect(backEdges).toBeGreaterThan(20);
  });
});

describe("the linear plan's speed", () => {
  it("plans a random 1000-node graph (about 2 exits per node) well under 2 s", () => {
    const spec = bigSpec(1000, 7);
    const exits = spec.edges.length + spec.routes.reduce((sum, r) => sum + Object.keys(r.paths).length, 0);
    expect(exits / 1000).toBeGreaterThan(1.8);
    const graph = compileSpec(spec);
    const started = performance.now();
    const plan = coveragePlan(graph);
    const elapsed = performance.now() - started;
    expect(plan.covered).toBe(plan.total);
    expect(elapsed).toBeLessThan(2000);
  });
});
