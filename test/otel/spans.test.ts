/**
 * `typed-state-graph/otel`: the exact span trees of the report graph, the agent loop, a parallel graph,
 * a failing node, a retried node, a subgraph and a paused thread, recorded with the SDK's in-memory
 * exporter; the span context reaching nodes, with and without a context manager.
 */
import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { buildAgentGraph, initialAgentState, ScriptedModel } from "../../src/examples/agent/index.js";
import { buildReportGraph, initialReportState } from "../../src/examples/report/index.js";
import { append, END, GraphExecutionError, START, StateGraph, subgraph } from "../../src/index.js";
import { nodeSpanContext, otelObserver } from "../../src/otel/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { memoryTracing, spanTree, withContextManager } from "../helpers/otel.js";
import { fanOutGraph, researchInput } from "../helpers/parallel-graphs.js";

interface S {
  n: number;
  log: string[];
}

const REPORT_TREE = [
  "tsg.run report done",
  "  tsg.superstep 1",
  "    tsg.node collect #1 ok",
  "  tsg.superstep 2",
  "    tsg.node write_draft #1 ok",
  "  tsg.superstep 3",
  "    tsg.node check_draft #1 ok",
  "    · route check_draft -revise-> revise_draft",
  "  tsg.superstep 4",
  "    tsg.node revise_draft #1 ok",
  "  tsg.superstep 5",
  "    tsg.node check_draft #1 ok",
  "    · route check_draft -accept-> publish",
  "  tsg.superstep 6",
  "    tsg.node publish #1 ok",
];

function failingGraph() {
  return new StateGraph<S>({ reducers: { log: append } })
    .addNode("ok", () => ({ log: ["ok"] }))
    .addNode("boom", async () => {
      throw new Error("the upstream is down");
    })
    .addEdge(START, "ok")
    .addEdge("ok", "boom")
    .addEdge("boom", END)
    .compile();
}

