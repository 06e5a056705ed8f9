/** Determinism: the same graph and input give the same trace, steps and state (or the same error). */
import { test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { compileGraph } from "../../src/index.js";
import { definitionOf, graphPlan, propertyParams } from "./arbitraries.js";
import { outcomeOf } from "./engines.js";

describe("determinism", () => {
  test.prop([graphPlan()], propertyParams(100))("the same graph and input give the same outcome, run after run", async (plan) => {
    const graph = compileGraph(definitionOf(plan));
    const run = () => outcomeOf(() => graph.invoke(structuredClone(plan.input), { maxSteps: plan.maxSteps }));
    const first = await run();
    expect(await run()).toStrictEqual(first);
    // A second compilation of the same definition is the same graph.
    const again = compileGraph(definitionOf(plan));
    expect(await outcomeOf(() => again.invoke(structuredClone(plan.input), { maxSteps: plan.maxSteps }))).toStrictEqual(first);
  });
});
