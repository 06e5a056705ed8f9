import { describe, expect, it } from "vitest";
import {
  append,
  END,
  type GraphExecutionError,
  GraphLimitError,
  InvalidOptionError,
  InvalidUpdateError,
  Send,
  START,
  StateGraph,
  union,
  type GraphWarning,
  type OrderWarning,
  type SuperstepValues,
} from "../../src/index.js";
import { deferred, fanOutGraph, researchInput, slowJoinGraph, type ResearchLike } from "../helpers/parallel-graphs.js";

type Research = ResearchLike;
const input = researchInput;

describe("fan-out and join", () => {
  it("runs the branches in one superstep, concurrently, and the join once", async () => {
    const started: string[] = [];
    const gate = deferred();
    const graph = fanOutGraph((name) => async () => {
      started.push(name);
      if (started.length === 3) gate.resolve();
      await gate.promise; // no branch can finish before all three have started
      return { findings: [name] };
    });
    const { state, trace, supersteps } = await graph.invoke(input());
    expect(started.sort()).toEqual(["internal", "papers", "web"]);
    expect(trace).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    expect(supersteps).toBe(3);
    expect(state.summary).toBe("web, papers, internal");
  });

  it("every branch reads the same pre-step state, not a sibling's update", async () => {
    const seen: string[][] = [];
    const graph = fanOutGraph((name) => (s) => {
      seen.push([...s.findings]);
      return { findings: [name] };
    });
    await graph.invoke(input());
    expect(seen).toEqual([[], [], []]);
  });

  it("merges in declaration order whatever order the branches finish in", async () => {
    const finishOrder = ["internal", "web", "papers"];
    const gates = new Map(finishOrder.map((name) => [name, deferred()]));
    const graph = fanOutGraph((name) => async () => {
      await gates.get(name)?.promise;
      return { findings: [name], log: [name] };
    });
    const pending = graph.invoke(input());
    for (const name of finishOrder) {
      gates.get(name)?.resolve();
      await new Promise((r) => setTimeout(r, 1));
    }
    const { state } = await pending;
    expect(state.log).toEqual(["plan tides", "web", "papers", "internal"]);
  });

  it("the join waits for a slow branch that takes more supersteps", async () => {
    const graph = slowJoinGraph();
    const { state, trace } = await graph.invoke(input());
    expect(trace).toEqual(["plan", "quick", "slow1", "slow2", "join"]);
    expect(state.summary).toBe("quick+slow1+slow2");
  });

  it("fans out from START", async () => {
    const graph = new StateGraph<Research>({ reducers: { findings: union } })
      .addNode("a", () => ({ findings: ["a"] }))
      .addNode("b", () => ({ findings: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    const { state, supersteps } = await graph.invoke(input());
    expect(state.findings).toEqual(["a", "b"]);
    expect(supersteps).toBe(1);
  });
});

describe("conflicts and atomicity", () => {
  it("two nodes writing one field without a reducer in one superstep raise InvalidUpdateError naming both", async () => {
    const graph = fanOutGraph((name) => () => ({ summary: name }));
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as InvalidUpdateError;
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.message).toContain(`"web" and "papers" both wrote "summary"`);
    expect(error.state).toEqual({ ...input(), log: ["plan tides"] });
    expect(error.trace).toEqual(["plan"]);
  });

  it("a failing branch commits none of the superstep's updates and names the node", async () => {
    const graph = fanOutGraph((name) => async () => {
      if (name === "papers") throw new Error("source offline");
      return { findings: [name] };
    });
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "papers", trace: ["plan"] });
    expect(error.state.findings).toEqual([]);
  });

  it("when several branches fail, the first in declaration order is reported", async () => {
    const graph = fanOutGraph((name) => async () => {
      await new Promise((r) => setTimeout(r, name === "web" ? 10 : 0));
      if (name !== "papers") throw new Error(`${name} failed`);
      return {};
    });
    await expect(graph.invoke(input())).rejects.toMatchObject({ node: "web" });
  });
});

