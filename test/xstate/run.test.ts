import { describe, expect, it } from "vitest";
import {
  append,
  compileGraph,
  defineReducer,
  END,
  GraphLimitError,
  InvalidOptionError,
  START,
  StateGraph,
  type CompiledGraph,
  type RunOptions,
} from "../../src/index.js";
import { runOnXState, streamOnXState } from "../../src/xstate/index.js";
import { counterGraph, counterInput, singleNodeGraph, type CounterState } from "../helpers/graphs.js";
import { outcomeOf } from "./_outcome.js";

const MODES = ["run", "step"] as const;
const delay = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));

/** START routes to one of two branches; an async node and an async router; a back-edge b → a. */
function branchyGraph() {
  return new StateGraph<CounterState>({ reducers: { log: append } })
    .addNode("a", async (s) => delay({ n: s.n + 1, log: [`a${s.n}`] }))
    .addNode("b", (s) => ({ log: [`b${s.n}`], note: s.note === null ? "seen" : `${s.note}!` }))
    .addNode("c", () => undefined)
    .addConditionalEdges(START, (s) => (s.n === 0 ? "start" : "skip"), { start: "a", skip: "c" })
    .addEdge("a", "b")
    .addConditionalEdges("b", async (s) => delay<"loop" | "out">(s.n < 3 ? "loop" : "out"), { loop: "a", out: "c" })
    .addEdge("c", END)
    .compile();
}

/** A node that throws, returns a non-update, or writes through a failing reducer; or a router that throws. */
function failingGraph(failure: "node" | "update" | "reducer" | "router") {
  const explode = defineReducer("explode", (): string[] => {
    throw new Error("reducer broke");
  });
  return new StateGraph<CounterState>({ reducers: { log: failure === "reducer" ? explode : append } })
    .addNode("first", () => ({ n: 1, log: ["first"] }))
    .addNode("second", () => {
      if (failure === "node") throw new Error("node broke");
      return (failure === "update" ? ["not", "an", "update"] : { n: 2 }) as Partial<CounterState>;
    })
    .addEdge(START, "first")
    .addConditionalEdges(
      "first",
      () => {
        if (failure === "router") throw new Error("router broke");
        return "next";
      },
      { next: "second" },
    )
    .addEdge("second", END)
    .compile();
}

const cases: [string, () => CompiledGraph<CounterState>, CounterState, RunOptions][] = [
  ["a self-loop (the counter)", () => counterGraph(3), counterInput(), {}],
  ["START routes, async nodes and routers, a back-edge", branchyGraph, counterInput(), {}],
  ["START routes the other way", branchyGraph, { ...counterInput(), n: 5 }, {}],
  ["a node that returns nothing", () => singleNodeGraph(() => undefined), counterInput(), {}],
  ["the step limit", () => counterGraph(10), counterInput(), { maxSteps: 4 }],
  ["the superstep limit, when lower", () => counterGraph(10), counterInput(), { maxSteps: 8, recursionLimit: 3 }],
  ["a node that throws", () => failingGraph("node"), counterInput(), {}],
  ["a node that returns an array", () => failingGraph("update"), counterInput(), {}],
  ["a reducer that throws", () => failingGraph("reducer"), counterInput(), {}],
  ["a router that throws", () => failingGraph("router"), counterInput(), {}],
  ["an input that is not a plain object", () => counterGraph(1), [] as unknown as CounterState, {}],
  ["an aborted run", () => counterGraph(1), counterInput(), { signal: AbortSignal.abort("stop") }],
];

