/**
 * Equivalence: random graphs (cycles included), deterministic routers driven by the state, random
 * built-in reducers, nodes and routers that sometimes fail. Every engine of `engines.ts` must give the
 * same outcome: trace, final state, routes, steps, supersteps, and the same kind of error (code, node,
 * state, trace), step-limit stops included. The parallel property adds fan-outs, joins, routers that
 * return several keys, and Sends (0, 1 or many, each with its own input), with async nodes that settle
 * in varied orders.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { compileGraph } from "../../src/index.js";
import { definitionOf, graphPlan, propertyParams, type GraphPlan } from "./arbitraries.js";
import { engines, UNSUPPORTED } from "./engines.js";
import { referenceRun, type Outcome } from "./reference-interpreter.js";

/** Steps are compared only when both engines report them. */
function comparable(outcome: Outcome, other: Outcome): Outcome {
  if (outcome.kind !== "done" || (other.kind === "done" && other.steps !== undefined)) return outcome;
  const { steps: _steps, ...rest } = outcome;
  return rest;
}

async function expectEquivalent(plan: GraphPlan): Promise<void> {
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
}

/** How a reference run ended, and what parallel work the run did before it ended (read from the mini engine's supersteps). */
async function profile(plan: GraphPlan) {
  const outcome = await referenceRun(definitionOf(plan), plan.input, plan.maxSteps);
  const ending = outcome.kind === "done" ? "done" : outcome.code;
  const supersteps: string[][] = [];
  try {
    for await (const { nodes } of compileGraph(definitionOf(plan)).stream(structuredClone(plan.input), {
      maxSteps: plan.maxSteps,
      streamMode: "values",
    })) {
      supersteps.push([...nodes]);
    }
  } catch {
    // The supersteps before the failure are what counts here.
  }
  const wide = supersteps.some((nodes) => nodes.length > 1);
  const sent = supersteps.some((nodes) => new Set(nodes).size < nodes.length);
  const joined = (plan.spec.joins ?? []).some((join) =>
    supersteps.some(
      (nodes, i) =>
        i > 0 && nodes.includes(join.to) && join.from.every((source) => supersteps.slice(0, i).some((before) => before.includes(source))),
    ),
  );
  return { ending, wide, joined, sent };
}

describe("engine equivalence", () => {
  // A run that hangs fails after `timeout` ms (and shrinks) instead of stalling the whole test.
  test.prop([graphPlan()], { ...propertyParams(150), timeout: 1000 })(
    "every engine gives the same trace, state, routes and error for a random graph",
    (plan) => expectEquivalent(plan),
    60_000,
  );

  test.prop([graphPlan({ parallel: true })], { ...propertyParams(200), timeout: 1000 })(
    "every engine gives the same trace, state, routes, supersteps and error for a random graph with fan-outs, joins and Sends",
    (plan) => expectEquivalent(plan),
    60_000,
  );

  it("the random graphs reach every kind of ending (the property is not vacuous)", async () => {
    const endings = new Map<string, number>();
    for (const plan of fc.sample(graphPlan(), { numRuns: 400, seed: 42 })) {
      const { ending } = await profile(plan);
      endings.set(ending, (endings.get(ending) ?? 0) + 1);
    }
    for (const ending of ["done", "STEP_LIMIT", "NODE_FAILED", "INVALID_UPDATE", "REDUCER_FAILED", "ROUTER_FAILED", "UNKNOWN_ROUTE_KEY"]) {
      expect(endings.get(ending) ?? 0, `${ending} in ${JSON.stringify([...endings])}`).toBeGreaterThan(4);
    }
  });

  it("the random parallel graphs run supersteps of several nodes, fire joins, send, and reach every kind of ending", async () => {
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    for (const plan of fc.sample(graphPlan({ parallel: true }), { numRuns: 400, seed: 42 })) {
      const { ending, wide, joined, sent } = await profile(plan);
      count(ending);
      if (wide) count("a superstep of several nodes");
      if (joined) count("a join that fired");
      if (sent) count("one node run several times in a superstep (Sends)");
    }
    for (const what of [
      "done",
      "STEP_LIMIT",
      "NODE_FAILED",
      "INVALID_UPDATE",
      "CONCURRENT_WRITE",
      "REDUCER_FAILED",
      "ROUTER_FAILED",
      "UNKNOWN_ROUTE_KEY",
      "JOIN_INCOMPLETE",
      "a superstep of several nodes",
      "a join that fired",
      "one node run several times in a superstep (Sends)",
    ]) {
      expect(seen.get(what) ?? 0, `${what} in ${JSON.stringify([...seen])}`).toBeGreaterThan(4);
    }
  });
});
