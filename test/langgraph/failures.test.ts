/**
 * Failures on LangGraph.js surface as the mini engine's errors: same class, code, message, node, trace
 * and state. One documented exception: LangGraph runs a router inside its node's task, so a failing
 * router voids that node's update (the mini engine has committed it).
 */
import { describe, expect, it } from "vitest";
import {
  append,
  END,
  GraphExecutionError,
  InvalidUpdateError,
  START,
  StateGraph,
  type CompiledGraph,
  type ReducersFor,
} from "../../src/index.js";
import { runOnLangGraph, streamOnLangGraph } from "../../src/langgraph/index.js";
import { failure, outcome, settle } from "./_helpers.js";

interface S {
  n: number;
  log: string[];
  note: string | null;
}
const FIELDS = ["n", "log", "note"] as const;
const input = (): S => ({ n: 0, log: [], note: null });

/** START → first → second → END, with `second` given. */
function twoNodes(second: (s: S) => unknown, reducers: ReducersFor<S> = { log: append }): CompiledGraph<S> {
  return new StateGraph<S>({ reducers, fields: [...FIELDS] })
    .addNode("first", (s) => ({ n: s.n + 1, log: ["first"] }))
    .addNode("second", second as (s: S) => void)
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile();
}

async function bothEngines(graph: CompiledGraph<S>, state: unknown = input()) {
  return { mini: await settle(graph.invoke(state as S)), onLangGraph: await settle(runOnLangGraph(graph, state as S)) };
}

describe("the same failure on both engines", () => {
  it.each([
    [
      "a node that throws",
      () => {
        throw new Error("disk full");
      },
    ],
    ["an async node that rejects", async () => Promise.reject(new Error("timeout"))],
    ["a node returning an array", () => ["n"]],
    ["a node returning an undeclared key", () => ({ typo: 1 })],
  ])("%s", async (_, second) => {
    const { mini, onLangGraph } = await bothEngines(twoNodes(second));
    expect(mini.failed?.trace).toEqual(["first"]);
    expect(onLangGraph).toEqual(mini);
  });

  it("a router after START that throws is ROUTER_FAILED on both (LangGraph runs it before its stream returns)", async () => {
    const graph = new StateGraph<S>({ fields: [...FIELDS] })
      .addNode("first", () => ({ n: 1 }))
      .addConditionalEdges(
        START,
        (): "go" => {
          throw new Error("bad router");
        },
        { go: "first" },
      )
      .addEdge("first", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph);
    expect(mini.failed).toMatchObject({ name: "GraphExecutionError", code: "ROUTER_FAILED", node: START, trace: [] });
    expect(onLangGraph).toEqual(mini);
  });

  it("an invalid update is an InvalidUpdateError naming the field (LangGraph.js alone would drop it)", async () => {
    const error: unknown = await runOnLangGraph(
      twoNodes(() => ({ typo: 1 })),
      input(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as Error).message).toContain("typo");
  });

  it("a reducer that throws: the node's update is not committed", async () => {
    const failing: ReducersFor<S> = {
      log: (current, update) => {
        if (update.includes("bad")) throw new Error("no bad entries");
        return [...current, ...update];
      },
    };
    const { mini, onLangGraph } = await bothEngines(twoNodes(() => ({ note: "x", log: ["bad"] }), failing));
    expect(mini.failed).toMatchObject({ code: "REDUCER_FAILED", node: "second", trace: ["first"], state: { n: 1, note: null } });
    expect(onLangGraph).toEqual(mini);
  });

  it("bad input: not a plain object, or an undeclared field", async () => {
    for (const bad of [null, [], { ...input(), extra: true }]) {
      const { mini, onLangGraph } = await bothEngines(
        twoNodes(() => ({})),
        bad,
      );
      expect(mini.failed?.code).toBe("INVALID_INPUT");
      expect(onLangGraph).toEqual(mini);
    }
  });
});

