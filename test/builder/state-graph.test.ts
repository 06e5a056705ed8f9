import { describe, expect, it } from "vitest";
import { append, END, GraphValidationError, START, StateGraph, stateGraph, sum } from "../../src/index.js";
import type { CounterState } from "../helpers/graphs.js";
import { counterInput } from "../helpers/graphs.js";

describe("StateGraph (runtime)", () => {
  it("compiles a spec that is plain, JSON-serializable data", () => {
    const graph = new StateGraph<CounterState>({ reducers: { log: append, n: sum }, fields: ["n", "log", "note", "nested"] })
      .addNode("a", () => ({ n: 1 }))
      .addNode("b", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges(
        "a",
        function pickNext(s) {
          return s.n > 0 ? "go" : "stop";
        },
        { go: "b", stop: END },
      )
      .addEdge("b", END)
      .compile();
    expect(JSON.parse(JSON.stringify(graph.spec))).toEqual({
      nodes: ["a", "b"],
      edges: [
        { from: START, to: "a" },
        { from: "b", to: END },
      ],
      routes: [{ from: "a", router: "pickNext", paths: { go: "b", stop: END } }],
      reducers: [
        { field: "log", reducer: "append" },
        { field: "n", reducer: "sum" },
      ],
      fields: ["n", "log", "note", "nested"],
    });
    expect(Object.isFrozen(graph.spec)).toBe(true);
    expect(Object.isFrozen(graph.spec.routes[0]?.paths)).toBe(true);
  });

  it("stateGraph<S>()(options) builds the graph new StateGraph<S>(options) builds, reducers included", async () => {
    const options = { reducers: { log: append, n: sum }, fields: ["n", "log", "note", "nested"] } as const;
    const viaFactory = stateGraph<CounterState>()(options)
      .addNode("a", () => ({ n: 2, log: ["a"] }))
      .addNode("b", () => ({ n: 3, log: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    const viaConstructor = new StateGraph<CounterState>(options)
      .addNode("a", () => ({ n: 2, log: ["a"] }))
      .addNode("b", () => ({ n: 3, log: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    expect(viaFactory.spec).toEqual(viaConstructor.spec);
    const { state } = await viaFactory.invoke(counterInput());
    expect(state).toEqual((await viaConstructor.invoke(counterInput())).state);
    expect(state.n).toBe(5);
    // Without options, like new StateGraph<S>(): no reducer.
    expect(
      stateGraph<CounterState>()()
        .addNode("a", () => ({}))
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile().spec.reducers,
    ).toEqual([]);
  });

  it("records a user reducer under its function name", () => {
    function keepLongest(a: string[], b: string[]) {
      return a.length >= b.length ? a : b;
    }
    const graph = new StateGraph<CounterState>({ reducers: { log: keepLongest } })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(graph.spec.reducers).toEqual([{ field: "log", reducer: "keepLongest" }]);
  });

  it("each call returns a new builder: a builder value never changes", () => {
    const base = new StateGraph<CounterState>().addNode("a", () => ({ n: 1 }));
    const withStart = base.addEdge(START, "a");
    expect(base.nodes).toEqual(["a"]);
    const one = withStart.addEdge("a", END).compile();
    const two = withStart
      .addNode("b", () => ({}))
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    expect(one.spec.nodes).toEqual(["a"]);
    expect(two.spec.nodes).toEqual(["a", "b"]);
  });

  it("builders derived from one share its calls, never each other's, even after it was read", () => {
    const base = new StateGraph<CounterState>().addNode("a", () => ({ n: 1 })).addEdge(START, "a");
    expect(base.nodes).toEqual(["a"]);
    const left = base.addNode("l", () => ({}));
    const right = base.addNode("r", () => ({}));
    expect([base.nodes, left.nodes, right.nodes]).toEqual([["a"], ["a", "l"], ["a", "r"]]);
    (left.nodes as string[]).push("tampered");
    expect(left.nodes).toEqual(["a", "l"]);
  });

  it("the compiled graph is frozen: later builder calls do not change it", async () => {
    const builder = new StateGraph<CounterState>().addNode("a", () => ({ n: 1 })).addEdge(START, "a");
    const graph = builder.addEdge("a", END).compile();
    builder.addNode("b", () => ({ n: 2 })).addEdge("a", "b");
    expect((await graph.invoke(counterInput())).trace).toEqual(["a"]);
  });

  it("the compiled graph keeps its path map even if the caller's object changes", async () => {
    const paths: { go: typeof END } = { go: END };
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => "go", paths)
      .compile();
    (paths as { go: string }).go = "a";
    expect((await graph.invoke(counterInput())).trace).toEqual(["a"]);
  });

  it("compile() throws GraphValidationError listing every problem", () => {
    const builder = new StateGraph<CounterState>()
      .addNode("a", () => ({}))
      .addNode("orphan", () => ({}))
      .addEdge(START, "a");
    let error: unknown;
    try {
      builder.compile({ typeLevelTopology: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as GraphValidationError).problems.map((p) => `${p.code}:${p.node}`)).toEqual([
      "NO_OUTGOING_RULE:a",
      "NO_OUTGOING_RULE:orphan",
      "UNREACHABLE_NODE:orphan",
    ]);
  });

  it("a JavaScript caller's duplicate node name is reported by compile()", () => {
    const loose = new StateGraph<CounterState>() as unknown as {
      addNode(n: string, f: () => object): typeof loose;
      addEdge(a: string, b: string): typeof loose;
      compile(): unknown;
    };
    expect(() =>
      loose
        .addNode("a", () => ({}))
        .addNode("a", () => ({}))
        .addEdge(START, "a")
        .addEdge("a", END)
        .compile(),
    ).toThrow(/\[DUPLICATE_NODE\] Node "a" is declared more than once/);
  });

  it.each([
    ["a node that is not a function", (g: Loose) => g.addNode("a", 1), /addNode: the node "a" must be a function/],
    [
      "a router that is not a function",
      (g: Loose) => g.addConditionalEdges("a", "r", {}),
      /addConditionalEdges: the router for "a" must be a function/,
    ],
    [
      "a path map that is not an object",
      (g: Loose) => g.addConditionalEdges("a", () => "x", null),
      /the path map for "a" must be an object/,
    ],
  ])("rejects %s at once", (_label, call, message) => {
    expect(() => call(new StateGraph<CounterState>() as unknown as Loose)).toThrow(message);
  });

  it.each([
    [{ reducers: { log: "append" } }, /the reducer for "log" must be a function/],
    [{ fields: ["n", "n"] }, /fields lists "n" twice/],
    [{ fields: [""] }, /fields must be an array of non-empty field names/],
  ])("rejects bad options %j", (options, message) => {
    expect(() => new StateGraph<CounterState>(options as never)).toThrow(message);
  });
});

interface Loose {
  addNode(name: string, fn: unknown): Loose;
  addConditionalEdges(from: string, router: unknown, paths: unknown): Loose;
}