describe("routers with several keys, and Send", () => {
  it("a router may return several keys; their destinations run together", async () => {
    const graph = new StateGraph<Research>({ reducers: { findings: union } })
      .addNode("plan", () => ({}))
      .addNode("a", () => ({ findings: ["a"] }))
      .addNode("b", () => ({ findings: ["b"] }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => ["left", "right"], { left: "a", right: "b" })
      .addEdge("a", END)
      .addEdge("b", END)
      .compile();
    const { state, steps, routes } = await graph.invoke(input());
    expect(state.findings).toEqual(["a", "b"]);
    expect(steps[0]?.route).toEqual(["left", "right"]);
    expect(routes.map((r) => r.key)).toEqual(["left", "right"]);
  });

  function sendGraph() {
    return new StateGraph<Research>({ reducers: { findings: append } })
      .addNode("plan", () => ({}))
      .addNode("summarize", (doc: { text: string }) => ({ findings: [doc.text.toUpperCase()] }))
      .addNode("done", (s) => ({ summary: `${s.findings.length} summaries` }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => (s.docs.length === 0 ? END : s.docs.map((text) => new Send("summarize", { text }))), [
        "summarize",
        END,
      ])
      .addEdge("summarize", "done")
      .addEdge("done", END)
      .compile();
  }

  it.each([
    [[], [], ["plan"]],
    [["x"], ["X"], ["plan", "summarize", "done"]],
    [
      ["x", "y", "z"],
      ["X", "Y", "Z"],
      ["plan", "summarize", "summarize", "summarize", "done"],
    ],
  ])("Send maps over %j: each item runs the node with its own input", async (docs, findings, trace) => {
    const result = await sendGraph().invoke({ ...input(), docs });
    expect(result.state.findings).toEqual(findings);
    expect(result.trace).toEqual(trace);
  });

  it("a Send node's input is its own copy", async () => {
    const shared = { text: "a" };
    const graph = new StateGraph<Research>({ reducers: { findings: append } })
      .addNode("plan", () => ({}))
      .addNode("mutate", (doc: { text: string }) => {
        doc.text = "mutated";
        return { findings: [doc.text] };
      })
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [new Send("mutate", shared), new Send("mutate", shared)], ["mutate"])
      .addEdge("mutate", END)
      .compile();
    await graph.invoke(input());
    expect(shared.text).toBe("a");
  });

  it("a Send to an undeclared node is an UNKNOWN_ROUTE_KEY error", async () => {
    const graph = new StateGraph<Research>()
      .addNode("plan", () => ({}))
      .addNode("summarize", (_input: object) => ({}))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [new Send("summarize", {}), new Send("ghost" as "summarize", {})], ["summarize"])
      .addEdge("summarize", END)
      .compile();
    await expect(graph.invoke(input())).rejects.toMatchObject({ code: "UNKNOWN_ROUTE_KEY", node: "plan" });
  });
});

