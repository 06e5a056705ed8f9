/**
 * The builder typed with `any` (issue 18 §1, "Helpers over the builder"): `StateGraph<S, any, any, any>`
 * holds any builder of the state that has a node, an edge and a rule, and the calls on it compile
 * (`any` opts out of the name and rule checks; the update checks stay). A builder with no node, edge
 * or rule yet is not one: `any` cannot stand for `never` in an invariant parameter, and the error
 * names the documented way.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  events: string[];
}

const started = new StateGraph<S>({ reducers: { events: append } })
  .addNode("a", (s) => ({ count: s.count + 1 }))
  .addEdge(START, "a");

// biome-ignore lint/suspicious/noExplicitAny: `any` is how a helper opts out of the builder's type parameters
type AnyBuilder = StateGraph<S, any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: every parameter, for a variable reassigned across steps
type AnyBuilderAllSix = StateGraph<S, any, any, any, any, any>;

describe("a builder typed StateGraph<S, any, any, any>", () => {
  it("adds nodes, edges and routes, and compiles, in a helper given a chained builder", () => {
    const finish = (g: AnyBuilder) =>
      g
        .addNode("b", () => ({ events: ["b"] }))
        .addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "done"), { more: "b", done: END })
        .addEdge("b", END)
        .compile();
    expectTypeOf(finish(started)).toEqualTypeOf<CompiledGraph<S>>();
    const compileAll = (g: AnyBuilder) => g.compile();
    expectTypeOf(compileAll(started.addEdge("a", END))).toEqualTypeOf<CompiledGraph<S>>();
  });

  it("holds a variable reassigned with its own calls", () => {
    let g: AnyBuilder = started;
    g = g.addEdge("a", END);
    g.compile();
    let all: AnyBuilderAllSix = started;
    all = all.addNode("b", () => ({}));
    all = all.addEdge("a", "b").addEdge("b", END);
    all.compile();
  });

  it("still checks each node's update", () => {
    const g: AnyBuilder = started;
    // @ts-expect-error - "cnt" is not a field of S
    g.addNode("b", () => ({ cnt: 1 }));
    // @ts-expect-error - count is a number
    g.addNode("b", () => ({ count: "1" }));
  });
});

describe("a builder with no node, edge or rule yet, typed with any", () => {
  it("does not compile (docs/typed-builder.md quotes the message, any-builder-step)", () => {
    // @ts-expect-error - a new builder has no node, edge or rule (never), which any cannot stand for
    let fresh: AnyBuilder = new StateGraph<S>();
    // @ts-expect-error - no edge and no rule yet
    fresh = new StateGraph<S>().addNode("a", () => ({}));
    fresh.compile();
    const compileAll = (g: AnyBuilder) => g.compile();
    // @ts-expect-error - no rule from START yet
    compileAll(new StateGraph<S>().addNode("a", () => ({})));
  });

  it("keeps the rule check on a builder whose sources are known", () => {
    // @ts-expect-error - START already has its rule
    started.addEdge(START, "a");
    const generic = <N extends string, E, R extends string>(b: StateGraph<S, N, E, R>) => b.addNode("x", () => ({})).addEdge("x", END);
    // @ts-expect-error - the helper gave "x" its rule
    generic(started).addEdge("x", END);
  });
});
