/**
 * Interrupts on LangGraph.js and on the mini engine: in-node `interrupt()`, several at once resumed by
 * id, a resume with an update, `interruptBefore`/`interruptAfter`, typed interrupts with a schema. Each
 * case runs the same calls on both engines and compares what each call returned: state, status, next,
 * the interrupts (ids, nodes, payloads), trace, supersteps and steps. The nodes count their runs, so
 * "the node runs again from its start" is checked on both.
 */
import { Command as LangGraphCommand, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  append,
  Command,
  defineInterrupt,
  END,
  interrupt,
  START,
  StateGraph,
  type CompiledGraph,
  type ThreadRunResult,
} from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { buildReportGraph, initialReportState } from "../../src/examples/report/index.js";
import {
  AGENT_STATE_FIELDS,
  agentQuestion,
  createAgentNodes,
  initialAgentState,
  routeAfterModel,
  routeAfterTools,
  ScriptedModel,
  type AgentState,
} from "../../src/examples/agent/index.js";
import { onBothEngines, type Input } from "./_helpers.js";

interface Flow {
  log: string[];
  n: number;
}

function idsOf(result: ThreadRunResult<object>): string[] {
  return result.status === "interrupted" ? (result.interrupt.interrupts ?? []).map((p) => p.id) : [];
}

/** START → a → review (asks twice) → done → END. */
function reviewGraph() {
  const runs: string[] = [];
  const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: ["log", "n"] })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("review", (s) => {
      runs.push("review");
      const first = interrupt<string>({ question: "first?", n: s.n });
      const second = interrupt<string>({ question: "second?", first });
      return { log: [`review=${first},${second}`] };
    })
    .addNode("done", (s) => ({ log: [`done@${s.n}`] }))
    .addEdge(START, "a")
    .addEdge("a", "review")
    .addEdge("review", "done")
    .addEdge("done", END)
    .compile();
  return { graph, runs };
}

/** START → plan → left, right (both ask) → join → END. */
function parallelGraph() {
  const runs: string[] = [];
  const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: ["log", "n"] })
    .addNode("plan", () => ({ log: ["plan"] }))
    .addNode("left", (s) => {
      runs.push("left");
      return { log: [`left=${interrupt<string>({ side: "left", n: s.n })}@${s.n}`] };
    })
    .addNode("right", () => {
      runs.push("right");
      return { log: [`right=${interrupt<string>({ side: "right" })}`] };
    })
    .addNode("join", (s) => ({ log: [`join:${s.log.length}`] }))
    .addEdge(START, "plan")
    .addEdge("plan", ["left", "right"])
    .addEdge(["left", "right"], "join")
    .addEdge("join", END)
    .compile();
  return { graph, runs };
}

