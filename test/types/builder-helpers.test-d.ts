/**
 * Helpers over the builder (issue 18 §1): a function generic over the builder's type parameters adds
 * nodes (and their edges) to any builder of the state, and its result keeps every check where the
 * helper is called; a helper typed `StateGraph<S, any, any, any>` compiles any builder of the state.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  events: string[];
}

/** Adds a node to any builder of `S`: `N`, `E`, `R` are the builder's names, edges and sources with a rule. */
const withLogger = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
  builder.addNode("logger", (s) => ({ events: [`count ${s.count}`] }));

/** Adds two nodes and the edge between them: the helper's own sources are checked like any others. */
const withAudit = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
  builder
    .addNode("audit", () => ({ events: ["audit"] }))
    .addNode("archive", () => ({}))
    .addEdge("audit", "archive");

const base = new StateGraph<S>({ reducers: { events: append } }).addNode("a", (s) => ({ count: s.count + 1 }));

describe("a helper generic over the builder", () => {
  it("adds a node mid-chain; the routes and compile() after it see the new node", () => {
    const graph = withLogger(base)
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.count > 1 ? "log" : "done"), { log: "logger", done: END })
      .addEdge("logger", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "a" | "logger">>();
    withAudit(withLogger(base))
      .addEdge(START, "a")
      .addEdge("a", ["logger", "audit"])
      .addEdge("logger", END)
      .addEdge("archive", END)
      .compile();
  });

  it("works on a builder with nothing declared yet, and on one made without options", () => {
    withLogger(new StateGraph<S>()).addEdge(START, "logger").addEdge("logger", END).compile();
    withLogger(new StateGraph<S>({ reducers: { events: append } }))
      .addEdge(START, "logger")
      .addEdge("logger", END)
      .compile();
  });

  it("keeps the name checks after the helper", () => {
    // @ts-expect-error - "loggr" is not a declared node (a typo after the helper)
    withLogger(base).addEdge("a", "loggr");
    // @ts-expect-error - the helper declared "logger"
    withLogger(base).addNode("logger", () => ({}));
    // @ts-expect-error - the builder declared "a" before the helper
    withLogger(base).addNode("a", () => ({}));
    // @ts-expect-error - the helper gave "audit" its rule
    withAudit(base).addEdge("audit", END);
  });

  it("keeps the topology check after the helper", () => {
    // @ts-expect-error - "logger" has no outgoing rule
    withLogger(base).addEdge(START, "a").addEdge("a", "logger").compile();
  });
});

describe("the builder's records through a helper", () => {
  const writers = new StateGraph<S>().addNode("plan", () => ({})).addNode("a", (s) => ({ count: s.count + 1 }));

  it("keeps the parallel-write check through a helper generic over all six parameters", () => {
    const recount = <N extends string, E, R extends string, I extends object, W>(builder: StateGraph<S, N, E, R, I, W>) =>
      builder.addNode("recount", () => ({ count: 0 }));
    // @ts-expect-error - "a" and "recount" both write count, which has no reducer
    recount(writers).addEdge("plan", ["a", "recount"]);
  });

  it("leaves it to run time after a helper over N, E, R, which resets the writes record", () => {
    const recount = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
      builder.addNode("recount", () => ({ count: 0 }));
    recount(writers).addEdge("plan", ["a", "recount"]);
  });
});

describe("a helper typed StateGraph<S, any, any, any>", () => {
  it("compiles any wired builder of the state", () => {
    // biome-ignore lint/suspicious/noExplicitAny: `any` is how a helper opts out of the builder's type parameters
    const compileAll = (g: StateGraph<S, any, any, any>) => g.compile();
    const wired = withLogger(base).addEdge(START, "a").addEdge("a", "logger").addEdge("logger", END);
    expectTypeOf(compileAll(wired)).toEqualTypeOf<CompiledGraph<S>>();
  });
});
