/**
 * The computed superstep bound (validate/superstep-bound.ts) and the default `recursionLimit` made from
 * it (engine/kernel/recursion-limit.ts). The property: random graphs, sequential and parallel (fan-outs, joins,
 * Sends), their cycles bounded by random bounds (with and without exits, max 0 included), driven by
 * their routers: no run takes more supersteps than the bound, and none stops at the default limit.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { compileGraph, END, GraphError, START, StateGraph, unboundedCycles, type GraphSpec } from "../../src/index.js";
import type { BoundSpec } from "../../src/spec.js";
import { superstepBound } from "../../src/validate/superstep-bound.js";
import { runOnXState } from "../../src/xstate/index.js";
import { definitionOf, graphPlan, propertyParams, type GraphPlan } from "./arbitraries.js";

/** How one node is bounded when the plan bounds it: `exit` 0 none, 1 END, k ≥ 2 the (k-2)th node. */
interface BoundChoice {
  readonly max: number;
  readonly exit: number;
  /** Bounded from the start, whether or not a cycle needs it. */
  readonly eager: boolean;
}

const boundChoice: fc.Arbitrary<BoundChoice> = fc.record({
  max: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 4, max: 12 }) }),
  exit: fc.integer({ min: 0, max: 8 }),
  eager: fc.boolean(),
});

/** The plan's spec with bounds until every cycle crosses one: each unbounded cycle's first node gets its choice. */
function bounded(spec: GraphSpec, choices: readonly BoundChoice[]): GraphSpec {
  const bounds = new Map<string, BoundSpec>();
  const bound = (node: string) => {
    const choice = choices[spec.nodes.indexOf(node)] as BoundChoice;
    const exit = choice.exit === 0 ? undefined : choice.exit === 1 ? END : spec.nodes[(choice.exit - 2) % spec.nodes.length];
    bounds.set(node, { node, max: choice.max, ...(exit === undefined || exit === node ? {} : { exit }) });
  };
  for (const [index, node] of spec.nodes.entries()) if (choices[index]?.eager === true) bound(node);
  for (;;) {
    const cycles = unboundedCycles({ ...spec, bounds: [...bounds.values()] });
    const first = cycles[0]?.nodes[0];
    if (first === undefined) break;
    bound(first);
  }
  // A cycle through exits of exits (x → b, b's exit c, c's exit x) is one compile's rule does not see yet:
  // bound more nodes until the bound is defined.
  for (const node of spec.nodes) {
    if (superstepBound({ ...spec, bounds: [...bounds.values()] }) !== undefined) break;
    if (!bounds.has(node)) bound(node);
  }
  return { ...spec, bounds: [...bounds.values()] };
}

const boundedPlan = (parallel: boolean): fc.Arbitrary<GraphPlan> =>
  graphPlan({ parallel }).chain((plan) =>
    fc
      .array(boundChoice, { minLength: plan.spec.nodes.length, maxLength: plan.spec.nodes.length })
      .map((choices) => ({ ...plan, spec: bounded(plan.spec, choices) })),
  );

/**
 * The supersteps a run took before it ended or failed, and the error code it failed with. `maxSteps`
 * cuts runs whose Sends multiply (node executions are not bounded by loop bounds, supersteps are).
 */
async function supersteps(plan: GraphPlan, options: { readonly recursionLimit?: number }) {
  let count = 0;
  try {
    for await (const { superstep } of compileGraph(definitionOf(plan)).stream(structuredClone(plan.input), {
      ...options,
      maxSteps: 300,
      streamMode: "values",
    })) {
      count = superstep;
    }
    return { count, code: undefined };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return { count, code: error.code };
  }
}