describe("in-node interrupt() on LangGraph.js and on the mini engine", () => {
  it("pauses with the same payload, resumes with one value, and the node runs again from its start on both", async () => {
    const run = await onBothEngines(reviewGraph, { log: [], n: 1 }, [
      () => new Command({ resume: "yes" }),
      () => new Command({ resume: "sure" }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({
      status: "interrupted",
      interrupt: {
        when: "during",
        nodes: ["review"],
        interrupts: [{ id: "review:2:0:0", node: "review", value: { question: "first?", n: 1 } }],
      },
    });
    expect(run.mini[1]).toMatchObject({
      interrupt: { interrupts: [{ id: "review:2:0:1", value: { question: "second?", first: "yes" } }] },
    });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["a", "review=yes,sure", "done@1"] } });
    // Three runs of the node on each engine: paused, paused again at its second call, finished.
    expect(run.langGraphRuns).toEqual(["review", "review", "review"]);
    expect(run.miniRuns).toEqual(run.langGraphRuns);
  });

  it("parallel interrupts: stable ids, a map naming some of them resumes those and pauses again for the rest", async () => {
    const run = await onBothEngines(parallelGraph, { log: [], n: 0 }, [
      (last) => new Command({ resume: { [idsOf(last)[1] as string]: "r" } }),
      (last) => new Command({ resume: { [idsOf(last)[0] as string]: "l" } }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({
      next: ["left", "right"],
      interrupt: {
        nodes: ["left", "right"],
        interrupts: [
          { id: "left:2:0:0", node: "left", value: { side: "left", n: 0 } },
          { id: "right:2:1:0", node: "right", value: { side: "right" } },
        ],
      },
    });
    expect(run.mini[1]).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "left:2:0:0" }] } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["plan", "left=l@0", "right=r", "join:3"] } });
    expect(run.langGraphRuns.sort()).toEqual(run.miniRuns.sort());
  });

  it("a resume with an update: the update is merged first and the re-run node reads it, on both", async () => {
    const run = await onBothEngines(parallelGraph, { log: [], n: 0 }, [
      (last) =>
        new Command<unknown, Flow>({
          resume: Object.fromEntries(idsOf(last).map((id) => [id, id.slice(0, 1)])),
          update: { n: 7, log: ["edited"] },
        }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.last).toMatchObject({ status: "done", state: { n: 7, log: ["plan", "edited", "left=l@7", "right=r", "join:4"] } });
  });

  it("resumes that do not fit are the same InterruptError on both: none pending, unknown id, one value for several", async () => {
    const attempts = async (graph: CompiledGraph<Flow>, run: (input: Input<Flow>) => Promise<unknown>) => {
      const errors: unknown[] = [];
      const capture = (input: Input<Flow>) =>
        run(input).then(
          () => errors.push("resolved"),
          (error: { name: string; code: string; message: string }) =>
            errors.push({ name: error.name, code: error.code, message: error.message }),
        );
      await capture(new Command({ resume: "early" })); // the thread does not exist yet
      await run({ log: [], n: 0 });
      await capture(new Command({ resume: "one value" }));
      await capture(new Command({ resume: { "left:9:0:0": "x" } }));
      await capture(new Command({ resume: {} }));
      await capture(new Command({ goto: "nowhere" }));
      await capture(new Command({ update: { stray: 1 } as Partial<Flow> }));
      void graph;
      return errors;
    };
    const mini = parallelGraph().graph;
    const checkpointer = new MemoryCheckpointer();
    const lang = parallelGraph().graph;
    const saver = new MemorySaver();
    const miniErrors = await attempts(mini, (input) => mini.invoke(input as Flow, { threadId: "t", checkpointer }));
    const langErrors = await attempts(lang, (input) => runOnLangGraph(lang, input as Flow, { threadId: "t", checkpointer: saver }));
    expect(langErrors).toEqual(miniErrors);
    expect(miniErrors.map((e) => (e as { code?: string }).code)).toEqual([
      "NOTHING_TO_RESUME",
      "AMBIGUOUS_RESUME",
      "UNKNOWN_INTERRUPT",
      "AMBIGUOUS_RESUME",
      "INVALID_OPTION", // goto names no node
      "UNDECLARED_FIELD",
    ]);
  });

  it("a typed interrupt: the name travels with the payload, and its schema refuses a wrong answer on both", async () => {
    const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval", { schema: z.object({ approved: z.boolean() }) });
    const build = () => ({
      runs: [] as string[],
      graph: new StateGraph<{ draft: string; approved: boolean | null }>({ fields: ["draft", "approved"] })
        .addNode("review", (s) => ({ approved: approval({ draft: s.draft }).approved }))
        .addEdge(START, "review")
        .addEdge("review", END)
        .compile(),
    });
    const run = await onBothEngines(build, { draft: "d", approved: null }, [() => approval.resume({ approved: true })]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ interrupt: { interrupts: [{ id: "review:1:0:0", name: "approval", value: { draft: "d" } }] } });

    const refusal = async (resume: (input: unknown) => Promise<unknown>) => {
      await resume({ draft: "d", approved: null });
      return resume(new Command({ resume: { approved: "yes" } })).catch((e: unknown) => e);
    };
    const mini = build().graph;
    const checkpointer = new MemoryCheckpointer();
    const lang = build().graph;
    const saver = new MemorySaver();
    const miniError = await refusal((input) => mini.invoke(input as never, { threadId: "t", checkpointer }));
    const langError = await refusal((input) => runOnLangGraph(lang, input as never, { threadId: "t", checkpointer: saver }));
    expect(langError).toBeInstanceOf((miniError as object).constructor);
    expect(langError).toMatchObject({ code: "INVALID_RESUME", message: (miniError as Error).message });
  });

  it("a node that catches the pause still pauses, on both", async () => {
    const build = () => {
      const runs: string[] = [];
      const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: ["log", "n"] })
        .addNode("careless", () => {
          runs.push("careless");
          try {
            return { log: [`got ${interrupt<string>({ q: 1 })}`] };
          } catch {
            return { log: ["swallowed"] };
          }
        })
        .addEdge(START, "careless")
        .addEdge("careless", END)
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines(build, { log: [], n: 0 }, [() => new Command({ resume: "x" })]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ status: "interrupted", state: { log: [] } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["got x"] } });
  });

  it("a plain LangGraph invoke of the export: interrupt() is LangGraph's, resumed by LangGraph's own Command", async () => {
    const { graph, runs } = reviewGraph();
    const lg = await toLangGraph(graph, { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "plain" } };
    const paused = (await lg.invoke({ log: [], n: 3 }, config)) as Flow & { __interrupt__?: { id: string; value: unknown }[] };
    expect(paused.__interrupt__?.map((i) => i.value)).toEqual([{ question: "first?", n: 3 }]);
    await lg.invoke(new LangGraphCommand({ resume: "a" }), config);
    const done = await lg.invoke(new LangGraphCommand({ resume: "b" }), config);
    expect(done).toEqual({ log: ["a", "review=a,b", "done@3"], n: 3 });
    expect(runs).toEqual(["review", "review", "review"]);
  });

  it("without a checkpointer, interrupt() fails with INTERRUPT_OUTSIDE_THREAD on both (the mini engine's own, LangGraph's as the cause)", async () => {
    const { graph } = reviewGraph();
    const mini = await graph.invoke({ log: [], n: 0 }).catch((e: unknown) => e);
    const lang = await runOnLangGraph(graph, { log: [], n: 0 }).catch((e: unknown) => e);
    expect(mini).toMatchObject({ name: "InterruptError", code: "INTERRUPT_OUTSIDE_THREAD" });
    expect(lang).toMatchObject({ name: "GraphExecutionError", code: "NODE_FAILED", cause: { code: "INTERRUPT_OUTSIDE_THREAD" } });
    const plain = await (await toLangGraph(graph)).invoke({ log: [], n: 0 }).catch((e: unknown) => e);
    expect(plain).toMatchObject({ cause: { code: "INTERRUPT_OUTSIDE_THREAD" } });
  });
});

