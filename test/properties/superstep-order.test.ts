/**
 * Determinism of the superstep merge: whatever order parallel branches finish in, the merged state and
 * the trace are those of declaration order, and a parallel write conflict is always reported.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { append, compileGraph, END, START } from "../../src/index.js";

interface S {
  log: string[];
  total: number;
}

const runs = Math.min(Number(process.env.PROPERTY_RUNS ?? 30), 100);
const branchNames = fc.uniqueArray(fc.constantFrom("a", "bb", "ccc", "dddd", "eeeee"), { minLength: 2, maxLength: 5 });
const completionDelays = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 });

/** START → start → {branches…} → END (a join), each branch finishing after its own delay. */
function branchGraph(names: readonly string[], delays: readonly number[], update: (name: string, state: S) => Partial<S>) {
  const branch = (name: string, index: number) => async (state: S) => {
    await new Promise((resolve) => setTimeout(resolve, delays[index] ?? 0));
    return update(name, state);
  };
  return compileGraph<S>({
    spec: {
      nodes: ["start", ...names],
      edges: [{ from: START, to: "start" }],
      fanOuts: [{ from: "start", to: [...names] }],
      joins: [{ from: [...names], to: END }],
      routes: [],
      reducers: [{ field: "log", reducer: "append" }],
    },
    nodes: Object.fromEntries([["start", () => ({})], ...names.map((name, index) => [name, branch(name, index)])]),
    routers: {},
    reducers: { log: append },
  });
}

test.prop([branchNames, completionDelays], { numRuns: runs })(
  "with a reducer, parallel updates merge in declaration order, not completion order",
  async (names, delays) => {
    const { state, trace } = await branchGraph(names, delays, (name) => ({ log: [name] })).invoke({ log: [], total: 0 });
    expect(state.log).toEqual(names);
    expect(trace).toEqual(["start", ...names]);
  },
);

test.prop([branchNames, completionDelays], { numRuns: runs })(
  "two branches writing a field without a reducer are always reported, naming the first two in declaration order",
  async (names, delays) => {
    const error = await branchGraph(names, delays, (name, s) => ({ total: s.total + name.length }))
      .invoke({ log: [], total: 0 })
      .catch((e: unknown) => e);
    expect(String(error)).toContain(`"${names[0]}" and "${names[1]}" both wrote "total"`);
  },
);
