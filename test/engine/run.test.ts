import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_STEPS,
  DEFAULT_RECURSION_LIMIT,
  END,
  GraphExecutionError,
  GraphLimitError,
  InvalidOptionError,
  START,
  StateGraph,
  append,
} from "../../src/index.js";
import { counterGraph, counterInput, singleNodeGraph, type CounterState } from "../helpers/graphs.js";

describe("invoke", () => {
  it("resolves with the final state, the trace and one detached step per node", async () => {
    const { state, trace, steps } = await counterGraph(2).invoke(counterInput());
    expect(trace).toEqual(["inc", "inc", "done"]);
    expect(state).toEqual({ n: 2, log: ["inc 1", "inc 2"], note: "finished", nested: { items: [] } });
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(steps.map((s) => s.node)).toEqual(trace);
    expect(steps[0]).toEqual({
      node: "inc",
      update: { n: 1, log: ["inc 1"] },
      state: { ...counterInput(), n: 1, log: ["inc 1"] },
      route: "again",
    });
    expect(steps[2]).not.toHaveProperty("route");
  });

  it("gives steps as an own enumerable property, replayed once on first read and assignable", async () => {
    const graph = counterGraph(2);
    const result = await graph.invoke(counterInput());
    expect(Object.keys(result)).toEqual(["state", "trace", "steps", "routes", "supersteps"]);
    expect(Reflect.ownKeys(result)).toEqual(Object.keys(result));
    const first = result.steps;
    expect(result.steps).toBe(first);
    expect({ ...result }.steps).toBe(first);
    Object.assign(result, { steps: [] });
    expect(result.steps).toEqual([]);
    // One accessor shared by every result: a getter made per result (closing over its run's updates) is
    // what V8 keeps in its old generation, which kept every run's updates alive through the young
    // collections after it (issue 34: that copying was the largest cost of a trivial step).
    const other = await graph.invoke(counterInput());
    expect(Object.getOwnPropertyDescriptor(other, "steps")?.get).toBe(Object.getOwnPropertyDescriptor(result, "steps")?.get);
    expect(other.steps.map((s) => s.node)).toEqual(other.trace);
  });

  it("records every conditional choice, START's included, for coverage", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addConditionalEdges(START, () => "first", { first: "a" })
      .addConditionalEdges("a", (s) => (s.n < 2 ? "again" : "stop"), { again: "a", stop: END })
      .compile();
    const { routes, steps } = await graph.invoke(counterInput());
    expect(routes).toEqual([
      { from: START, key: "first", to: "a" },
      { from: "a", key: "again", to: "a" },
      { from: "a", key: "stop", to: END },
    ]);
    expect(steps.map((s) => s.route)).toEqual(["again", "stop"]);
  });

  it("awaits async nodes and async routers", async () => {
    const graph = new StateGraph<CounterState>({ reducers: { log: append } })
      .addNode("slow", async (s) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { n: s.n + 1 };
      })
      .addEdge(START, "slow")
      .addConditionalEdges("slow", async (s) => (s.n < 2 ? "again" : "stop"), { again: "slow", stop: END })
      .compile();
    const { state, trace } = await graph.invoke(counterInput());
    expect(state.n).toBe(2);
    expect(trace).toEqual(["slow", "slow"]);
  });

  it("routes from START with a router", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("small", () => ({ note: "small" }))
      .addNode("big", () => ({ note: "big" }))
      .addConditionalEdges(START, (s) => (s.n > 10 ? "big" : "small"), { big: "big", small: "small" })
      .addEdge("small", END)
      .addEdge("big", END)
      .compile();
    expect((await graph.invoke({ ...counterInput(), n: 11 })).trace).toEqual(["big"]);
    expect((await graph.invoke(counterInput())).trace).toEqual(["small"]);
  });

  it("a router reads the state merged after its node", async () => {
    const seen: number[] = [];
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 41 }))
      .addEdge(START, "a")
      .addConditionalEdges(
        "a",
        (s) => {
          seen.push(s.n);
          return "out";
        },
        { out: END },
      )
      .compile();
    await graph.invoke(counterInput());
    expect(seen).toEqual([41]);
  });

  it("never throws synchronously", () => {
    const graph = counterGraph();
    expect(() => graph.invoke(null as unknown as CounterState, { maxSteps: 0 }).catch(() => undefined)).not.toThrow();
  });
});

describe("route keys", () => {
  it("a key missing from the path map is a GraphExecutionError raised after the node was recorded", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (() => "nowhere") as unknown as () => "out", { out: END })
      .compile();
    const error = await graph.invoke(counterInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "UNKNOWN_ROUTE_KEY", node: "a", trace: ["a"] });
    expect((error as GraphExecutionError).state.n).toBe(1);
    expect((error as Error).message).toContain(`"nowhere"`);
    expect((error as Error).message).toContain(`"out"`);
  });

  it("an inherited property name is not a route key", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (() => "toString") as unknown as () => "out", { out: END })
      .compile();
    await expect(graph.invoke(counterInput())).rejects.toMatchObject({ code: "UNKNOWN_ROUTE_KEY" });
  });
});