describe("interruptBefore and interruptAfter on LangGraph.js and on the mini engine", () => {
  const gated = (options: { interruptBefore?: ("a" | "review" | "done")[]; interruptAfter?: ("a" | "review" | "done")[] }) => () => {
    const runs: string[] = [];
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: ["log", "n"] })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("review", (s) => {
        runs.push("review");
        return { log: [`review@${s.n}`] };
      })
      .addNode("done", () => ({ log: ["done"] }))
      .addEdge(START, "a")
      .addEdge("a", "review")
      .addEdge("review", "done")
      .addEdge("done", END)
      .compile(options);
    return { graph, runs };
  };

  it("interruptBefore pauses before the node; null continues, and an update made then is read by it", async () => {
    const run = await onBothEngines(gated({ interruptBefore: ["review"] }), { log: [], n: 0 }, [
      () => new Command<unknown, Flow>({ update: { n: 5 } }),
      () => null,
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ status: "interrupted", next: ["review"], interrupt: { when: "before", nodes: ["review"] } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["a", "review@5", "done"], n: 5 } });
  });

  it("interruptAfter pauses after the node ran; null continues", async () => {
    const run = await onBothEngines(gated({ interruptAfter: ["review"] }), { log: [], n: 0 }, [() => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ status: "interrupted", next: ["done"], interrupt: { when: "after", nodes: ["review"] } });
  });

  it("a resume value with no interrupt() pending is NO_PENDING_INTERRUPT on both", async () => {
    const mini = gated({ interruptBefore: ["review"] })().graph;
    const lang = gated({ interruptBefore: ["review"] })().graph;
    const checkpointer = new MemoryCheckpointer();
    const saver = new MemorySaver();
    await mini.invoke({ log: [], n: 0 }, { threadId: "t", checkpointer });
    await runOnLangGraph(lang, { log: [], n: 0 }, { threadId: "t", checkpointer: saver });
    const miniError = await mini.invoke(new Command({ resume: 1 }), { threadId: "t", checkpointer }).catch((e: Error) => e.message);
    const langError = await runOnLangGraph(lang, new Command({ resume: 1 }), { threadId: "t", checkpointer: saver }).catch(
      (e: Error) => e.message,
    );
    expect(langError).toEqual(miniError);
  });

  it("a graph with interrupts is refused without a thread (runOnLangGraph, streamOnLangGraph) and without a checkpointer (toLangGraph)", async () => {
    const { graph } = gated({ interruptBefore: ["review"] })();
    const mini = await graph.invoke({ log: [], n: 0 }).catch((e: unknown) => e);
    await expect(runOnLangGraph(graph, { log: [], n: 0 })).rejects.toMatchObject({
      name: (mini as Error).name,
      message: (mini as Error).message,
    });
    await expect(toLangGraph(graph)).rejects.toMatchObject({
      name: "LangGraphInteropError",
      code: "LANGGRAPH_CHECKPOINTER_REQUIRED",
      message: expect.stringMatching(/^toLangGraph: the graph pauses at interrupts \("review"\)/),
    });
  });

  it("the export passes interruptBefore/interruptAfter to LangGraph's compile", async () => {
    const lg = await toLangGraph(gated({ interruptBefore: ["review"], interruptAfter: ["a"] })().graph, {
      checkpointer: new MemorySaver(),
    });
    expect(lg.interruptBefore).toEqual(["review"]);
    expect(lg.interruptAfter).toEqual(["a"]);
  });
});

