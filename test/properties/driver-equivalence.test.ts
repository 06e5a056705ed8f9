/**
 * Equivalence, for the drivers too slow to run hundreds of random graphs in `npm test`: the LangGraph
 * runner and the DBOS workflow must give the same outcome as the mini engine (trace, final state,
 * routes, steps, supersteps, or the same error: code, node, state, trace) on random graphs, cycles,
 * failures and step limits included, and, for LangGraph, a graph with a state schema fed arbitrary updates.
 * A few cases each (more with PROPERTY_RUNS for LangGraph); the
 * thread runner is one of `engines.ts`, so it runs every case of engine-equivalence.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { registerOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { compileGraph, START } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { launchDBOSForFile } from "../dbos/_launch.js";
import { counterGraph, counterStart, counterUpdate } from "./_counter-schema.js";
import { definitionOf, exportablePlan, graphPlan, propertyParams, type GraphPlan } from "./arbitraries.js";
import { outcomeOf } from "./engines.js";
import type { Outcome } from "./reference-interpreter.js";

/**
 * The sequential random graphs LangGraph.js can hold: their fields declared (it keeps only declared
 * keys), exportable names. Only the router after START may fail: on LangGraph.js a router after a node
 * runs inside its node's task, so its failure voids the node's update (a documented difference,
 * test/langgraph/failures.test.ts). (A router after START that threw once escaped runOnLangGraph as a
 * LangGraphNodeError where invoke raises ROUTER_FAILED: found by this property, fixed.)
 */
const langGraphPlan = exportablePlan({ maxNodes: 5 }).map(
  (plan): GraphPlan => ({
    ...plan,
    routers: plan.routers.map(([source, router]) => [source, source === START ? router : { ...router, failure: null }]),
  }),
);

function miniEngine(plan: GraphPlan): Promise<Outcome> {
  return outcomeOf(() => compileGraph(definitionOf(plan)).invoke(structuredClone(plan.input), { maxSteps: plan.maxSteps }));
}

/**
 * DBOS finds a workflow by its registration, made before DBOS launches: the random graphs are drawn
 * (with a fixed seed) and registered here, at load time.
 */
const durablePlans = [
  ...fc.sample(graphPlan(), { numRuns: 6, seed: 34 }),
  ...fc.sample(graphPlan({ parallel: true }), { numRuns: 4, seed: 34 }),
].map((plan, index) => ({ plan, graph: registerOnDBOS(compileGraph(definitionOf(plan)), { name: `equivalence-${index}` }) }));

const nextId = launchDBOSForFile("driver_equivalence");

describe("driver equivalence", () => {
  test.prop([langGraphPlan], { ...propertyParams(12), timeout: 10_000 })(
    "the LangGraph runner gives the mini engine's trace, state, routes, steps and error for a random graph",
    async (plan) => {
      const lang = await outcomeOf(() =>
        runOnLangGraph(compileGraph(definitionOf(plan)), structuredClone(plan.input), { maxSteps: plan.maxSteps }),
      );
      expect(lang).toStrictEqual(await miniEngine(plan));
    },
    120_000,
  );

  test.prop([fc.tuple(counterUpdate, counterUpdate, counterUpdate)], { ...propertyParams(10), timeout: 10_000 })(
    "with a state schema, the LangGraph runner commits what the mini engine commits, or fails with its INVALID_STATE",
    async ([left, right, last]) => {
      const graph = counterGraph([left, right, last]);
      const lang = await outcomeOf(() => runOnLangGraph(graph, { ...counterStart }));
      expect(lang).toStrictEqual(await outcomeOf(() => graph.invoke({ ...counterStart })));
    },
    120_000,
  );

  it.each(durablePlans.map(({ plan, graph }, index) => [index, plan, graph] as const))(
    "the DBOS workflow gives the mini engine's outcome for random graph %i",
    async (_index, plan, graph) => {
      const durable = await outcomeOf(() =>
        runOnDBOS(graph, structuredClone(plan.input), { workflowId: nextId("equivalence"), maxSteps: plan.maxSteps }),
      );
      expect(durable).toStrictEqual(await miniEngine(plan));
    },
    60_000,
  );

  it("the DBOS cases reach both endings (the check is not vacuous)", async () => {
    const endings = new Set<string>();
    for (const { plan } of durablePlans) {
      const outcome = await miniEngine(plan);
      endings.add(outcome.kind === "done" ? "done" : "error");
    }
    expect([...endings].sort()).toEqual(["done", "error"]);
  });
});
