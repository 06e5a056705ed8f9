/**
 * Messages that say why (issue 18 §4): each mistake fails to compile, and the message it reads as names
 * the problem and its fix (asserted here on the message types; docs/typed-builder.md quotes what each
 * compiler prints, checked by test/docs/compile-errors.test.ts). Idiomatic code next to each still compiles.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { CheckedNodes } from "../../src/builder/define-types.js";
import type { Demand, NodeResultCheck } from "../../src/builder/messages.js";
import type { NodeCheck, PathMapKeys } from "../../src/builder/types.js";
import { append, Command, defineGraph, END, route, START, StateGraph, subgraph, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  events: string[];
  note: string | null;
}

const base = new StateGraph<S>({ reducers: { events: append } });
declare const body: string;

describe("a node that returns a key the state lacks", () => {
  it("names the node and the key, on every path of the result", () => {
    // @ts-expect-error - "typo" is not a field
    base.addNode("a", () => ({ count: 1, typo: true }));
    // @ts-expect-error - on one path only
    base.addNode("a", (s) => (s.count > 0 ? { count: 1 } : { typo: 1 }));
    // @ts-expect-error - awaited
    base.addNode("a", async () => ({ typo: 1 }));
    // @ts-expect-error - beside a Command on the other path
    base.addNode("a", (s) => (s.count > 0 ? new Command({ update: { count: 0 } }) : { typo: 1 }));
    expectTypeOf<NodeCheck<() => { count: number; typo: boolean }, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns "typo", which is not a field of the state; return only declared fields'>
    >();
    expectTypeOf<NodeCheck<() => { count: number } | { typo: number; tpyo: number }, "a", S>>().toEqualTypeOf<
      Demand<
        | 'addNode: node "a" returns "typo", which is not a field of the state; return only declared fields'
        | 'addNode: node "a" returns "tpyo", which is not a field of the state; return only declared fields'
      >
    >();
    expectTypeOf<NodeCheck<() => { count: number; 0: string }, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns "0", which is not a field of the state; return only declared fields'>
    >();
    expectTypeOf<NodeCheck<() => Promise<() => number>, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns a function; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
    expectTypeOf<NodeCheck<() => Promise<{ typo: number }>, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns "typo", which is not a field of the state; return only declared fields'>
    >();
  });

  it("accepts declared keys on every path, a Command, nothing and any", () => {
    expectTypeOf<NodeCheck<(s: S) => { count: number } | { events: string[] } | undefined, "a", S>>().toEqualTypeOf<unknown>();
    expectTypeOf<NodeCheck<() => Promise<{ note: null } | void>, "a", S>>().toEqualTypeOf<unknown>();
    expectTypeOf<NodeCheck<() => Command<undefined, S, never>, "a", S>>().toEqualTypeOf<unknown>();
    // biome-ignore lint/suspicious/noExplicitAny: the result of JSON.parse
    expectTypeOf<NodeCheck<() => any, "a", S>>().toEqualTypeOf<unknown>();
  });
});

describe("a node that returns a primitive or an array", () => {
  it("names the node and what it returns, on addNode", () => {
    // @ts-expect-error - a number is not an update
    base.addNode("a", () => 42);
    // @ts-expect-error - nor a string
    base.addNode("a", () => "x");
    // @ts-expect-error - nor an array
    base.addNode("a", () => [1]);
    // @ts-expect-error - nor, awaited, a boolean
    base.addNode("a", async () => true);
    // @ts-expect-error - nor null on one path
    base.addNode("a", (s) => (s.count > 0 ? null : { count: 1 }));
    expectTypeOf<NodeCheck<() => number, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns a number; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
    expectTypeOf<NodeCheck<() => Promise<string[]>, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" returns an array; a node returns a partial state (an object of the fields it writes, e.g. { items: [...] } for a list field), a Command, or nothing'>
    >();
    expectTypeOf<NodeCheck<(s: S) => "x" | { count: number }, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" can return a string; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
    expectTypeOf<NodeCheck<(s: S) => null | { count: number }, "a", S>>().toEqualTypeOf<
      Demand<'addNode: node "a" can return null; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
  });

  it("names the node on defineGraph", () => {
    const define = defineGraph<S>();
    // @ts-expect-error - a string is not an update
    define({ nodes: { a: () => "done" }, edges: [[START, "a"], ["a", END]] });
    // @ts-expect-error - nor an array
    define({ nodes: { a: async () => [1] }, edges: [[START, "a"], ["a", END]] });
    expectTypeOf<NodeResultCheck<"defineGraph", "a", string>>().toEqualTypeOf<
      Demand<'defineGraph: node "a" returns a string; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
    // @ts-expect-error - nor null, which has no keys (so no key that is not a field) but is not an update
    define({ nodes: { a: () => null }, edges: [[START, "a"], ["a", END]] });
    expectTypeOf<CheckedNodes<S, { a: () => null }>["a"]>().toMatchTypeOf<
      Demand<'defineGraph: node "a" returns null; a node returns a partial state (an object of the fields it writes), a Command, or nothing'>
    >();
    expectTypeOf<CheckedNodes<S, { a: () => { typo: 1 } }>["a"]>().toMatchTypeOf<
      Demand<'defineGraph: node "a" returns "typo", which is not a field of the state; return only declared fields'>
    >();
  });

  it("accepts updates, Commands, nothing, any and nodes that throw", () => {
    base
      .addNode("update", (s) => ({ count: s.count + 1 }))
      .addNode("maybe", (s) => (s.count > 0 ? undefined : { events: ["reset"] }))
      .addNode("async", async () => ({ note: null }))
      .addNode("command", () => new Command({ update: { count: 0 } }))
      .addNode("nothing", () => {})
      .addNode("parsed", () => JSON.parse(body))
      .addNode("throws", () => {
        throw new Error("not yet");
      });
    defineGraph<S>()({ nodes: { a: (s) => ({ count: s.count }), b: () => {} }, edges: [[START, "a"], ["a", "b"], ["b", END]] });
    expectTypeOf<NodeCheck<() => { count: number }, "a", S>>().toEqualTypeOf<unknown>();
    expectTypeOf<NodeCheck<() => unknown, "a", S>>().toEqualTypeOf<unknown>();
  });
});

describe("a route key misspelled on one side", () => {
  const two = base.addNode("a", () => ({})).addNode("b", () => ({}));

  it("names both keys and points at the router", () => {
    // @ts-expect-error - the router returns "stpo", the path map has "stop"
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "go" : "stpo"), { go: "b", stop: END });
    // @ts-expect-error - the same for route()
    route((s: S) => (s.count > 1 ? "go" : "stpo"), { go: "b", stop: END });
    expectTypeOf<PathMapKeys<{ go: "b"; stop: typeof END }, "go" | "stpo">>().toEqualTypeOf<
      Demand<'addConditionalEdges: the router can return "stpo", which the path map lacks; did the router mean "stop", a key of the path map it never returns? Fix the router\'s return, or add "stpo" to the path map'>
    >();
  });

  it("says which side lacks a key when only one does", () => {
    // @ts-expect-error - the router can return "small"
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), { big: "b" });
    // @ts-expect-error - the router never returns "huge"
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "big" : "small"), { big: "b", small: END, huge: "a" });
    expectTypeOf<PathMapKeys<{ big: "b" }, "big" | "small", "route">>().toEqualTypeOf<
      Demand<'route: the router can return "small", which the path map lacks; add it to the path map with its destination, or do not return it'>
    >();
    expectTypeOf<PathMapKeys<{ big: "b"; huge: "a" }, "big">>().toEqualTypeOf<
      Demand<'addConditionalEdges: the router never returns "huge"; remove the key from the path map, or return it from the router'>
    >();
  });

  it("accepts a path map with the router's keys, enum values and list routers", () => {
    enum Route {
      Go = "go",
      Stop = "stop",
    }
    two
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.count > 1 ? Route.Go : Route.Stop), { go: "b", stop: END })
      .addConditionalEdges("b", (s) => (s.count > 1 ? ["x", "y"] : "x"), { x: END, y: "a" })
      .compile();
    route((s: S) => (s.count > 1 ? "go" : "stop"), { go: "b", stop: END });
    expectTypeOf<PathMapKeys<{ go: "b"; stop: typeof END }, "go" | "stop">>().toEqualTypeOf<Demand<never>>();
  });
});

describe("a compiled graph of another state", () => {
  const child = new StateGraph<{ text: string }>().addNode("t", () => ({})).addEdge(START, "t").addEdge("t", END).compile();

  it("names the node and the fix", () => {
    // @ts-expect-error - the child's state is { text: string }, not S
    base.addNode("child", child);
    expectTypeOf<NodeCheck<typeof child, "child", S>>().toEqualTypeOf<
      Demand<'addNode: node "child" is a graph compiled for another state; map between the states with subgraph(graph, { input: (s) => childInput, output: (c) => update })'>
    >();
  });

  it("accepts a graph of the same state, and another state mapped with subgraph()", () => {
    const same = new StateGraph<S>().addNode("t", () => ({})).addEdge(START, "t").addEdge("t", END).compile();
    base
      .addNode("same", same)
      .addNode("mapped", subgraph(child, { input: (s) => ({ text: s.note ?? "" }), output: (c) => ({ note: c.text }) }));
    expectTypeOf<NodeCheck<typeof same, "same", S>>().toEqualTypeOf<unknown>();
    expectTypeOf<NodeCheck<CompiledGraph<S>, "same", S>>().toEqualTypeOf<unknown>();
  });
});