describe("maxSteps", () => {
  it.each([true, 0, -1, 1.2, Number.NaN, "3"])("rejects maxSteps %s with a clear error, as a rejected Promise", async (maxSteps) => {
    const pending = counterGraph().invoke(counterInput(), { maxSteps: maxSteps as number });
    await expect(pending).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(pending).rejects.toThrow(/maxSteps must be a positive integer/);
  });

  it("stops before the node that would exceed the bound, naming it", async () => {
    const error = await counterGraph(10)
      .invoke(counterInput(), { maxSteps: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "STEP_LIMIT", node: "inc", trace: ["inc", "inc", "inc"] });
    expect((error as GraphLimitError).state.n).toBe(3);
  });

  it("the router runs before the limit check, so the error names the next node", async () => {
    const error = await counterGraph(2)
      .invoke(counterInput(), { maxSteps: 2 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "STEP_LIMIT", node: "done", trace: ["inc", "inc"] });
  });

  it("a run of exactly maxSteps nodes that then reaches END completes", async () => {
    const { trace } = await counterGraph(2).invoke(counterInput(), { maxSteps: 3 });
    expect(trace).toEqual(["inc", "inc", "done"]);
  });

  it(`has no default bound: the superstep limit (${DEFAULT_RECURSION_LIMIT}) stops a loop with the defaults`, async () => {
    expect(DEFAULT_MAX_STEPS).toBe(Number.MAX_SAFE_INTEGER);
    const error = await counterGraph(1000)
      .invoke(counterInput())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "STEP_LIMIT" });
    expect((error as GraphLimitError).trace).toHaveLength(DEFAULT_RECURSION_LIMIT);
    expect((error as GraphLimitError).message).toContain("recursionLimit: 25");
  });

  it("a maxSteps above 25 lengthens a sequential run to exactly that many steps", async () => {
    const error = await counterGraph(1000)
      .invoke(counterInput(), { maxSteps: 40 })
      .catch((e: unknown) => e);
    expect((error as GraphLimitError).trace).toHaveLength(40);
    expect((error as GraphLimitError).message).toContain("maxSteps: 40");
  });
});

describe("errors keep the last good state and the trace", () => {
  it("a node that throws is a GraphExecutionError; no update is made up for it", async () => {
    const boom = new Error("node exploded");
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 1 }))
      .addNode("b", () => {
        throw boom;
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const error = (await graph.invoke(counterInput()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "b", trace: ["a"], cause: boom });
    expect(error.state).toEqual({ ...counterInput(), n: 1 });
    expect(error.message).toContain("node exploded");
  });

  it("an async node that rejects is a GraphExecutionError", async () => {
    const error = await singleNodeGraph(async () => Promise.reject(new Error("late")))
      .invoke(counterInput())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "only", trace: [] });
  });

  it("a router that throws is a GraphExecutionError", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 1 }))
      .addEdge(START, "a")
      .addConditionalEdges(
        "a",
        (): "out" => {
          throw new Error("cannot decide");
        },
        { out: END },
      )
      .compile();
    const error = (await graph.invoke(counterInput()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toMatchObject({ code: "ROUTER_FAILED", node: "a", trace: ["a"] });
    expect(error.state.n).toBe(1);
  });

  it("the error's state is detached from the run", async () => {
    const error = (await counterGraph(10)
      .invoke(counterInput(), { maxSteps: 1 })
      .catch((e: unknown) => e)) as GraphLimitError;
    (error.state.log as string[]).push("tampered");
    expect(error.state.log).toEqual(["inc 1", "tampered"]);
    const again = (await counterGraph(10)
      .invoke(counterInput(), { maxSteps: 1 })
      .catch((e: unknown) => e)) as GraphLimitError;
    expect(again.state.log).toEqual(["inc 1"]);
  });

  it("errors have explicit names", async () => {
    const limit = await counterGraph(10)
      .invoke(counterInput(), { maxSteps: 1 })
      .catch((e: unknown) => e);
    expect((limit as Error).name).toBe("GraphLimitError");
    const invalid = await singleNodeGraph(() => null)
      .invoke(counterInput())
      .catch((e: unknown) => e);
    expect((invalid as Error).name).toBe("InvalidUpdateError");
  });
});

describe("abort", () => {
  it("an aborted signal stops the run between steps, keeping the state", async () => {
    const controller = new AbortController();
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => {
        controller.abort(new Error("user cancelled"));
        return { n: 1 };
      })
      .addNode("b", () => ({ n: 2 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const error = (await graph.invoke(counterInput(), { signal: controller.signal }).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "ABORTED", node: "b", trace: ["a"] });
    expect(error.state.n).toBe(1);
    expect((error.cause as Error).message).toBe("user cancelled");
  });

  it("a signal aborted before the run starts runs no node", async () => {
    let ran = false;
    const graph = singleNodeGraph(() => {
      ran = true;
    });
    await expect(graph.invoke(counterInput(), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "ABORTED", trace: [] });
    expect(ran).toBe(false);
  });

  it("rejects a signal that is not an AbortSignal", async () => {
    await expect(counterGraph().invoke(counterInput(), { signal: {} as AbortSignal })).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

describe("stream", () => {
  it("yields the same steps invoke returns", async () => {
    const graph = counterGraph(2);
    const streamed = [];
    for await (const step of graph.stream(counterInput())) streamed.push(step);
    const { steps } = await graph.invoke(counterInput());
    expect(streamed).toEqual(steps);
  });

  it("each call is a new run: invoke after stream runs the graph again", async () => {
    let runs = 0;
    const graph = singleNodeGraph(() => {
      runs += 1;
    });
    for await (const _ of graph.stream(counterInput())) void _;
    await graph.invoke(counterInput());
    expect(runs).toBe(2);
  });

  it("a failing stream rejects with the same GraphExecutionError", async () => {
    const consume = async () => {
      for await (const _ of counterGraph(10).stream(counterInput(), { maxSteps: 2 })) void _;
    };
    await expect(consume()).rejects.toBeInstanceOf(GraphLimitError);
  });
});
