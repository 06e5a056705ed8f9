/**
 * A state field named after an Object.prototype member is a field like any other: every reducer sees
 * only the state's own value (never the inherited function), on every engine that runs it.
 */
import { describe, expect, it } from "vitest";
import {
  append,
  defineReducer,
  END,
  mergeById,
  replace,
  START,
  StateGraph,
  sum,
  union,
  type AnyReducer,
  type CompiledGraph,
} from "../../src/index.js";
import { runOnXState } from "../../src/xstate/index.js";

const names = ["toString", "constructor", "valueOf", "hasOwnProperty"] as const;

const custom = defineReducer("concat", (current: string, update: string) => `${current}${update}`);

/** Each reducer, the two updates two nodes write, and the value they merge to. */
const reducers: readonly (readonly [string, AnyReducer, unknown, unknown, unknown])[] = [
  ["append", append, ["a"], ["b"], ["a", "b"]],
  ["sum", sum, 2, 3, 5],
  ["union", union, ["a", "b"], ["b", "c"], ["a", "b", "c"]],
  ["mergeById", mergeById, [{ id: 1, v: "a" }], [{ id: 1, v: "b" }], [{ id: 1, v: "b" }]],
  ["replace", replace, "first", "second", "second"],
  ["a user reducer", custom, "x", "y", "xy"],
];

/** first writes `first`, then second writes `second`, both into `field`. */
function twoWrites(field: string, reducer: AnyReducer, first: unknown, second: unknown): CompiledGraph<Record<string, unknown>> {
  const update = (value: unknown) => () =>
    Object.defineProperty({}, field, { value, enumerable: true, writable: true, configurable: true });
  return new StateGraph<Record<string, unknown>>({ reducers: Object.defineProperty({}, field, { value: reducer, enumerable: true }) })
    .addNode("first", update(first))
    .addNode("second", update(second))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile() as CompiledGraph<Record<string, unknown>>;
}

const engines = [
  ["mini engine", (graph: CompiledGraph<Record<string, unknown>>) => graph.invoke({})],
  ["XState", (graph: CompiledGraph<Record<string, unknown>>) => runOnXState(graph, {})],
] as const;

describe.each(engines)("a field named after an Object.prototype member, on the %s", (_engine, run) => {
  describe.each(names)("%s", (field) => {
    it.each(reducers)("with %s merges only the state's own values", async (_name, reducer, first, second, merged) => {
      // The first write finds no own value, so it is stored as it is; the second goes through the reducer.
      const { state } = await run(twoWrites(field, reducer, first, second));
      expect(Object.hasOwn(state, field)).toBe(true);
      expect(state[field]).toEqual(merged);
      expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    });
  });
});

describe("the mini engine and values the copy does not isolate", () => {
  it("runs a graph whose state holds a client object and a compiled graph; they reach the final state as they were", async () => {
    class Client {
      calls = 0;
      ask(question: string): string {
        this.calls += 1;
        return `answer to ${question}`;
      }
    }
    const client = new Client();
    const inner = new StateGraph<{ n: number }>()
      .addNode("x", () => ({}))
      .addEdge(START, "x")
      .addEdge("x", END)
      .compile();
    type S = { client: Client; tool: typeof inner; answer?: string; handlers: Map<string, () => number> };
    const handlers = new Map([["one", () => 1]]);
    const graph = new StateGraph<S>()
      .addNode("ask", (s) => ({ answer: s.client.ask("why") }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const { state } = await graph.invoke({ client, tool: inner, handlers });
    expect(state.client).toBe(client);
    expect(state.tool).toBe(inner);
    expect(state.handlers).toBe(handlers);
    expect(state.answer).toBe("answer to why");
    expect(client.calls).toBe(1);
  });

  it("deep-copies a Date and a Map of data: a node that mutates its copy changes nothing else", async () => {
    type S = { when: Date; counts: Map<string, number> };
    const input = { when: new Date(0), counts: new Map([["a", 1]]) };
    const graph = new StateGraph<S>()
      .addNode("mutate", (s) => {
        s.when.setTime(99);
        s.counts.set("a", 2);
        return {};
      })
      .addEdge(START, "mutate")
      .addEdge("mutate", END)
      .compile();
    const { state } = await graph.invoke(input);
    expect(state.when.getTime()).toBe(0);
    expect(state.counts.get("a")).toBe(1);
    expect(input.counts.get("a")).toBe(1);
  });

  it("an async reducer is REDUCER_FAILED, naming the field, and commits nothing", async () => {
    const later = async (current: number, update: number) => current + update;
    const graph = new StateGraph<{ n: number }>({ reducers: { n: later as never } })
      .addNode("a", () => ({ n: 1 }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await graph.invoke({ n: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "REDUCER_FAILED", node: "a", state: { n: 1 }, trace: [] });
    expect((error as Error).message).toMatch(/^invoke: the reducer for "n" returned a Promise; a reducer is synchronous/);
  });

  it.each<[string, () => Record<string, unknown>]>([
    [
      "a cycle",
      () => {
        const input: Record<string, unknown> = { n: 1 };
        input["self"] = { back: input };
        return input;
      },
    ],
    [
      "nesting 100,000 levels deep",
      () => {
        let deep: Record<string, unknown> = {};
        for (let i = 0; i < 100_000; i++) deep = { a: deep };
        return { n: 1, deep };
      },
    ],
  ])("an input with %s is INVALID_INPUT naming the path, never a stack overflow", async (_label, make) => {
    const graph = new StateGraph<Record<string, unknown>>()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await graph.invoke(make()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_INPUT", node: START });
    expect((error as Error).message).toMatch(
      /^invoke: the input cannot be used: input\.(self\.back contains a cycle|deep[.a…]+ nests deeper)/,
    );
    const onXState = await runOnXState(graph, make()).catch((e: unknown) => e);
    expect(onXState).toMatchObject({ code: "INVALID_INPUT" });
  });

  it("an update with a cycle is UNCOPYABLE_UPDATE, keeping the last good state and trace", async () => {
    const graph = new StateGraph<Record<string, unknown>>()
      .addNode("a", () => ({ n: 2 }))
      .addNode("b", () => {
        const loop: Record<string, unknown> = {};
        loop["me"] = loop;
        return { loop };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const error = await graph.invoke({ n: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNCOPYABLE_UPDATE", node: "b", state: { n: 2 }, trace: ["a"] });
    expect((error as Error).message).toMatch(/^invoke: node "b" returned an update that cannot be kept: update\.loop\.me contains a cycle/);
  });

  it("an input with symbol keys is INVALID_INPUT (the copy could not keep them)", async () => {
    const graph = new StateGraph<Record<string, unknown>>()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    await expect(graph.invoke({ [Symbol("s")]: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("a router returning a BigInt is UNKNOWN_ROUTE_KEY, quoting it", async () => {
    const graph = new StateGraph<{ n: number }>()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (() => 5n) as unknown as () => "done", { done: END })
      .compile();
    const error = await graph.invoke({ n: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNKNOWN_ROUTE_KEY" });
    expect((error as Error).message).toMatch(/returned 5n, which is not a key of its path map \("done"\)/);
  });
});