describe("the same run on both engines", () => {
  it("a node that returns nothing: a step with update {} (LangGraph emits no values event for it)", async () => {
    const graph = new StateGraph<S>({ reducers: { log: append }, fields: [...FIELDS] })
      .addNode("quiet", () => undefined)
      .addNode("loud", () => ({ log: ["loud"] }))
      .addNode("quiet_again", () => ({}))
      .addEdge(START, "quiet")
      .addEdge("quiet", "loud")
      .addEdge("loud", "quiet_again")
      .addEdge("quiet_again", END)
      .compile();
    const mini = await graph.invoke(input());
    expect(outcome(await runOnLangGraph(graph, input()))).toEqual(outcome(mini));
    expect(mini.steps.map((s) => s.update)).toEqual([{}, { log: ["loud"] }, {}]);
  });

  it("a conditional edge from START, a loop, and async nodes: same steps, routes and state", async () => {
    const graph = new StateGraph<S>({ reducers: { log: append }, fields: [...FIELDS] })
      .addNode("inc", async (s) => ({ n: s.n + 1, log: [`inc ${s.n + 1}`] }))
      .addNode("done", () => ({ note: "done" }))
      .addConditionalEdges(START, (s): "count" | "skip" => (s.note === "skip" ? "skip" : "count"), { count: "inc", skip: "done" })
      .addConditionalEdges("inc", async (s): Promise<"again" | "stop"> => (s.n < 3 ? "again" : "stop"), { again: "inc", stop: "done" })
      .addEdge("done", END)
      .compile();
    for (const state of [input(), { ...input(), note: "skip" }]) {
      const mini = await graph.invoke(state);
      expect(outcome(await runOnLangGraph(graph, state))).toEqual(outcome(mini));
    }
    expect((await runOnLangGraph(graph, input())).routes.map((r) => `${r.from}:${r.key}`)).toEqual([
      "__start__:count",
      "inc:again",
      "inc:again",
      "inc:stop",
    ]);
  });

  it("concurrent runs of one graph keep their own trace and routes", async () => {
    const graph = twoNodes((s) => ({ note: `n=${s.n}` }));
    const results = await Promise.all([0, 10, 20].map((n) => runOnLangGraph(graph, { ...input(), n })));
    expect(results.map((r) => [r.trace, r.state.note])).toEqual([
      [["first", "second"], "n=1"],
      [["first", "second"], "n=11"],
      [["first", "second"], "n=21"],
    ]);
  });

  it("a node that mutates its input changes nothing on LangGraph.js either (it gets a copy)", async () => {
    const graph = twoNodes((s) => {
      s.log.push("sneaky");
      s.n = 99;
      return { note: "ok" };
    });
    const { state } = await runOnLangGraph(graph, input());
    expect(state).toEqual({ n: 1, log: ["first"], note: "ok" });
  });

  it("streamOnLangGraph yields the steps committed before a failure, then rejects", async () => {
    const seen: string[] = [];
    const run = async () => {
      for await (const step of streamOnLangGraph(
        twoNodes(() => ({ typo: 1 })),
        input(),
      ))
        seen.push(step.node);
    };
    await expect(run()).rejects.toBeInstanceOf(InvalidUpdateError);
    expect(seen).toEqual(["first"]);
  });

  it("an aborted signal stops the run with ABORTED", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user cancelled"));
    const error: unknown = await runOnLangGraph(
      twoNodes(() => ({})),
      input(),
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect((error as GraphExecutionError).code).toBe("ABORTED");
  });
});

describe("where LangGraph.js cannot match the mini engine exactly", () => {
  it("a router failure voids its node's update on LangGraph.js (the router runs inside the node's task)", async () => {
    const graph = new StateGraph<S>({ reducers: { log: append }, fields: [...FIELDS] })
      .addNode("first", (s) => ({ n: s.n + 1, log: ["first"] }))
      .addEdge(START, "first")
      .addConditionalEdges("first", (s): "done" => (s.n > 0 ? ("unknown" as "done") : "done"), { done: END })
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph);
    const same = { name: "GraphExecutionError", code: "UNKNOWN_ROUTE_KEY", node: "first" };
    expect(mini.failed).toMatchObject({ ...same, trace: ["first"], state: { n: 1, log: ["first"] } });
    expect(onLangGraph.failed).toMatchObject({ ...same, trace: [], state: input() });
    expect(onLangGraph.failed?.message).toBe(mini.failed?.message);
  });
});

describe("where LangGraph.js calls the reducers differently", () => {
  it("a router's fresh read merges its node's update once more: side-effect-free reducers see no difference", async () => {
    const calls: string[][] = [];
    const graph = new StateGraph<S>({ reducers: { log: (a, b) => (calls.push(b), [...a, ...b]) }, fields: [...FIELDS] })
      .addNode("first", () => ({ log: ["first"] }))
      .addNode("second", () => ({ log: ["second"] }))
      .addEdge(START, "first")
      .addConditionalEdges("first", (): "next" => "next", { next: "second" })
      .addEdge("second", END)
      .compile();
    const mini = await graph.invoke(input());
    const miniCalls = calls.splice(0);
    const onLangGraph = await runOnLangGraph(graph, input());
    expect(onLangGraph.state).toEqual(mini.state);
    expect(miniCalls).toEqual([["first"], ["second"]]);
    expect(calls).toEqual([["first"], ["first"], ["second"]]);
  });

  it("a reducer field's value shaped like LangGraph's Overwrite skips the reducer on LangGraph.js", async () => {
    const graph = twoNodes(() => ({ log: { __overwrite__: ["replaced"] } }));
    expect((await settle(graph.invoke(input()))).failed).toMatchObject({ code: "REDUCER_FAILED", node: "second" });
    expect((await runOnLangGraph(graph, input())).state.log).toEqual(["replaced"]);
  });
});

it("failure() keeps what the comparison needs", () => {
  expect(failure(new GraphExecutionError("NODE_FAILED", "m", { node: "x", trace: [], state: {} }))).toMatchObject({
    code: "NODE_FAILED",
    node: "x",
  });
});
