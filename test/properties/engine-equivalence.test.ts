/**
 * Equivalence: random graphs (cycles included), deterministic routers driven by the state, random
 * built-in reducers, nodes and routers that sometimes fail. Every engine of `engines.ts` must give the
 * same outcome: trace, final state, routes, steps, and the same kind of error (code, node, state, trace),
 * step-limit stops included.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { definitionOf, graphPlan, propertyParams, type GraphPlan } from "./arbitraries.js";
import { engines, UNSUPPORTED } from "./engines.js";
import { referenceRun, type Outcome } from "./reference-interpreter.js";

/** Steps are compared only when both engines report them. */
function comparable(outcome: Outcome, other: Outcome): Outcome {
  if (outcome.kind !== "done" || (other.kind === "done" && other.steps !== undefined)) return outcome;
  const { steps: _steps, ...rest } = outcome;
  return rest;
}

describe("engine equivalence", () => {
  // A run that hangs fails after `timeout` ms (and shrinks) instead of stalling the whole test.
  test.prop([graphPlan()], { ...propertyParams(150), timeout: 1000 })(
    "every engine gives the same trace, state, routes and error for a random graph",
    async (plan) => {
      const outcomes: { engine: string; outcome: Outcome }[] = [];
      for (const engine of engines) {
        const outcome = await engine.run(definitionOf(plan), structuredClone(plan.input), plan.maxSteps);
        if (outcome !== UNSUPPORTED) outcomes.push({ engine: engine.name, outcome });
      }
      const [reference, ...others] = outcomes;
      if (reference === undefined) throw new Error("no engine ran the graph");
      for (const { engine, outcome } of others) {
        expect(comparable(outcome, reference.outcome), `${engine} against ${reference.engine}`).toStrictEqual(
          comparable(reference.outcome, outcome),
        );
      }
    },
    60_000,
  );

  it("the random graphs reach every kind of ending (the property is not vacuous)", async () => {
    const endings = new Map<string, number>();
    for (const plan of fc.sample(graphPlan(), { numRuns: 400, seed: 42 })) {
      const outcome = await referenceRun(definitionOf(plan), plan.input, plan.maxSteps);
      const ending = outcome.kind === "done" ? "done" : outcome.code;
      endings.set(ending, (endings.get(ending) ?? 0) + 1);
    }
    for (const ending of ["done", "STEP_LIMIT", "NODE_FAILED", "INVALID_UPDATE", "REDUCER_FAILED", "ROUTER_FAILED", "UNKNOWN_ROUTE_KEY"]) {
      expect(endings.get(ending) ?? 0, `${ending} in ${JSON.stringify([...endings])}`).toBeGreaterThan(4);
    }
  });
});
