import { describe, expect, it } from "vitest";
import {
  append,
  compileGraph,
  END,
  GraphExecutionError,
  GraphValidationError,
  InvalidUpdateError,
  START,
  StateGraph,
} from "../../src/index.js";
import { counterInput, singleNodeGraph, type CounterState } from "../helpers/graphs.js";

class Box {
  constructor(readonly n: number) {}
}

describe("partial updates", () => {
  it.each([
    ["undefined", () => undefined],
    ["an empty object", () => ({})],
  ])("a node returning %s changes nothing", async (_label, node) => {
    const input = { ...counterInput(), n: 5, log: ["kept"] };
    const { state, steps } = await singleNodeGraph(node).invoke(input);
    expect(state).toEqual(input);
    expect(steps[0]?.update).toEqual({});
  });

  it.each([
    ["null", null, "null"],
    ["a string", "n=1", "the string"],
    ["an array", [{ n: 1 }], "an array"],
    ["a class instance", new Box(1), "Box"],
    ["a number", 3, "number 3"],
  ])("a node returning %s raises InvalidUpdateError", async (_label, output, described) => {
    const error = await singleNodeGraph(() => output)
      .invoke(counterInput())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "INVALID_UPDATE", node: "only", trace: [] });
    expect((error as Error).message).toContain(described);
    expect((error as Error).message).toMatch(/^invoke: node "only" returned/);
  });

  it("an update with symbol keys raises InvalidUpdateError", async () => {
    const error = await singleNodeGraph(() => ({ [Symbol("x")]: 1 }))
      .invoke(counterInput())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
  });

  it("an omitted key keeps its value, an explicit null replaces it", async () => {
    const input = { ...counterInput(), n: 7, note: "old" };
    const { state } = await singleNodeGraph(() => ({ note: null })).invoke(input);
    expect(state).toEqual({ ...input, note: null });
  });

  it("a field without a reducer is replaced whole, never deep-merged", async () => {
    const input = { ...counterInput(), nested: { items: [1, 2], extra: true } as CounterState["nested"] };
    const { state } = await singleNodeGraph(() => ({ nested: { items: [3] } })).invoke(input);
    expect(state.nested).toEqual({ items: [3] });
  });

  it("a field with a reducer is combined as reducer(current, update)", async () => {
    const { state } = await singleNodeGraph(() => ({ log: ["b"] })).invoke({ ...counterInput(), log: ["a"] });
    expect(state.log).toEqual(["a", "b"]);
  });

  it("a reducer field with no value yet stores the update as it is", async () => {
    const input: Partial<CounterState> = { n: 0 };
    const { state } = await singleNodeGraph(() => ({ log: ["first"] })).invoke(input as CounterState);
    expect(state.log).toEqual(["first"]);
  });

  it("reducers see deltas: returning the whole history to append duplicates it", async () => {
    const graph = new StateGraph<CounterState>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", (s) => ({ log: [...s.log, "b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const { state } = await graph.invoke(counterInput());
    expect(state.log).toEqual(["a", "a", "b"]);
  });

  it("a failed reducer commits no field of the update", async () => {
    const failing = (current: string[], update: string[]) => {
      if (update.includes("boom")) throw new Error("reducer exploded");
      return [...current, ...update];
    };
    const graph = new StateGraph<CounterState>({ reducers: { log: failing } })
      .addNode("a", () => ({ n: 1, log: ["a"] }))
      .addNode("b", () => ({ n: 2, note: "changed", log: ["boom"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const error = await graph.invoke(counterInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "REDUCER_FAILED", node: "b", trace: ["a"] });
    expect((error as GraphExecutionError).state).toEqual({ ...counterInput(), n: 1, log: ["a"] });
    expect((error as Error).message).toContain(`"log"`);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("with `fields` declared, an update naming an undeclared field is an InvalidUpdateError", async () => {
    const graph = new StateGraph<CounterState>({ fields: ["n", "log", "note", "nested"] })
      .addNode("a", (() => ({ n: 1, typo: 2 })) as () => Partial<CounterState>)
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await graph.invoke(counterInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as Error).message).toContain("typo");
    expect((error as GraphExecutionError).state).toEqual(counterInput());
  });

  it("without `fields`, any string key is accepted at run time", async () => {
    const { state } = await singleNodeGraph(() => ({ extra: 1 })).invoke(counterInput());
    expect(state).toMatchObject({ extra: 1 });
  });

  it("with `fields` declared, input naming an undeclared field is rejected before any node runs", async () => {
    let ran = false;
    const graph = new StateGraph<CounterState>({ fields: ["n", "log", "note", "nested"] })
      .addNode("a", () => {
        ran = true;
      })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await graph.invoke({ ...counterInput(), bogus: 1 } as CounterState).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_INPUT", trace: [] });
    expect(ran).toBe(false);
  });

  it.each([null, "state", [1], new Box(1)])("input %s that is not a plain object is rejected", async (input) => {
    const error = await singleNodeGraph(() => ({}))
      .invoke(input as unknown as CounterState)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_INPUT", node: START });
  });
});

describe("implementations", () => {
  it("an inherited member is not a node implementation", () => {
    expect(() =>
      compileGraph({
        spec: {
          nodes: ["constructor"],
          edges: [
            { from: START, to: "constructor" },
            { from: "constructor", to: END },
          ],
          routes: [],
          reducers: [],
        },
        nodes: {},
        routers: {},
        reducers: {},
      }),
    ).toThrow(GraphValidationError);
  });
});
