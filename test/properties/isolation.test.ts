/**
 * Isolation: random mutations by a node of its input (and of the update it returned, later), by a
 * router of its input, and by the caller of the input, the returned steps and the result never change
 * what the run computes.
 */
import { fc, test } from "@fast-check/vitest";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { compileGraph, type GraphDefinition } from "../../src/index.js";
import { definitionOf, graphPlan, mutate, mutations, propertyParams, type Mutation } from "./arbitraries.js";
import { outcomeOf } from "./engines.js";

/** The definition with nodes and routers that mutate everything they were given, and every update they returned before. */
function mutating(definition: GraphDefinition, ops: readonly Mutation[]): { definition: GraphDefinition; returned: unknown[] } {
  const returned: unknown[] = [];
  // The context goes through untouched: a retried node reads its attempt from it.
  const wrap =
    (fn: (state: Record<string, unknown>, context: unknown) => unknown, keep: boolean) =>
    (state: Record<string, unknown>, context: unknown) => {
      const output = fn(state, context);
      mutate(state, ops);
      for (const earlier of returned) mutate(earlier, ops);
      if (keep) {
        if (output instanceof Promise)
          void output.then(
            (value) => returned.push(value),
            () => undefined,
          );
        else returned.push(output);
      }
      return output;
    };
  const mapValues = (record: GraphDefinition["nodes"], keep: boolean) =>
    Object.fromEntries(
      Object.entries(record).map(([name, fn]) => [name, wrap(fn as (state: Record<string, unknown>, context: unknown) => unknown, keep)]),
    );
  return {
    definition: { ...definition, nodes: mapValues(definition.nodes, true), routers: mapValues(definition.routers, false) },
    returned,
  };
}

describe("isolation", () => {
  test.prop([graphPlan(), mutations], propertyParams(100))(
    "nodes and routers that mutate their input, and updates they returned, change nothing",
    async (plan, ops) => {
      const clean = await outcomeOf(() =>
        compileGraph(definitionOf(plan)).invoke(structuredClone(plan.input), { maxSteps: plan.maxSteps }),
      );
      const { definition, returned } = mutating(definitionOf(plan), ops);
      const graph = compileGraph(definition);
      const dirty = await outcomeOf(async () => {
        const result = await graph.invoke(structuredClone(plan.input), { maxSteps: plan.maxSteps });
        // Steps are copied lazily: mutating what the nodes returned, now, must not reach them either.
        for (const update of returned) mutate(update, ops);
        return result;
      });
      expect(dirty).toStrictEqual(clean);
    },
  );

  test.prop([graphPlan(), mutations], propertyParams(100))(
    "a caller mutating the input, each streamed step and the result's steps changes nothing the run reports",
    async (plan, ops) => {
      const graph = compileGraph(definitionOf(plan));
      const options = { maxSteps: plan.maxSteps };
      const clean = await outcomeOf(() => graph.invoke(structuredClone(plan.input), options));
      if (clean.kind !== "done") return;

      // invoke: mutate the input as soon as the run started, and every step after reading it.
      const input = structuredClone(plan.input);
      const pending = graph.invoke(input, options);
      mutate(input, ops);
      const result = await pending;
      const seen = result.steps.map((step) => {
        const snapshot = structuredClone({ update: step.update, state: step.state });
        mutate(step.update, ops);
        mutate(step.state, ops);
        return snapshot;
      });
      mutate(result.state, ops);
      mutate(result.trace, ops);
      expect(seen).toStrictEqual(clean.steps?.map(({ update, state }) => ({ update, state })));

      // stream: mutate each step as it arrives; later steps and the state they carry are unaffected.
      const streamed: unknown[] = [];
      for await (const step of graph.stream(structuredClone(plan.input), options)) {
        streamed.push(structuredClone({ update: step.update, state: step.state }));
        mutate(step.state, ops);
        mutate(step.update, ops);
      }
      expect(streamed).toStrictEqual(clean.steps?.map(({ update, state }) => ({ update, state })));
      expect(await outcomeOf(() => graph.invoke(structuredClone(plan.input), options))).toStrictEqual(clean);
    },
  );
});

// A property whose mutations never changed anything would pass vacuously.
it("the random mutations do change the states they are applied to", () => {
  const samples = fc.sample(
    fc.tuple(
      graphPlan().map((plan) => plan.input),
      mutations,
    ),
    { numRuns: 200, seed: 3 },
  );
  const changed = samples.filter(([input, ops]) => {
    const copy = structuredClone(input);
    mutate(copy, ops);
    return !isDeepStrictEqual(copy, input);
  });
  expect(changed.length).toBeGreaterThan(150);
});
