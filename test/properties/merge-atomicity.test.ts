/**
 * Merge atomicity: a reducer that throws, wherever it sits among an update's fields (and even after
 * mutating what it was given), leaves the state exactly as it was before the step.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { mergeUpdate } from "../../src/engine/index.js";
import { compileGraph, GraphExecutionError, type AnyReducer, type Step } from "../../src/index.js";
import { builtins, definitionOf, fieldNames, graphPlan, json, jsonState, propertyParams, type GraphPlan } from "./arbitraries.js";

/** A reducer that mutates `current` (when it can) and throws. */
function throwing(current: unknown): never {
  if (Array.isArray(current)) current.push("mutated");
  else if (typeof current === "object" && current !== null) (current as Record<string, unknown>)["mutated"] = true;
  throw new Error("reducer failed on purpose");
}

/** A user reducer that works by mutating its `current` argument. */
function mutatingConcat(current: unknown, update: unknown): unknown {
  if (Array.isArray(current)) {
    current.push(update);
    return current;
  }
  return [current, update];
}

describe("merge atomicity", () => {
  test.prop(
    [
      jsonState,
      fc.uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), json), { selector: ([key]) => key, minLength: 1 }),
      fc.nat(),
      fc.array(fc.constantFrom("mutatingConcat", "replace", "none"), { minLength: 5, maxLength: 5 }),
    ],
    propertyParams(200),
  )("mergeUpdate: a throwing reducer at any position leaves the state untouched", (generatedState, entries, at, kinds) => {
    const update = Object.fromEntries(entries);
    const keys = Object.keys(update);
    const failing = keys[at % keys.length] as string;
    // The failing field needs a current value, or the merge stores the update without calling its reducer.
    const state = { ...generatedState, [failing]: generatedState[failing] ?? ["current"] };
    const reducers = new Map<string, (current: unknown, update: unknown) => unknown>();
    keys.forEach((key, i) => {
      const kind = kinds[i % kinds.length];
      if (key === failing) reducers.set(key, throwing);
      else if (kind === "mutatingConcat") reducers.set(key, mutatingConcat);
      else if (kind === "replace") reducers.set(key, builtins.replace as (current: unknown, update: unknown) => unknown);
    });
    const before = structuredClone(state);
    expect(() => mergeUpdate(state, update, reducers)).toThrow();
    expect(state).toStrictEqual(before);
  });

  test.prop([graphPlan().map(withoutFailures), fc.nat(), fc.integer({ min: 1, max: 3 })], propertyParams(150))(
    "a run whose reducer throws on its k-th call keeps the state of the last completed step",
    async (plan, pick, k) => {
      const written = plan.nodes.flatMap(([, node]) => node.writes.map((w) => w.field));
      const field = written[pick % Math.max(written.length, 1)] ?? fieldNames[pick % fieldNames.length] ?? "n";
      const definition = definitionOf(plan);
      const inner = definition.reducers[field] as ((current: unknown, update: unknown) => unknown) | undefined;
      let calls = 0;
      const reducer = (current: unknown, update: unknown) => {
        calls += 1;
        return calls === k ? throwing(current) : inner ? inner(current, update) : update;
      };
      const graph = compileGraph({
        ...definition,
        spec: {
          ...definition.spec,
          reducers: [...definition.spec.reducers.filter((r) => r.field !== field), { field, reducer: "throwsOnce" }],
        },
        reducers: { ...definition.reducers, [field]: reducer as AnyReducer },
      });
      const input = { ...plan.input, [field]: plan.input[field as keyof typeof plan.input] ?? defaultOf(field) };
      const seen: Step<Record<string, unknown>>[] = [];
      try {
        for await (const step of graph.stream(structuredClone(input), { maxSteps: plan.maxSteps })) seen.push(step);
      } catch (error) {
        if (!(error instanceof GraphExecutionError) || error.code !== "REDUCER_FAILED") return;
        const before = seen.at(-1)?.state ?? structuredClone(input);
        expect(error.state).toStrictEqual(before);
        expect(error.trace).toEqual(seen.map((step) => step.node));
      }
    },
  );
});

/** The plan with well-behaved nodes and routers, so most runs get as far as the failing reducer. */
function withoutFailures(plan: GraphPlan): GraphPlan {
  return {
    ...plan,
    nodes: plan.nodes.map(
      ([name, node]) => [name, { ...node, failure: null, writes: node.writes.map((w) => ({ ...w, wrong: false })) }] as const,
    ),
    routers: plan.routers.map(([source, router]) => [source, { ...router, failure: null }] as const),
  };
}

/** A starting value of the field's type, so the failing reducer has a current value to be called with. */
function defaultOf(field: string): unknown {
  return field === "n" ? 0 : field === "last" ? "start" : [];
}
