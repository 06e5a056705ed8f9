/**
 * The node context on every engine: the signal (the run's abort, a sibling's failure), custom events
 * written with `context.writer`, where a node runs (node, superstep, attempt), maxConcurrency and the
 * defaults that let a map-reduce of a thousand Sends finish. Graphs are built with `compileGraph`, so
 * the tests read the runtime contract without the builder's types.
 */
import { describe, expect, it } from "vitest";
import {
  append,
  compileGraph,
  END,
  GraphExecutionError,
  Send,
  START,
  type CompiledGraph,
  type CustomEvent,
  type NodeContext,
  type RouterContext,
} from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { runOnXState } from "../../src/xstate/index.js";

type S = { log: string[] };

/** START → a, b, c (a fan-out) → END; `log` appends. */
function fanOut(nodes: Record<"a" | "b" | "c", (s: S, context: NodeContext) => unknown>): CompiledGraph<S> {
  return compileGraph<S>({
    spec: {
      nodes: ["a", "b", "c"],
      edges: [],
      fanOuts: [{ from: START, to: ["a", "b", "c"] }],
      joins: [{ from: ["a", "b", "c"], to: END }],
      routes: [],
      reducers: [{ field: "log", reducer: "append" }],
      fields: ["log"],
    },
    nodes,
    routers: {},
    reducers: { log: append },
  });
}

/** START → one → two → END. */
function chain(
  one: (s: S, context: NodeContext) => unknown,
  two: (s: S, context: NodeContext) => unknown = () => ({ log: ["two"] }),
): CompiledGraph<S> {
  return compileGraph<S>({
    spec: {
      nodes: ["one", "two"],
      edges: [
        { from: START, to: "one" },
        { from: "one", to: "two" },
        { from: "two", to: END },
      ],
      routes: [],
      reducers: [{ field: "log", reducer: "append" }],
      fields: ["log"],
    },
    nodes: { one, two },
    routers: {},
    reducers: { log: append },
  });
}

const never = new Promise<never>(() => undefined);

type Engine = "mini" | "xstate" | "langgraph";
const ENGINES: readonly Engine[] = ["mini", "xstate", "langgraph"];

/** Runs on an engine and returns its result or error, with the custom events it delivered. */
async function run(engine: Engine, graph: CompiledGraph<S>, options: { signal?: AbortSignal } = {}) {
  const events: CustomEvent[] = [];
  const onCustomEvent = (event: CustomEvent): void => void events.push(event);
  try {
    if (engine === "mini") {
      let state: S | undefined;
      for await (const chunk of graph.stream({ log: [] }, { ...options, streamMode: ["custom", "values"] })) {
        if (chunk[0] === "custom") events.push(chunk[1]);
        else if (chunk[0] === "values") state = chunk[1].state;
      }
      return { state, events };
    }
    const result =
      engine === "xstate"
        ? await runOnXState(graph, { log: [] }, { ...options, onCustomEvent, layout: "supersteps" })
        : await runOnLangGraph(graph, { log: [] }, { ...options, onCustomEvent });
    return { state: result.state, events };
  } catch (error) {
    if (!(error instanceof GraphExecutionError)) throw error;
    return { error: { code: error.code, node: error.node, trace: [...error.trace], state: error.state }, events };
  }
}

