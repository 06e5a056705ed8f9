/**
 * Builder calls whose result was dropped, and a builder variable assigned its own call's result
 * (issue 18 §4): each call returns a new builder type, so a name declared in a dropped call is not a
 * node of the builder the next call is made on, and a variable's type (fixed where it is declared)
 * cannot hold the next step. Each fails with a message that says so; the chained form, a const per
 * step, helpers generic over the builder and builders typed `any` still compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { Demand } from "../../src/builder/messages.js";
import type { SourceCheck, TargetCheck } from "../../src/builder/declared-names.js";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  events: string[];
}

declare const name: string;
declare const declaredOrNot: "a" | "zz";
declare const declared: "a" | "b";

/** The message for a name that is not a node of the builder. */
type Dropped<Api extends string, Node extends string> =
  `${Api}: "${Node}" is not a node of this builder; declare it with addNode first. If you did, that call's result was dropped: each call returns a new builder type, so chain the calls or keep each result`;

describe("a call on a builder whose addNode result was dropped", () => {
  it("says the name is not a node of this builder, and that a call's result may have been dropped", () => {
    const b = new StateGraph<S>();
    b.addNode("intake", () => ({}));
    // @ts-expect-error - the builder that knows "intake" was dropped
    b.addEdge(START, "intake");
    // @ts-expect-error - the same for a source
    b.addEdge("intake", END);
    // @ts-expect-error - and for a route's source
    b.addConditionalEdges("intake", (): "x" => "x", { x: END });
    // @ts-expect-error - and for a fan-out's target
    b.addNode("a", () => ({})).addEdge("a", ["intake", END]);
    // @ts-expect-error - and for one member of a union of names
    new StateGraph<S>().addNode("a", () => ({})).addEdge("a", declaredOrNot);
    expectTypeOf<TargetCheck<"intake", never, unknown>>().toEqualTypeOf<Demand<Dropped<"addEdge", "intake">>>();
    expectTypeOf<SourceCheck<"intake", "a", never, "addConditionalEdges">>().toEqualTypeOf<
      Demand<Dropped<"addConditionalEdges", "intake">>
    >();
    expectTypeOf<SourceCheck<"a" | "zz", "a", never, "addEdge">>().toEqualTypeOf<Demand<Dropped<"addEdge", "zz">>>();
  });

  it("says why END is no source, START no destination, and a name typed string no name", () => {
    const two = new StateGraph<S>().addNode("a", () => ({})).addNode("b", () => ({}));
    // @ts-expect-error - END has no way out
    two.addEdge(END, "a");
    // @ts-expect-error - nothing leads to START
    two.addEdge("a", START);
    // @ts-expect-error - START in a join
    two.addEdge(["a", START], "b");
    // @ts-expect-error - a source typed string
    two.addEdge(name, "b");
    // @ts-expect-error - a destination typed string
    two.addEdge("a", name);
    expectTypeOf<SourceCheck<typeof END, "a", never, "addEdge">>().toEqualTypeOf<
      Demand<"addEdge: END has no outgoing edge, a run stops there; start from a node, or from START">
    >();
    expectTypeOf<SourceCheck<readonly ["a", typeof START], "a", never, "addEdge">>().toEqualTypeOf<
      Demand<"addEdge: a join's sources are nodes; START leads to the first node alone: addEdge(START, <first node>)">
    >();
    expectTypeOf<TargetCheck<typeof START, "a", unknown>>().toEqualTypeOf<Demand<"addEdge: no edge leads to START; lead to the first node itself">>();
    expectTypeOf<TargetCheck<string, "a", unknown>>().toEqualTypeOf<
      Demand<"addEdge: a node name typed string cannot be checked; pass a string literal, or a union of declared names">
    >();
  });

  it("still names a second rule from one source", () => {
    // @ts-expect-error - "a" already has its rule
    new StateGraph<S>().addNode("a", () => ({})).addEdge("a", END).addEdge("a", END);
    expectTypeOf<SourceCheck<"a", "a", "a", "addEdge">>().toEqualTypeOf<
      Demand<'addEdge: "a" already has its outgoing rule; each source has exactly one (one edge, fan-out, join or route): remove the extra rule, fan out with a list, or route with addConditionalEdges'>
    >();
  });

  it("accepts chained calls, a const per step, and unions of declared names", () => {
    const one = new StateGraph<S>().addNode("a", () => ({}));
    const both = one.addNode("b", () => ({}));
    both.addEdge(START, "a").addEdge("a", ["b", END]).addEdge("b", END).compile();
    both.addEdge(START, "a").addEdge(["a", "b"], END);
    both.addEdge(START, declared);
    both
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addConditionalEdges("b", (s) => (s.count > 0 ? "done" : "again"), { done: END, again: "a" })
      .compile();
    expectTypeOf<SourceCheck<"a", "a" | "b", never, "addEdge">>().toEqualTypeOf<unknown>();
    expectTypeOf<TargetCheck<readonly ["b", typeof END], "a" | "b", unknown>>().toEqualTypeOf<unknown>();
    // biome-ignore lint/suspicious/noExplicitAny: a builder typed any opts out of the name checks
    expectTypeOf<TargetCheck<"x", any, unknown>>().toEqualTypeOf<unknown>();
  });

  it("lets a helper generic over the builder add edges between its own nodes", () => {
    const withAudit = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
      builder
        .addNode("audit", () => ({ events: ["audit"] }))
        .addNode("archive", () => ({}))
        .addEdge("audit", "archive")
        .addConditionalEdges("archive", (s): "done" | "again" => (s.count > 0 ? "done" : "again"), { done: END, again: "audit" });
    const graph = withAudit(new StateGraph<S>({ reducers: { events: append } }))
      .addEdge(START, "audit")
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "audit" | "archive">>();
  });
});

describe("a builder variable assigned its own call's result", () => {
  it("fails, naming the documented way: chain the calls, or a const per step", () => {
    let g = new StateGraph<S>();
    // @ts-expect-error - g's type is the builder before addNode
    g = g.addNode("a", () => ({}));
    let h = new StateGraph<S>().addNode("a", () => ({}));
    // @ts-expect-error - h's type is the step before the edge
    h = h.addEdge(START, "a");
    expectTypeOf<keyof StateGraph<S>>().toEqualTypeOf<
      | "StateGraph: a builder variable holds one step of the chain, since each call returns a new builder type; chain the calls, or keep each step in its own const"
      | "addNode"
      | "addEdge"
      | "addConditionalEdges"
      | "compile"
      | "nodes"
    >();
  });

  it("accepts a const per step, and the same step again", () => {
    const g = new StateGraph<S>().addNode("a", () => ({}));
    const next = g.addNode("b", () => ({}));
    let same = next.addEdge(START, "a");
    same = next.addEdge(START, "a");
    same.addEdge("a", "b").addEdge("b", END).compile();
  });
});