describe("the computed superstep bound", () => {
  for (const parallel of [false, true]) {
    test.prop([boundedPlan(parallel)], { ...propertyParams(300), timeout: 2000 })(
      `no run of a random ${parallel ? "parallel " : ""}graph whose cycles are bounded takes more supersteps than the bound, or stops at the default limit`,
      async (plan) => {
        const bound = superstepBound(plan.spec);
        expect(bound).toBeDefined();
        // Under a limit far above the bound: the bound, not the limit, is what is checked.
        const free = await supersteps(plan, { recursionLimit: 100_000 });
        expect(free.count).toBeLessThanOrEqual(bound as number);
        // With the default limit (computed when above 25): the run goes exactly as far, never stopped by it.
        expect(await supersteps(plan, {})).toEqual(free);
      },
      60_000,
    );
  }

  it("the random bounded graphs are not trivial: loops run, exits are taken, some bounds are above 25", () => {
    const plans = fc.sample(boundedPlan(true), { numRuns: 300, seed: 7 });
    const bounds = plans.map((plan) => superstepBound(plan.spec) as number);
    expect(plans.filter((plan) => (plan.spec.bounds ?? []).some((b) => b.exit !== undefined)).length).toBeGreaterThan(50);
    expect(plans.filter((plan) => (plan.spec.bounds ?? []).some((b) => b.max === 0)).length).toBeGreaterThan(20);
    expect(bounds.filter((bound) => bound > 25).length).toBeGreaterThan(10);
  });
});

/** START → draft → check; check → revise or END; revise → check, bounded by `max` with `hold` as its exit. */
function reviseLoop(max: number, revisions: number) {
  return new StateGraph<{ n: number }>()
    .addNode("draft", () => ({ n: 0 }))
    .addNode("check", () => ({}))
    .addNode("revise", (s) => ({ n: s.n + 1 }), { bound: { max, exit: "hold" } })
    .addNode("hold", () => ({}))
    .addEdge(START, "draft")
    .addEdge("draft", "check")
    .addConditionalEdges("check", (s) => (s.n < revisions ? "again" : "done"), { again: "revise", done: END })
    .addEdge("revise", "check")
    .addEdge("hold", END)
    .compile();
}

describe("superstepBound", () => {
  it("adds, for each visit a bound allows, the node and the longest path of the rest after it", () => {
    // draft, check, hold: 3; revise: 2 × (1 + check → hold) = 6. The longest run takes 7 (hold once).
    expect(superstepBound(reviseLoop(2, 10).spec)).toBe(9);
    expect(superstepBound(reviseLoop(0, 10).spec)).toBe(3);
  });

  it("is the longest path of a graph without cycles, and undefined when a cycle crosses no bound", () => {
    const chain = new StateGraph<{ n: number }>()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addConditionalEdges("b", (s) => (s.n > 99 ? "y" : "x"), { x: "c", y: END })
      .addEdge("c", END)
      .compile();
    expect(superstepBound(chain.spec)).toBe(3);
    const loop = new StateGraph<{ n: number }>()
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.n < 3 ? "again" : "done"), { again: "a", done: END })
      .compile();
    expect(superstepBound(loop.spec)).toBeUndefined();
  });

  it("leaves a subgraph's own cycles to its runs: the subgraph is one superstep of its parent", () => {
    const child = new StateGraph<{ n: number }>()
      .addNode("inc", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "inc")
      .addConditionalEdges("inc", (s) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END })
      .compile();
    const parent = new StateGraph<{ n: number }>().addNode("sub", child).addEdge(START, "sub").addEdge("sub", END).compile();
    expect(superstepBound(parent.spec)).toBe(1);
  });
});

describe("the default recursionLimit", () => {
  it("is the computed bound when it is above 25: a bounded loop of 40 revisions runs to its end", async () => {
    const graph = reviseLoop(40, 40);
    const done = await graph.invoke({ n: 0 });
    expect(done.state.n).toBe(40);
    expect(done.trace.length).toBe(2 + 2 * 40);
    // An explicit recursionLimit wins.
    await expect(graph.invoke({ n: 0 }, { recursionLimit: 25 })).rejects.toMatchObject({ code: "STEP_LIMIT" });
  });

  it("is the same on XState: the run of 40 revisions ends there too", async () => {
    const done = await runOnXState(reviseLoop(40, 40), { n: 0 });
    expect(done.state.n).toBe(40);
    await expect(runOnXState(reviseLoop(40, 40), { n: 0 }, { recursionLimit: 25 })).rejects.toMatchObject({ code: "STEP_LIMIT" });
  });

  it("stays 25 for a graph with a cycle that crosses no bound", async () => {
    const loop = new StateGraph<{ n: number }>()
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.n < 100 ? "again" : "done"), { again: "a", done: END })
      .compile();
    await expect(loop.invoke({ n: 0 })).rejects.toThrow(/recursionLimit: 25/);
  });
});