describe.each(ENGINES)("the node context on the %s engine", (engine) => {
  it("a node that never settles: the run ends with ABORTED once the signal aborts, keeping the last committed state", async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const graph = chain(
      () => ({ log: ["one"] }),
      (_s, { signal }) => {
        signal.addEventListener("abort", () => (sawAbort = true));
        setTimeout(() => controller.abort(new Error("user cancelled")), 1);
        return never;
      },
    );
    const outcome = await run(engine, graph, { signal: controller.signal });
    expect(outcome.error).toMatchObject({ code: "ABORTED", node: "two", trace: ["one"], state: { log: ["one"] } });
    expect(sawAbort).toBe(true);
  });

  it("a failing node aborts its siblings' signals, and the failure reported is the one that failed on its own", async () => {
    const aborted: string[] = [];
    const waitForAbort =
      (name: string) =>
      (_s: S, { signal }: NodeContext) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            aborted.push(name);
            reject(new Error(`${name} cancelled`));
          }),
        );
    // "a" is first in declaration order but only stops because it was cancelled: "b" is reported.
    const graph = fanOut({
      a: waitForAbort("a"),
      b: async () => {
        await Promise.resolve();
        throw new Error("b broke");
      },
      c: waitForAbort("c"),
    });
    const outcome = await run(engine, graph);
    expect(outcome.error).toMatchObject({ code: "NODE_FAILED", node: "b", trace: [] });
    expect(aborted.sort()).toEqual(["a", "c"]);
  });

  it("custom events arrive in the order written, from every node of a superstep", async () => {
    const graph = fanOut({
      a: (_s, { writer }) => {
        writer({ step: "a1" });
        writer({ step: "a2" });
        return { log: ["a"] };
      },
      b: async (_s, { writer }) => {
        await Promise.resolve();
        writer({ step: "b1" });
        return { log: ["b"] };
      },
      c: () => ({ log: ["c"] }),
    });
    const outcome = await run(engine, graph);
    expect(outcome.state).toEqual({ log: ["a", "b", "c"] });
    expect(outcome.events).toEqual([
      { node: "a", event: { step: "a1" } },
      { node: "a", event: { step: "a2" } },
      { node: "b", event: { step: "b1" } },
    ]);
  });

  it("tells a node where it runs: its name, its superstep, its attempt", async () => {
    const seen: string[] = [];
    const record = (_s: S, context: NodeContext) => {
      seen.push(`${context.node}@${context.superstep}#${context.attempt}:${String(context.threadId)}`);
      return {};
    };
    await run(engine, chain(record, record));
    expect(seen).toEqual(["one@1#1:undefined", "two@2#1:undefined"]);
  });
});

describe.each(ENGINES)("the limits of map-reduce on the %s engine", (engine) => {
  const invoke = (graph: CompiledGraph<S>, options: { maxConcurrency?: number } = {}) =>
    engine === "mini"
      ? graph.invoke({ log: [] }, options)
      : engine === "xstate"
        ? runOnXState(graph, { log: [] }, { ...options, layout: "supersteps" })
        : runOnLangGraph(graph, { log: [] }, options);

  it("maxConcurrency bounds how many nodes of a superstep run at once; merge order stays declaration order", async () => {
    let running = 0;
    let most = 0;
    const node = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, name === "a" ? 3 : 1));
      running -= 1;
      return { log: [name] };
    };
    const { state } = await invoke(fanOut({ a: node("a"), b: node("b"), c: node("c") }), { maxConcurrency: 2 });
    expect(most).toBe(2);
    expect(state.log).toEqual(["a", "b", "c"]);
  });

  it("a map-reduce of 1,000 Sends finishes with the default options", async () => {
    const graph = compileGraph<S>({
      spec: {
        nodes: ["each"],
        edges: [{ from: "each", to: END }],
        routes: [{ from: START, router: "fan", paths: { each: "each" }, sends: true }],
        reducers: [{ field: "log", reducer: "append" }],
        fields: ["log"],
      },
      nodes: { each: (input: { i: number }) => ({ log: [String(input.i)] }) },
      routers: { [START]: () => Array.from({ length: 1000 }, (_, i) => new Send("each", { i })) },
      reducers: { log: append },
    });
    const { state, supersteps } = await invoke(graph);
    expect(state.log).toHaveLength(1000);
    expect(state.log[999]).toBe("999");
    expect(supersteps).toBe(1);
  }, 60_000);
});