describe("limits", () => {
  const loop = () =>
    new StateGraph<Research>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, ["a", "b"])
      .addConditionalEdges("a", (s) => (s.log.length < 100 ? "again" : "out"), { again: "a", out: END })
      .addEdge("b", END)
      .compile();

  it("maxSteps counts node executions and stops before a superstep that would exceed it", async () => {
    const error = (await loop()
      .invoke(input(), { maxSteps: 1 })
      .catch((e: unknown) => e)) as GraphLimitError;
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ node: "b", trace: [] });
  });

  it("recursionLimit counts supersteps", async () => {
    const error = (await loop()
      .invoke(input(), { recursionLimit: 3 })
      .catch((e: unknown) => e)) as GraphLimitError;
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error.trace).toEqual(["a", "b", "a", "a"]);
    expect(error.message).toContain("recursionLimit: 3");
  });

  it.each([0, -1, 1.5, true])("rejects recursionLimit %s", async (recursionLimit) => {
    await expect(loop().invoke(input(), { recursionLimit: recursionLimit as number })).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

describe("stream modes", () => {
  it("yields per-node steps by default, and the merged state per superstep with 'values'", async () => {
    const graph = fanOutGraph((name) => () => ({ findings: [name] }));
    const nodes: string[] = [];
    for await (const step of graph.stream(input())) nodes.push(step.node);
    expect(nodes).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    const values: SuperstepValues<Research>[] = [];
    for await (const value of graph.stream(input(), { streamMode: "values" })) values.push(value);
    expect(values.map((v) => [v.superstep, v.nodes])).toEqual([
      [0, []],
      [1, ["plan"]],
      [2, ["web", "papers", "internal"]],
      [3, ["synthesize"]],
    ]);
    expect(values[0]?.state).toEqual(input());
    expect(values[2]?.state.findings).toEqual(["web", "papers", "internal"]);
  });

  it("with a list of modes, yields [mode, payload] pairs from one run", async () => {
    let runs = 0;
    const graph = fanOutGraph((name) => () => {
      if (name === "web") runs += 1;
      return { findings: [name] };
    });
    const modes: string[] = [];
    for await (const [mode] of graph.stream(input(), { streamMode: ["updates", "values"] })) modes.push(mode);
    expect(modes).toEqual(["values", "updates", "values", "updates", "updates", "updates", "values", "updates", "values"]);
    expect(runs).toBe(1);
  });

  it("rejects an unknown stream mode", async () => {
    const consume = async () => {
      for await (const _ of fanOutGraph(() => () => ({})).stream(input(), { streamMode: "trace" as "values" })) void _;
    };
    await expect(consume()).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

/** The ORDER_DEPENDENT_MERGE warnings of a graph (a graph with an unbounded cycle warns about it too). */
const orderWarningsOf = (graph: { readonly warnings: readonly GraphWarning[] }) =>
  graph.warnings.filter((w): w is OrderWarning => w.code === "ORDER_DEPENDENT_MERGE");

describe("order warnings", () => {
  it("warns when parallel nodes may merge a field through a reducer without commutativity claims", () => {
    const graph = fanOutGraph(() => () => ({}));
    expect(orderWarningsOf(graph).map((w) => [w.field, w.reducer, w.nodes])).toEqual([["log", "append", ["web", "papers", "internal"]]]);
    expect(graph.warnings[0]?.message).toContain(`field "log" uses reducer "append"`);
  });

  it("says the merge is deterministic and how to acknowledge it, without advising union for a log", () => {
    const [warning] = fanOutGraph(() => () => ({})).warnings;
    expect(warning?.message).toContain("The merge is deterministic");
    expect(warning?.message).toContain('orderedMerge: ["log"]');
    expect(warning?.message).toContain("union for a set of unique values");
  });

  it("does not warn for a field the graph acknowledged with orderedMerge, and still warns for the others", () => {
    const parallel = (options: { orderedMerge?: readonly ("log" | "findings")[] }) =>
      new StateGraph<Research>({ reducers: { findings: append, log: append }, ...options })
        .addNode("plan", () => ({}))
        .addNode("web", () => ({}))
        .addNode("papers", () => ({}))
        .addEdge(START, "plan")
        .addEdge("plan", ["web", "papers"])
        .addEdge(["web", "papers"], END)
        .compile();
    expect(orderWarningsOf(parallel({})).map((w) => w.field)).toEqual(["findings", "log"]);
    expect(orderWarningsOf(parallel({ orderedMerge: ["log"] })).map((w) => w.field)).toEqual(["findings"]);
    expect(parallel({ orderedMerge: ["log", "findings"] }).warnings).toEqual([]);
  });

  it("refuses an orderedMerge that lists a field without a reducer, or is not a list", () => {
    expect(() => new StateGraph<Research>({ reducers: { log: append }, orderedMerge: ["summary"] })).toThrow(
      /orderedMerge lists "summary", which has no reducer/,
    );
    expect(() => new StateGraph<Research>({ reducers: { log: append }, orderedMerge: "log" as never })).toThrow(InvalidOptionError);
  });

  it("does not warn for commutative, associative reducers or sequential graphs", () => {
    const graph = new StateGraph<Research>({ reducers: { findings: union, log: append } })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(graph.warnings).toEqual([]);
  });
});

describe("subgraphs", () => {
  interface Inner {
    findings: string[];
    log: string[];
  }
  const child = new StateGraph<Research>({ reducers: { findings: union, log: append } })
    .addNode("search", () => ({ findings: ["deep"], log: ["searched"] }))
    .addNode("rank", () => ({ log: ["ranked"] }))
    .addEdge(START, "search")
    .addEdge("search", "rank")
    .addEdge("rank", END)
    .compile();

  it("a compiled graph with the same state runs as a node; its writes come back as one delta", async () => {
    const graph = new StateGraph<Research>({ reducers: { findings: union, log: append } })
      .addNode("plan", () => ({ log: ["planned"] }))
      .addNode("specialist", child)
      .addEdge(START, "plan")
      .addEdge("plan", "specialist")
      .addEdge("specialist", END)
      .compile();
    const { state, trace } = await graph.invoke(input());
    expect(trace).toEqual(["plan", "specialist"]);
    expect(state.log).toEqual(["planned", "searched", "ranked"]);
    expect(state.findings).toEqual(["deep"]);
  });

  it("maps in and out of a different state type", async () => {
    const inner = new StateGraph<Inner>({ reducers: { log: append } })
      .addNode("work", (s) => ({ log: [`read ${s.findings.length}`] }))
      .addEdge(START, "work")
      .addEdge("work", END)
      .compile();
    const { subgraph } = await import("../../src/index.js");
    const graph = new StateGraph<Research>()
      .addNode(
        "mapped",
        subgraph(inner, { input: (s: Research) => ({ findings: [s.topic], log: [] }), output: (c: Inner) => ({ summary: c.log.join() }) }),
      )
      .addEdge(START, "mapped")
      .addEdge("mapped", END)
      .compile();
    expect((await graph.invoke(input())).state.summary).toBe("read 1");
  });

  it("runs with its own limits, and its errors carry the path parent/child", async () => {
    const failing = new StateGraph<Research>()
      .addNode("search", () => {
        throw new Error("index down");
      })
      .addEdge(START, "search")
      .addEdge("search", END)
      .compile();
    const graph = new StateGraph<Research>()
      .addNode("specialist", failing)
      .addEdge(START, "specialist")
      .addEdge("specialist", END)
      .compile();
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error.path).toEqual(["specialist", "search"]);
    expect(error.message).toContain(`node "specialist/search" failed`);
    expect(error.message).toContain("index down");
  });
});

describe("subgraphs in the spec", () => {
  it("compile() records each subgraph node's spec, so exporters can see it", () => {
    const child = new StateGraph<Research>()
      .addNode("inner", () => ({}))
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    const graph = new StateGraph<Research>().addNode("outer", child).addEdge(START, "outer").addEdge("outer", END).compile();
    expect(graph.spec.subgraphs).toEqual({ outer: child.spec });
    expect(JSON.parse(JSON.stringify(graph.spec)).subgraphs.outer.nodes).toEqual(["inner"]);
  });
});

describe("review fixes", () => {
  it("a run that ends with a join still waiting fails, naming the join and the missing source", async () => {
    const graph = new StateGraph<Research>({ reducers: { findings: union } })
      .addNode("plan", () => ({}))
      .addNode("a", () => ({ findings: ["a"] }))
      .addNode("b", () => ({ findings: ["b"] }))
      .addNode("join", () => ({ summary: "joined" }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (): ("a" | "b")[] => ["a"], ["a", "b"])
      .addEdge(["a", "b"], "join")
      .addEdge("join", END)
      .compile();
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toMatchObject({ code: "JOIN_INCOMPLETE", node: "join", trace: ["plan", "a"] });
    expect(error.message).toContain(`still waiting for "b"`);
    expect(error.state.findings).toEqual(["a"]);
  });

  it("a subgraph's step limit reaches the parent as a GraphLimitError with its path", async () => {
    const looping = new StateGraph<Research>()
      .addNode("spin", () => ({}))
      .addEdge(START, "spin")
      .addConditionalEdges("spin", (s) => (s.topic === "never" ? "out" : "again"), { again: "spin", out: END })
      .compile();
    const { subgraph } = await import("../../src/index.js");
    const graph = new StateGraph<Research>()
      .addNode("child", subgraph(looping, { maxSteps: 3 }))
      .addEdge(START, "child")
      .addEdge("child", END)
      .compile();
    const error = await graph.invoke(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ code: "STEP_LIMIT", path: ["child", "spin"] });
  });

  it("recursionLimit alone can lengthen a run, as LangGraph users expect", async () => {
    const graph = new StateGraph<Research>({ reducers: { log: append } })
      .addNode("tick", () => ({ log: ["t"] }))
      .addEdge(START, "tick")
      .addConditionalEdges("tick", (s) => (s.log.length < 30 ? "again" : "done"), { again: "tick", done: END })
      .compile();
    expect((await graph.invoke(input(), { recursionLimit: 40 })).trace).toHaveLength(30);
    await expect(graph.invoke(input())).rejects.toBeInstanceOf(GraphLimitError);
  });

  it.each([null, 5, "fast"])("options %j that are not an object are rejected clearly", async (options) => {
    await expect(fanOutGraph(() => () => ({})).invoke(input(), options as never)).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

describe("steps started by Sends", () => {
  it("each step reports its own route, even when Sends run one node several times", async () => {
    // A router that answers differently on each call (it counts), so the two x steps route apart.
    let calls = 0;
    interface Hop {
      hops: number[];
      log: string[];
    }
    const graph = new StateGraph<Hop>({ reducers: { log: append } })
      .addNode("plan", () => ({}))
      .addNode("x", (input: { n: number }) => ({ log: [`x${input.n}`] }))
      .addNode("y", () => ({}))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [new Send("x", { n: 1 }), new Send("x", { n: 2 })], ["x"])
      .addConditionalEdges("x", (): "toY" | "out" => (++calls === 1 ? "toY" : "out"), { toY: "y", out: END })
      .addEdge("y", END)
      .compile();
    const { steps } = await graph.invoke({ hops: [], log: [] });
    expect(steps.filter((s) => s.node === "x").map((s) => s.route)).toEqual(["toY", "out"]);
  });
});
