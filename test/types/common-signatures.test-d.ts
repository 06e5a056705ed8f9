/**
 * Common signatures the compiler must accept (issue 35 §1): each was a false error.
 */
import { describe, expectTypeOf, it } from "vitest";
import { bindSpec, Command, defineGraph, END, START, StateGraph, type CompiledGraph, type RunResult, type StateUpdate } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface S {
  count: number;
  events: string[];
}

describe("bindSpec", () => {
  it("the result of bindSpec(JSON.parse(text), …) can be invoked", () => {
    const text = JSON.stringify({ nodes: ["a"], edges: [], routes: [] });
    const fromJson = bindSpec(JSON.parse(text), { nodes: { a: (s: S) => ({ count: s.count + 1 }) } });
    void fromJson.invoke({ count: 0, events: [] });
  });

  it("bindSpec(compiled.spec, …) of a graph without routes does not demand routers", () => {
    const compiled = new StateGraph<S>().addNode("a", () => ({})).addEdge(START, "a").addEdge("a", END).compile();
    const rebound = bindSpec(compiled.spec, { nodes: { a: (s: S) => ({ count: s.count + 1 }) } });
    expectTypeOf(rebound).toEqualTypeOf<CompiledGraph<S>>();
  });
});

describe("helpers over the builder", () => {
  const withLogger = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
    builder.addNode("logger", (s) => ({ events: [`count ${s.count}`] })).addEdge("logger", END);

  it("the documented generic helper takes the chain written inline (its nodes read the state)", () => {
    const graph = withLogger(
      new StateGraph<S>().addNode("a", (s) => ({ count: s.count + 1 })).addNode("b", (s) => ({ events: [`${s.count}`] })),
    )
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "logger")
      .compile();
    expectTypeOf(graph.invoke({ count: 0, events: [] })).resolves.toEqualTypeOf<RunResult<S, "a" | "b" | "logger">>();
  });

  it("a builder typed StateGraph<S, any, …> extends in a loop over an as const list", () => {
    const names = ["x", "y", "z"] as const;
    // biome-ignore lint/suspicious/noExplicitAny: `any` is how a builder variable opts out of the name checks (docs/typed-builder.md)
    const extend = (start: StateGraph<S, any, any, any, any, any>) => {
      let g = start;
      for (const name of names) g = g.addNode(name, (s) => ({ count: s.count + 1 }));
      for (const name of names) g = g.addEdge(START, name).addEdge(name, END);
      return g.compile();
    };
    expectTypeOf(extend).returns.toEqualTypeOf<CompiledGraph<S, string>>();
  });

  it("a concrete builder still refuses a union of names", () => {
    const names = ["x", "y"] as const;
    const pick = (k: 0 | 1) => names[k];
    // @ts-expect-error - declare one node per call
    new StateGraph<S>().addNode(pick(0), () => ({}));
  });
});

describe("a node annotated with the exported update type", () => {
  it("StateUpdate<S> types a node declared apart, and the builder takes it", () => {
    const bump = (s: S): StateUpdate<S> => ({ count: s.count + 1 });
    new StateGraph<S>().addNode("bump", bump).addEdge(START, "bump").addEdge("bump", END).compile();
    // @ts-expect-error - "cuont" is not a field
    const typo = (s: S): StateUpdate<S> => ({ cuont: s.count });
    void typo;
  });
});

describe("after compile: defineGraph keeps its node names (issue 35 §2)", () => {
  it("its result is CompiledGraph<S, names>, so updateState's asNode is checked", () => {
    const graph = defineGraph<S>()({ nodes: { a: (s) => ({ count: s.count + 1 }) }, edges: [[START, "a"], ["a", END]] });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "a">>();
    const checkpointer = new MemoryCheckpointer();
    void graph.updateState("t", { count: 1 }, { asNode: "a", checkpointer });
    // @ts-expect-error - "b" is not a node of the graph
    void graph.updateState("t", { count: 1 }, { asNode: "b", checkpointer });
  });
});

describe("a node annotated Promise<Command<…>> (the LangGraph.js how-to's signature, issue 35 §1)", () => {
  type Next = "b" | typeof END;
  const decide = async (s: S): Promise<Command<unknown, S, Next>> => new Command({ update: { count: s.count + 1 }, goto: s.count > 2 ? END : "b" });

  it("compiles in the builder and in defineGraph, its goto still checked against the ends", () => {
    new StateGraph<S>().addNode("a", decide, { ends: ["b", END] }).addNode("b", () => ({})).addEdge(START, "a").addEdge("b", END).compile();
    defineGraph<S>()({ nodes: { a: decide, b: () => ({}) }, ends: { a: ["b", END] }, edges: [[START, "a"], ["b", END]] });
    // @ts-expect-error - its goto may name "b", which the ends do not list
    new StateGraph<S>().addNode("a", decide, { ends: [END] });
  });

  it("a Command a node builds with a resume is still refused, naming the fix", () => {
    // @ts-expect-error - resume answers an interrupt, from invoke
    new StateGraph<S>().addNode("a", async () => new Command({ resume: "yes", goto: "b" }), { ends: ["b"] });
  });
});

describe("a builder chosen by a ternary (issue 35 §1)", () => {
  const short = new StateGraph<S>().addNode("a", () => ({})).addEdge(START, "a").addEdge("a", END);
  const long = new StateGraph<S>()
    .addNode("a", () => ({}))
    .addNode("b", () => ({ count: 1 }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END);
  const flag = Math.random() > 0.5;

  it("compiles each branch, and the result is a graph of either's names", () => {
    const graph = flag ? short.compile() : long.compile();
    expectTypeOf(graph.spec.nodes).toEqualTypeOf<readonly string[]>();
    void graph.invoke({ count: 0, events: [] });
  });

  it("compiles a ternary of builders of one type (the same chain), checked as one", () => {
    const same = flag ? short : new StateGraph<S>().addNode("a", () => ({ count: 2 })).addEdge(START, "a").addEdge("a", END);
    expectTypeOf(same.compile()).toEqualTypeOf<CompiledGraph<S, "a">>();
  });

  it("does not call compile() on a union of two builder types (TS2349): their compile signatures cannot be combined", () => {
    // @ts-expect-error - This expression is not callable: compile each branch instead (above)
    (flag ? short : long).compile();
  });
});