describe("the node context on the mini engine", () => {
  it("a router receives its source, the superstep that just committed and the run's signal", async () => {
    const seen: string[] = [];
    const graph = compileGraph<S>({
      spec: { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", router: "r", paths: { done: END } }], reducers: [] },
      nodes: { a: () => ({}) },
      routers: {
        a: (_s: S, context: RouterContext) => {
          seen.push(`${context.node}@${context.superstep}:${context.signal.aborted}`);
          return "done";
        },
      },
      reducers: {},
    });
    await graph.invoke({ log: [] });
    expect(seen).toEqual(["a@1:false"]);
  });

  it("a pending async router ends with ABORTED once the signal aborts", async () => {
    const controller = new AbortController();
    const graph = compileGraph<S>({
      spec: { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", router: "r", paths: { done: END } }], reducers: [] },
      nodes: { a: () => ({ log: ["a"] }) },
      routers: {
        a: () => {
          setTimeout(() => controller.abort(), 1);
          return never;
        },
      },
      reducers: {},
    });
    const error = await graph.invoke({ log: [] }, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ABORTED", node: "a", trace: ["a"] });
  });

  it("a threaded run tells its nodes the thread", async () => {
    const { MemoryCheckpointer } = await import("../../src/persistence/index.js");
    const seen: (string | undefined)[] = [];
    const graph = chain((_s, { threadId }) => (seen.push(threadId), {}));
    await graph.invoke({ log: [] }, { threadId: "t-1", checkpointer: new MemoryCheckpointer() });
    expect(seen).toEqual(["t-1"]);
  });

  it("invoke ignores custom events", async () => {
    const graph = chain((_s, { writer }) => (writer("ignored"), { log: ["one"] }));
    expect((await graph.invoke({ log: [] })).state).toEqual({ log: ["one", "two"] });
  });

  it("custom events come before the updates of their superstep, in one stream", async () => {
    const graph = chain((_s, { writer }) => (writer("hello"), { log: ["one"] }));
    const chunks: string[] = [];
    for await (const [mode, payload] of graph.stream({ log: [] }, { streamMode: ["updates", "custom"] })) {
      chunks.push(mode === "custom" ? `custom:${String((payload as CustomEvent).event)}` : `updates:${(payload as { node: string }).node}`);
    }
    expect(chunks).toEqual(["custom:hello", "updates:one", "updates:two"]);
  });

  it("maxConcurrency bounds how many nodes of a superstep run at once; merge order stays declaration order", async () => {
    let running = 0;
    let most = 0;
    const node = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, name === "a" ? 3 : 1));
      running -= 1;
      return { log: [name] };
    };
    const graph = fanOut({ a: node("a"), b: node("b"), c: node("c") });
    const { state } = await graph.invoke({ log: [] }, { maxConcurrency: 2 });
    expect(most).toBe(2);
    expect(state.log).toEqual(["a", "b", "c"]);
    expect((await graph.invoke({ log: [] })).state.log).toEqual(["a", "b", "c"]);
    await expect(graph.invoke({ log: [] }, { maxConcurrency: 0 })).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });

  it("a map-reduce of 1,000 Sends finishes with the default options", async () => {
    const graph = compileGraph<S>({
      spec: {
        nodes: ["each"],
        edges: [{ from: "each", to: END }],
        routes: [{ from: START, router: "fan", paths: { each: "each" }, sends: true }],
        reducers: [{ field: "log", reducer: "append" }],
      },
      nodes: { each: (input: { i: number }) => ({ log: [String(input.i)] }) },
      routers: { [START]: () => Array.from({ length: 1000 }, (_, i) => new Send("each", { i })) },
      reducers: { log: append },
    });
    const { state, supersteps, trace } = await graph.invoke({ log: [] });
    expect(state.log).toHaveLength(1000);
    expect(state.log[999]).toBe("999");
    expect(trace).toHaveLength(1000);
    expect(supersteps).toBe(1);
  });
});