describe("runOnXState: the mini engine's results on an XState actor", () => {
  for (const mode of MODES) {
    it.each(cases)(`${mode} mode: same state, trace, routes, steps or error for %s`, async (_name, graph, input, options) => {
      const onMini = await outcomeOf(() => graph().invoke(input, options));
      const onXState = await outcomeOf(() => runOnXState(graph(), input, { ...options, mode }));
      expect(onXState).toStrictEqual(onMini);
    });
  }

  it("fails with the mini engine's error messages, word for word", async () => {
    for (const [graph, options] of [
      [counterGraph(10), { maxSteps: 2 }],
      [counterGraph(10), { maxSteps: 8, recursionLimit: 3 }],
      [failingGraph("router"), {}],
      [failingGraph("reducer"), {}],
      [counterGraph(1), { maxSteps: 0 }],
    ] as const) {
      const onMini = await graph.invoke(counterInput(), options).catch((e: unknown) => e);
      const onXState = await runOnXState(graph, counterInput(), options).catch((e: unknown) => e);
      expect(onXState).toBeInstanceOf((onMini as Error).constructor);
      expect((onXState as Error).message).toBe((onMini as Error).message);
    }
  });

  it("names the node not started in a GraphLimitError", async () => {
    const error = await runOnXState(counterGraph(10), counterInput(), { maxSteps: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ node: "inc", trace: ["inc", "inc"] });
  });

  it("stops before the next node once the signal aborts mid-run", async () => {
    const controller = new AbortController();
    const graph = new StateGraph<CounterState>()
      .addNode("a", (s) => (controller.abort(), { n: s.n + 1 }))
      .addNode("b", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    await expect(runOnXState(graph, counterInput(), { signal: controller.signal })).rejects.toMatchObject({
      code: "ABORTED",
      node: "b",
      trace: ["a"],
      state: { n: 1 },
    });
  });

  it("rejects bad options with InvalidOptionError, never synchronously", async () => {
    const pending = runOnXState(counterGraph(1), counterInput(), { maxSteps: 0 });
    await expect(pending).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(pending).rejects.toThrow(/^invoke: maxSteps must be a positive integer/);
  });

  it("keeps the failing node's path through a subgraph", async () => {
    const child = new StateGraph<CounterState>()
      .addNode("inner", () => {
        throw new Error("inner broke");
      })
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    const parent = compileGraph<CounterState>({
      spec: {
        nodes: ["outer"],
        edges: [
          { from: START, to: "outer" },
          { from: "outer", to: END },
        ],
        routes: [],
        reducers: [],
      },
      nodes: { outer: (state: CounterState) => child.invoke(state).then(() => ({})) },
      routers: {},
      reducers: {},
    });
    const onMini = await outcomeOf(() => parent.invoke(counterInput()));
    const onXState = await outcomeOf(() => runOnXState(parent, counterInput()));
    expect(onXState).toStrictEqual(onMini);
  });
});

describe("streamOnXState", () => {
  it("yields each step as it completes, as graph.stream does", async () => {
    const fromMini = [];
    for await (const step of branchyGraph().stream(counterInput())) fromMini.push(step);
    for (const mode of MODES) {
      const fromXState = [];
      for await (const step of streamOnXState(branchyGraph(), counterInput(), { mode })) fromXState.push(step);
      expect(fromXState).toStrictEqual(JSON.parse(JSON.stringify(fromMini)));
    }
  });

  it("in step mode, runs the next node only when the consumer asks for the next step", async () => {
    const ran: string[] = [];
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => (ran.push("a"), {}))
      .addNode("b", () => (ran.push("b"), {}))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    for await (const step of streamOnXState(graph, counterInput(), { mode: "step" })) {
      expect(ran).toEqual([step.node]);
      break;
    }
    expect(ran).toEqual(["a"]);
  });
});

describe("streamOnXState yields each step the machine records", () => {
  it.each(["nodes", "supersteps"] as const)("one step per node of the trace (layout %s)", async (layout) => {
    const graph = counterGraph();
    const steps: string[] = [];
    for await (const step of streamOnXState(graph, counterInput(), { layout })) steps.push(step.node);
    const { trace } = await graph.invoke(counterInput());
    expect(trace.length).toBeGreaterThan(1);
    expect(steps).toEqual(trace);
  });
});
