/**
 * A factory generic over the state (issue 35 §1, audit gap 6): `<T extends { … }>() => stateGraph<T>()…`.
 * The builder's checks read a state that is a type parameter through its constraint: a node's update,
 * its unknown keys and its values, the reducers, edges, path-map routes and compile()'s topology hold
 * inside the factory, and the factory's result is a graph of the state it is called with.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, END, START, StateGraph, stateGraph, type CompiledGraph } from "../../src/index.js";

interface Message {
  role: string;
  content: string;
}

/** The loop factory: any state with these two fields. */
function makeLoop<T extends { messages: Message[]; steps: number }>(limit: number) {
  return stateGraph<T>()({ reducers: { messages: append } })
    .addNode("model", (s) => ({ messages: [{ role: "ai", content: `step ${s.steps}` }], steps: s.steps + 1 }))
    .addNode("tools", () => ({ messages: [{ role: "tool", content: "ok" }] }))
    .addEdge(START, "model")
    .addConditionalEdges("model", (s) => (s.steps < limit ? "more" : "done"), { more: "tools", done: END })
    .addEdge("tools", "model")
    .compile();
}

/** A helper generic over the state and the builder, as the brief writes it. */
function addReview<T extends { draft: string; review?: string; status: "open" | "closed" }, N extends string, E, R extends string>(
  builder: StateGraph<T, N, E, R>,
) {
  return builder.addNode("review", (s) => ({ review: `ok: ${s.draft}`, status: "closed" }));
}

interface Chat {
  messages: Message[];
  steps: number;
  topic: string;
}

interface Doc {
  draft: string;
  review?: string;
  status: "open" | "closed";
  words: number;
}

describe("a factory generic over the state", () => {
  it("compiles, and is a graph of the state it is called with", () => {
    expectTypeOf(makeLoop<Chat>(3)).toEqualTypeOf<CompiledGraph<Chat, "model" | "tools">>();
  });

  it("a helper generic over the state and the builder keeps the checks at its call", () => {
    const graph = addReview(new StateGraph<Doc>().addNode("write", () => ({ draft: "x", words: 1 })))
      .addEdge(START, "write")
      .addEdge("write", "review")
      .addEdge("review", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Doc, "write" | "review">>();
    // @ts-expect-error - the helper declared "review"
    addReview(new StateGraph<Doc>()).addNode("review", () => ({}));
    // @ts-expect-error - "write" was never declared
    addReview(new StateGraph<Doc>()).addEdge("write", "review");
  });

  it("reads a node's update against the constraint: an unknown key, a value of another type, undefined", () => {
    <T extends { draft: string; count: number }>() => {
      const b = new StateGraph<T>();
      b.addNode("ok", (s) => ({ draft: `${s.draft}!`, count: s.count + 1 }));
      // @ts-expect-error - "drfat" is not a field of the constraint
      b.addNode("typo", (s) => ({ drfat: s.draft }));
      // @ts-expect-error - draft is a string
      b.addNode("wrong", () => ({ draft: 1 }));
      // @ts-expect-error - count is required, so not undefined
      b.addNode("undef", (s) => ({ count: s.count > 1 ? s.count : undefined }));
    };
  });

  it("keeps a field's literal type, and refuses a literal outside it", () => {
    <T extends { status: "open" | "closed" }>() => {
      new StateGraph<T>().addNode("close", () => ({ status: "closed" }));
      // @ts-expect-error - "finished" is not a status
      new StateGraph<T>().addNode("finish", () => ({ status: "finished" }));
    };
  });

  it("reads the reducers against the constraint", () => {
    <T extends { messages: Message[]; steps: number }>() => {
      stateGraph<T>()({ reducers: { messages: append } });
      // @ts-expect-error - "mesages" is not a field of the constraint
      stateGraph<T>()({ reducers: { mesages: append } });
    };
  });

  it("keeps the name, route and topology checks inside the factory", () => {
    <T extends { steps: number }>() => {
      const two = new StateGraph<T>().addNode("a", (s) => ({ steps: s.steps + 1 })).addNode("b", () => ({}));
      // @ts-expect-error - "c" is not a node
      two.addEdge("a", "c");
      // @ts-expect-error - the router can return "stop", which the path map lacks
      two.addConditionalEdges("a", (s) => (s.steps > 1 ? "go" : "stop"), { go: "b" });
      // @ts-expect-error - "b" is not reachable from START and has no outgoing edge
      two.addEdge(START, "a").addEdge("a", END).compile();
      two.addEdge(START, "a").addEdge("a", "b").addEdge("b", END).compile();
    };
  });
});
