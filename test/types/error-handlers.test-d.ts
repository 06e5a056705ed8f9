/**
 * `errorHandler` (LangGraph's): on `addNode` it reads the node's state and returns a partial state or a
 * `Command` whose goto names the node's `ends` only; on `compile` (the graph-wide default) its goto names
 * the graph's nodes; on `defineGraph`'s `policies` it goes to the node's declared `ends`.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, Command, defineGraph, END, START, stateGraph, type NodeFailure } from "../../src/index.js";

interface S {
  log: string[];
  n: number;
}

describe("errorHandler", () => {
  it("addNode: reads the state and { node, error }; returns an update or a Command to the node's ends", () => {
    stateGraph<S>()({ reducers: { log: append } })
      .addNode("a", () => ({ n: 1 }), {
        ends: ["r"],
        errorHandler: (s, failure) => {
          expectTypeOf(s).toEqualTypeOf<S>();
          expectTypeOf(failure).toEqualTypeOf<NodeFailure>();
          return new Command({ update: { log: [String(failure.error)] }, goto: "r" });
        },
      })
      .addNode("r", () => ({}))
      .addNode("b", () => ({}), { errorHandler: async () => ({ n: 0 }) })
      .addEdge(START, ["a", "b"])
      .addEdge("a", END)
      .addEdge("b", END)
      .addEdge("r", END)
      .compile();
  });

  it("addNode refuses a handler whose goto leaves the ends, or whose update is not the state's", () => {
    stateGraph<S>()({ reducers: { log: append } })
      // @ts-expect-error - "elsewhere" is not one of a's ends
      .addNode("a", () => ({}), { ends: ["r"], errorHandler: () => new Command({ goto: "elsewhere" }) });
    stateGraph<S>()({ reducers: { log: append } })
      // @ts-expect-error - n is a number
      .addNode("a", () => ({}), { errorHandler: () => ({ n: "one" }) });
  });

  it("compile: the default handler's goto names the graph's nodes", () => {
    const builder = stateGraph<S>()({ reducers: { log: append } })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END);
    builder.compile({ errorHandler: (_s, { node }) => new Command({ update: { log: [node] }, goto: "a" }) });
    // @ts-expect-error - "nope" is not a node of the graph
    builder.compile({ errorHandler: () => new Command({ goto: "nope" }) });
  });

  it("defineGraph: a policy's handler goes to the node's declared ends", () => {
    defineGraph<S>()({
      reducers: { log: append },
      nodes: { a: () => ({}), r: () => ({}) },
      edges: [
        [START, "a"],
        ["a", END],
        ["r", END],
      ],
      ends: { a: ["r"] },
      policies: { a: { errorHandler: () => new Command({ goto: "r" }) } },
    });
  });
});
