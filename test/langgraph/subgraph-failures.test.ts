/**
 * A subgraph's child that reaches its step bound or fails, in a threaded run, on LangGraph.js and on
 * the mini engine. On both the child runs as a run of its own under its parent's thread: its bound is
 * checked before each of its supersteps (counted since the child's START, across resumes), and its
 * failure reaches the caller as the mini engine's error with the child's path (`sub/c2`), code and
 * class. `null` then continues the thread: the child goes on from its own checkpoint on both (the
 * nodes count their runs), or stops again at the same bound without running anything.
 */
import { describe, expect, it } from "vitest";
import { GraphRecursionError, MemorySaver } from "@langchain/langgraph";
import { append, Command, END, GraphExecutionError, GraphLimitError, interrupt, START, StateGraph, subgraph } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { counting, onBothEngines, withoutNs } from "./_helpers.js";

interface Flow {
  log: string[];
  n: number;
}

const FLOW = { reducers: { log: append }, fields: ["log", "n"] } as const;

/** START → before → sub → after → END, where sub's child is START → c1 → c2 → (c1 while n < 10) → END. */
function looping(limits: { maxSteps?: number; recursionLimit?: number }) {
  return () => {
    const runs: string[] = [];
    const counted = counting(runs);
    const child = new StateGraph<Flow>(FLOW)
      .addNode(
        "c1",
        counted("c1", () => ({ log: ["c1"] })),
      )
      .addNode(
        "c2",
        counted("c2", (s: Flow) => ({ n: s.n + 1 })),
      )
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .addConditionalEdges("c2", (s) => (s.n < 10 ? "c1" : END), { c1: "c1", [END]: END })
      .compile();
    const graph = new StateGraph<Flow>(FLOW)
      .addNode("before", () => ({ log: ["before"] }))
      .addNode("sub", subgraph<Flow, Flow>(child, limits))
      .addNode("after", () => ({ log: ["after"] }))
      .addEdge(START, "before")
      .addEdge("before", "sub")
      .addEdge("sub", "after")
      .addEdge("after", END)
      .compile();
    return { graph, runs };
  };
}

/**
 * START → sub → END, where sub's child is START → c1 → c2 → c3 → END: c2 asks first when `ask`, and
 * fails the first `fails` times it runs past its question.
 */
function failing(fails: number, ask: boolean) {
  return () => {
    const runs: string[] = [];
    const counted = counting(runs);
    let left = fails;
    const child = new StateGraph<Flow>(FLOW)
      .addNode(
        "c1",
        counted("c1", () => ({ log: ["c1"] })),
      )
      .addNode(
        "c2",
        counted("c2", () => {
          const answer = ask ? interrupt<string>({ q: "go?" }) : "-";
          if (left-- > 0) throw new Error("disk full");
          return { log: [`c2:${answer}`] };
        }),
      )
      .addNode(
        "c3",
        counted("c3", () => ({ log: ["c3"] })),
      )
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .addEdge("c2", "c3")
      .addEdge("c3", END)
      .compile();
    const graph = new StateGraph<Flow>(FLOW).addNode("sub", child).addEdge(START, "sub").addEdge("sub", END).compile();
    return { graph, runs };
  };
}

describe("a child's step bound in a threaded run", () => {
  it.each([
    ["maxSteps", { maxSteps: 3 }],
    ["recursionLimit", { recursionLimit: 2 }],
  ])("the subgraph's %s: the same GraphLimitError on both, and null stops again at it without running a node", async (_, limits) => {
    const run = await onBothEngines(looping(limits), { log: [], n: 0 }, [() => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    const [first, again] = run.mini as { failed: { message: string } }[];
    expect(first?.failed).toMatchObject({ name: "GraphLimitError", code: "STEP_LIMIT", node: "sub", trace: ["before"] });
    expect(first?.failed.message).toMatch(/^invoke: node "sub\/c\d" failed: the (step|superstep) limit/);
    expect(again).toEqual(first);
  });

  it("runOnLangGraph raises the mini engine's GraphLimitError (code STEP_LIMIT, path sub/c2), never LangGraph's GraphRecursionError", async () => {
    const { graph } = looping({ maxSteps: 3 })();
    const error: unknown = await runOnLangGraph(graph, { log: [], n: 0 }, { threadId: "t", checkpointer: new MemorySaver() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ code: "STEP_LIMIT", node: "sub", path: ["sub", "c2"] });
    expect((error as Error).cause).toBeInstanceOf(GraphLimitError);
    expect((error as Error).cause).not.toBeInstanceOf(GraphRecursionError);
  });

  it("a child within its bound runs to its end on both", async () => {
    const run = await onBothEngines(looping({ maxSteps: 20 }), { log: [], n: 0 }, []);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.last).toMatchObject({ status: "done", state: { n: 10 }, trace: ["before", "sub", "after"] });
  });
});

describe("a failure inside a child in a threaded run", () => {
  it("the same error on both; null continues inside the child: its completed steps do not run again", async () => {
    const run = await onBothEngines(failing(1, false), { log: [], n: 0 }, [() => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    expect(run.miniRuns).toEqual(["c1", "c2", "c2", "c3"]);
    const [first] = run.mini as { failed: unknown }[];
    expect(first?.failed).toMatchObject({
      name: "GraphExecutionError",
      code: "NODE_FAILED",
      message: 'invoke: node "sub/c2" failed: node "c2" threw: disk full',
      node: "sub",
      trace: [],
    });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["c1", "c2:-", "c3"] } });
  });

  // LangGraph keeps a resume value as one of its task's pending writes; the mini engine keeps the answers
  // of a resumed superstep that failed in an interrupt checkpoint. So on both, null retries the child's
  // node with its answer instead of asking again, and the child's completed steps run once.
  it("after the child resumed from an interrupt: the same error on both; then null retries the node with its answer on both", async () => {
    const run = await onBothEngines(failing(1, true), { log: [], n: 0 }, [() => new Command({ resume: "yes" }), () => null]);
    expect(run.langGraph.map(withoutNs)).toEqual(run.mini.map(withoutNs));
    expect(run.mini[1]).toMatchObject({
      failed: { code: "NODE_FAILED", message: 'invoke: node "sub/c2" failed: node "c2" threw: disk full' },
    });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["c1", "c2:yes", "c3"] } });
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    expect(run.miniRuns).toEqual(["c1", "c2", "c2", "c2", "c3"]);
  });

  it("the error is the core's GraphExecutionError with the child's path", async () => {
    const { graph } = failing(1, false)();
    const error: unknown = await runOnLangGraph(graph, { log: [], n: 0 }, { threadId: "t", checkpointer: new MemorySaver() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "sub", path: ["sub", "c2"] });
  });
});