describe("otelObserver", () => {
  it("the report graph's default run: a run span, a span per superstep, a span per node attempt, routes as events", async () => {
    const { tracer, spans } = memoryTracing();
    await buildReportGraph().invoke(initialReportState(), { observer: otelObserver({ tracer, graphName: "report" }) });
    expect(spanTree(spans())).toEqual(REPORT_TREE);
    const run = spans().find((span) => span.name === "tsg.run report");
    expect(run?.attributes).toMatchObject({
      "tsg.graph.name": "report",
      "tsg.engine": "mini",
      "tsg.api": "invoke",
      "tsg.run.status": "done",
      "tsg.run.supersteps": 6,
      "tsg.run.resumed": false,
    });
    expect(run?.attributes["tsg.graph.spec_hash"]).toMatch(/^[0-9a-f]+$/);
  });

  it("the report graph on the XState superstep machine gives the same tree (engine xstate)", async () => {
    const { tracer, spans } = memoryTracing();
    await runOnXState(buildReportGraph(), initialReportState(), { observer: otelObserver({ tracer, graphName: "report" }) });
    expect(spanTree(spans())).toEqual(REPORT_TREE);
    expect(spans().find((span) => span.name === "tsg.run report")?.attributes["tsg.engine"]).toBe("xstate");
  });

  it("refuses an observer on the XState per-node layout, which the kernel does not drive", async () => {
    const { tracer } = memoryTracing();
    await expect(
      runOnXState(buildReportGraph(), initialReportState(), { observer: otelObserver({ tracer }), layout: "nodes" }),
    ).rejects.toThrow(/^invoke: an observer needs the superstep layout/);
  });

  it("the agent loop (convert): model and tools alternate, each route an event", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }));
    await graph.invoke(initialAgentState("Tokyo in Fahrenheit?"), { maxSteps: 16, observer: otelObserver({ tracer }) });
    expect(spanTree(spans())).toEqual([
      "tsg.run done",
      "  tsg.superstep 1",
      "    tsg.node model #1 ok",
      "    · route model -tools-> tools",
      "  tsg.superstep 2",
      "    tsg.node tools #1 ok",
      "    · route tools -model-> model",
      "  tsg.superstep 3",
      "    tsg.node model #1 ok",
      "    · route model -tools-> tools",
      "  tsg.superstep 4",
      "    tsg.node tools #1 ok",
      "    · route tools -model-> model",
      "  tsg.superstep 5",
      "    tsg.node model #1 ok",
      "    · route model -end-> __end__",
    ]);
  });

  it("a parallel graph: the branches' attempts are siblings under their superstep", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = fanOutGraph((name) => async () => ({ findings: [name] }));
    await graph.invoke(researchInput(), { observer: otelObserver({ tracer }) });
    const tree = spanTree(spans());
    expect(tree.slice(0, 3)).toEqual(["tsg.run done", "  tsg.superstep 1", "    tsg.node plan #1 ok"]);
    expect(tree[3]).toBe("  tsg.superstep 2");
    expect([...tree.slice(4, 7)].sort()).toEqual(["    tsg.node internal #1 ok", "    tsg.node papers #1 ok", "    tsg.node web #1 ok"]);
    expect(tree.slice(7)).toEqual(["  tsg.superstep 3", "    tsg.node synthesize #1 ok"]);
    const second = spans().find((span) => span.name === "tsg.superstep" && span.attributes["tsg.superstep"] === 2);
    expect(second?.attributes["tsg.superstep.nodes"]).toEqual(["web", "papers", "internal"]);
  });

  it("a failing node: its attempt, its superstep and the run are errors with the code", async () => {
    const { tracer, spans } = memoryTracing();
    await expect(failingGraph().invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer }) })).rejects.toThrow(GraphExecutionError);
    expect(spanTree(spans())).toEqual([
      "tsg.run failed [NODE_FAILED]",
      "  tsg.superstep 1",
      "    tsg.node ok #1 ok",
      "  tsg.superstep 2 [NODE_FAILED]",
      "    tsg.node boom #1 error [NODE_FAILED]",
    ]);
    const attempt = spans().find((span) => span.name === "tsg.node boom");
    expect(attempt?.status).toEqual({ code: 2, message: 'node "boom" threw: the upstream is down' });
    expect(attempt?.attributes["error.type"]).toBe("NODE_FAILED");
    expect(attempt?.events.map((event) => event.name)).toEqual(["exception"]);
  });

  it("a retried node: an attempt span per attempt, the retry an event of the superstep", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode(
        "flaky",
        (_s, { attempt }) => {
          if (attempt < 3) throw new Error(`attempt ${attempt}`);
          return { n: attempt };
        },
        { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } },
      )
      .addEdge(START, "flaky")
      .addEdge("flaky", END)
      .compile();
    await graph.invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer }) });
    expect(spanTree(spans())).toEqual([
      "tsg.run done",
      "  tsg.superstep 1",
      "    tsg.node flaky #1 error [NODE_FAILED]",
      "    tsg.node flaky #2 error [NODE_FAILED]",
      "    tsg.node flaky #3 ok",
      "    · retry flaky after #1",
      "    · retry flaky after #2",
    ]);
  });

  it("a subgraph's run nests under the attempt of the node that runs it", async () => {
    const { tracer, spans } = memoryTracing();
    const child = new StateGraph<S>({ reducers: { log: append } })
      .addNode("inner", () => ({ log: ["inner"] }))
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    const parent = new StateGraph<S>({ reducers: { log: append } })
      .addNode("delegate", subgraph(child))
      .addEdge(START, "delegate")
      .addEdge("delegate", END)
      .compile();
    await parent.invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer, graphName: "parent" }) });
    expect(spanTree(spans())).toEqual([
      "tsg.run parent done",
      "  tsg.superstep 1",
      "    tsg.node delegate #1 ok",
      "      tsg.run delegate done",
      "        tsg.superstep 1",
      "          tsg.node inner #1 ok",
    ]);
    expect(spans().find((span) => span.name === "tsg.run delegate")?.attributes["tsg.parent.node"]).toBe("delegate");
  });

  it("a thread: checkpoint writes and the interrupt are events of the run span; the resumed run is its own span", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile({ interruptBefore: ["b"], checkpointer: new MemoryCheckpointer() });
    const observer = otelObserver({ tracer });
    await graph.invoke({ n: 0, log: [] }, { threadId: "t1", observer });
    await graph.invoke(null, { threadId: "t1", observer });
    expect(spanTree(spans())).toEqual([
      "tsg.run interrupted",
      "  tsg.superstep 1",
      "    tsg.node a #1 ok",
      "  · checkpoint 0 input",
      "  · checkpoint 1 loop",
      "  · interrupt before b",
      "tsg.run done",
      "  tsg.superstep 2",
      "    tsg.node b #1 ok",
      "  · checkpoint 2 loop",
    ]);
    const [first, second] = spans().filter((span) => span.name === "tsg.run");
    expect(first?.attributes["tsg.thread.id"]).toBe("t1");
    expect(second?.attributes["tsg.run.resumed"]).toBe(true);
  });

  it("passes the attempt's span context to nodes: nodeSpanContext without a context manager", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode("fetch", async (_s, context) => {
        const span = tracer.startSpan("GET /weather", {}, nodeSpanContext(context));
        await Promise.resolve();
        span.end();
        return { log: ["fetched"] };
      })
      .addEdge(START, "fetch")
      .addEdge("fetch", END)
      .compile();
    await graph.invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer }) });
    expect(spanTree(spans())).toEqual(["tsg.run done", "  tsg.superstep 1", "    tsg.node fetch #1 ok", "      GET /weather"]);
  });

  it("with a context manager, a node's own active spans nest under its attempt across awaits", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode("fetch", async () => {
        await Promise.resolve();
        return tracer.startActiveSpan("GET /weather", async (span) => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          span.end();
          return { log: [trace.getActiveSpan() === span ? "active" : "not active"] };
        });
      })
      .addEdge(START, "fetch")
      .addEdge("fetch", END)
      .compile();
    const result = await withContextManager(() => graph.invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer }) }));
    expect(result.state.log).toEqual(["active"]);
    expect(spanTree(spans())).toEqual(["tsg.run done", "  tsg.superstep 1", "    tsg.node fetch #1 ok", "      GET /weather"]);
  });

  it("without a context manager, active spans do not nest (nodeSpanContext is then the way)", async () => {
    const { tracer, spans } = memoryTracing();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode("fetch", async () => {
        await Promise.resolve();
        tracer.startActiveSpan("GET /weather", (span) => span.end());
        return { log: ["fetched"] };
      })
      .addEdge(START, "fetch")
      .addEdge("fetch", END)
      .compile();
    await graph.invoke({ n: 0, log: [] }, { observer: otelObserver({ tracer }) });
    expect(spanTree(spans())).toContain("GET /weather");
  });

  it("observes nothing more of a run whose span is not recording (the API's no-op tracer)", async () => {
    const noop = trace.getTracer("no SDK registered");
    const observer = otelObserver({ tracer: noop });
    expect(
      observer.run({ specHash: "x", nodes: [], engine: "mini", api: "invoke", threadId: undefined, resumed: false, parent: undefined }),
    ).toBeUndefined();
    const result = await buildReportGraph().invoke(initialReportState(), { observer });
    expect(result.trace.at(-1)).toBe("publish");
  });
});