describe("Command goto on LangGraph.js", () => {
  it("with pending tasks, goto is refused (LangGraph would run it beside them, the mini engine instead of them)", async () => {
    const { graph } = parallelGraph();
    const saver = new MemorySaver();
    await runOnLangGraph(graph, { log: [], n: 0 }, { threadId: "t", checkpointer: saver });
    await expect(runOnLangGraph(graph, new Command({ goto: "join" }), { threadId: "t", checkpointer: saver })).rejects.toMatchObject({
      code: "LANGGRAPH_COMMAND_GOTO",
    });
  });

  it("on a finished thread, goto runs the named node and what follows it, on both", async () => {
    const run = await onBothEngines(reviewGraph, { log: [], n: 0 }, [
      () => new Command({ resume: "1" }),
      () => new Command({ resume: "2" }),
      () => new Command<unknown, Flow, "done">({ goto: "done", update: { n: 9 } }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.last).toMatchObject({ status: "done", state: { n: 9 } });
  });
});

describe("the report graph and the agent loop, gated by interrupts, on both engines", () => {
  it("the report graph paused before publish, then continued: the same pause and the same final state", async () => {
    const build = () => ({ runs: [], graph: buildReportGraph({}, { interruptBefore: ["publish"] }) });
    const run = await onBothEngines(build, initialReportState(), [() => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ status: "interrupted", next: ["publish"] });
    expect(run.last).toMatchObject({ status: "done", state: { status: "completed" } });
  });

  it("the agent loop with a person approving each tool batch in the tools node: the same pauses, payloads and answer", async () => {
    const script = { task: "convert", city: "Tokyo", language: "en" } as const;
    const build = () => {
      const runs: string[] = [];
      const nodes = createAgentNodes(new ScriptedModel(script));
      const graph = new StateGraph<AgentState>({ reducers: { messages: append, events: append }, fields: [...AGENT_STATE_FIELDS] })
        .addNode("model", nodes.model)
        .addNode("tools", (state) => {
          runs.push("tools");
          const approved = interrupt<boolean>({ calls: state.pendingToolCalls.map((call) => call.name) });
          return approved ? nodes.tools(state) : { pendingToolCalls: [], error: "refused" };
        })
        .addEdge(START, "model")
        .addConditionalEdges("model", routeAfterModel, { tools: "tools", end: END })
        .addConditionalEdges("tools", routeAfterTools, { model: "model", end: END })
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines(build, initialAgentState(agentQuestion(script)), [
      () => new Command({ resume: true }),
      () => new Command({ resume: true }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini.map((r) => (r as { status: string }).status)).toEqual(["interrupted", "interrupted", "done"]);
    expect(run.last.state.finalAnswer).toBe("Tokyo: 18.0°C / 64.4°F, cloudy. Fixed teaching data, not live weather.");
    expect(run.langGraphRuns).toEqual(["tools", "tools", "tools", "tools"]);
  });

  it("the agent loop refused at its first tool batch ends the same way on both", async () => {
    const script = { task: "weather", city: "Paris", language: "en" } as const;
    const nodes = () => createAgentNodes(new ScriptedModel(script));
    const build = () => {
      const agent = nodes();
      const graph = new StateGraph<AgentState>({ reducers: { messages: append, events: append }, fields: [...AGENT_STATE_FIELDS] })
        .addNode("model", agent.model)
        .addNode("tools", (state) => (interrupt<boolean>({ ask: "run tools?" }) ? agent.tools(state) : { pendingToolCalls: [] }))
        .addEdge(START, "model")
        .addConditionalEdges("model", routeAfterModel, { tools: "tools", end: END })
        .addConditionalEdges("tools", routeAfterTools, { model: "model", end: END })
        .compile();
      return { graph, runs: [] };
    };
    const run = await onBothEngines(build, initialAgentState(agentQuestion(script)), [() => new Command({ resume: false })]);
    expect(run.langGraph).toEqual(run.mini);
  });
});
