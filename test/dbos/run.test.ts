/**
 * Graphs on DBOS against the mini engine: the report, agent and research examples, failures, limits
 * and policies give the same result (or the same error), each node execution is one recorded DBOS
 * step, and a finished run started again with its workflow id runs no node again.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { registerOnDBOS, runOnDBOS, retrieveOnDBOS, DBOSRunError } from "../../src/dbos/index.js";
import {
  AGENT_TASKS,
  agentQuestion,
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  ScriptedModel,
} from "../../src/examples/agent/index.js";
import { buildReportGraph, initialReportState } from "../../src/examples/report/index.js";
import { buildResearchGraph, initialResearchState } from "../../src/examples/research/index.js";
import { END, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { outcome, settleOn } from "./_compare.js";
import { draftInput, reviseLoop } from "../helpers/loop-graphs.js";
import { launchDBOSForFile } from "./_launch.js";

let calls: Record<string, number> = {};

const report = registerOnDBOS(buildReportGraph(), { name: "report" });
const revising = registerOnDBOS(buildReportGraph({ draftStyle: "stubborn", maxRevisions: 2 }), { name: "report-revising" });
const research = registerOnDBOS(buildResearchGraph(), { name: "research" });
const agentScript = AGENT_TASKS.map((task) => ({ task, city: "Tokyo", language: "en" }) as const);
const agents = agentScript.map((script) => ({
  script,
  graph: registerOnDBOS(buildAgentGraph(new ScriptedModel(script)), { name: `agent-${script.task}` }),
}));

/** Counts its node executions; `flaky` fails its first two attempts (it has a retry policy); `boom` always throws. */
const counted = registerOnDBOS(
  new StateGraph<{ n: number; log: string[] }>({ reducers: { log: (a: string[], b: string[]) => [...a, ...b] } })
    .addNode("a", (s) => {
      calls.a = (calls.a ?? 0) + 1;
      return { n: s.n + 1, log: ["a"] };
    })
    .addNode(
      "flaky",
      () => {
        calls.flaky = (calls.flaky ?? 0) + 1;
        if (calls.flaky % 3 !== 0) throw new Error(`flaky attempt ${calls.flaky}`);
        return { log: ["flaky"] };
      },
      { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } },
    )
    .addNode("b", async (s) => {
      calls.b = (calls.b ?? 0) + 1;
      return { n: s.n * 10, log: ["b"] };
    })
    .addNode("boom", (s) => {
      if (s.n > 100) throw new Error("n is too large");
      return { log: ["boom"] };
    })
    .addEdge(START, "a")
    .addEdge("a", "flaky")
    .addEdge("flaky", "b")
    .addEdge("b", "boom")
    .addEdge("boom", END)
    .compile(),
  { name: "counted" },
);

/** The revise loop bounded to one revision, with the exit hold and without an exit. */
const boundedToHold = registerOnDBOS(reviseLoop(1, "hold"), { name: "bounded-hold" });
const boundedNoExit = registerOnDBOS(reviseLoop(1), { name: "bounded-no-exit" });

const nextId = launchDBOSForFile("dbos_run");

async function stepNames(workflowId: string): Promise<string[]> {
  return ((await DBOS.listWorkflowSteps(workflowId)) ?? []).map((step) => step.name).filter((name) => !name.startsWith("DBOS."));
}

describe("runOnDBOS: the examples end as on the mini engine", () => {
  it("the report graph: same state, trace, steps and routes; one DBOS step per node execution", async () => {
    const input = initialReportState();
    const mini = await report.invoke(input, { maxSteps: 30 });
    const workflowId = nextId("report");
    const durable = await runOnDBOS(report, input, { workflowId, maxSteps: 30 });
    expect(durable.status).toBe("done");
    expect(durable.workflowId).toBe(workflowId);
    expect(outcome(durable)).toEqual(outcome(mini));
    expect(await stepNames(workflowId)).toEqual(mini.trace);
  });

  it("the report graph with revisions (the check ⇄ revise loop)", async () => {
    const input = initialReportState();
    const mini = await revising.invoke(input, { maxSteps: 30 });
    expect(mini.trace).toContain("revise_draft");
    expect(outcome(await runOnDBOS(revising, input, { workflowId: nextId("revising"), maxSteps: 30 }))).toEqual(outcome(mini));
  });

  it("the research graph: a parallel fan-out and its join; the papers subgraph runs as a child workflow", async () => {
    const input = initialResearchState("tides");
    const mini = await research.invoke(input);
    const workflowId = nextId("research");
    expect(outcome(await runOnDBOS(research, input, { workflowId }))).toEqual(outcome(mini));
    const expected = mini.trace.map((node) => (node === "papers" ? "tsg-subgraph:research" : node));
    expect((await stepNames(workflowId)).sort()).toEqual(expected.sort());
    const child = ((await DBOS.listWorkflowSteps(workflowId)) ?? []).find((step) => step.name === "tsg-subgraph:research");
    expect(await stepNames(child?.childWorkflowID ?? "")).toEqual(["search", "rank"]);
  });

  it.each(agents)("the agent graph, $script.task", async ({ script, graph }) => {
    const input = initialAgentState(agentQuestion(script));
    const maxSteps = agentStepLimit(6);
    const mini = await graph.invoke(input, { maxSteps });
    expect(outcome(await runOnDBOS(graph, input, { workflowId: nextId(`agent-${script.task}`), maxSteps }))).toEqual(outcome(mini));
  });
});

describe("runOnDBOS: the kernel's rules", () => {
  it("a retry policy runs inside the node's one step: the step records the final update", async () => {
    calls = {};
    const input = { n: 1, log: [] };
    const mini = await settleOn(counted.invoke(input));
    calls = {};
    const workflowId = nextId("counted");
    expect(await settleOn(runOnDBOS(counted, input, { workflowId }))).toEqual(mini);
    expect(calls).toEqual({ a: 1, flaky: 3, b: 1 });
    expect(await stepNames(workflowId)).toEqual(["a", "flaky", "b", "boom"]);
  });

  it("a node's failure is the mini engine's GraphExecutionError: code, node, state, trace", async () => {
    calls = { flaky: 2 };
    const input = { n: 20, log: [] };
    const mini = await settleOn(counted.invoke(input));
    calls = { flaky: 2 };
    const durable = await settleOn(runOnDBOS(counted, input, { workflowId: nextId("boom") }));
    expect(durable).toEqual(mini);
    expect(durable).toMatchObject({ failed: { name: "GraphExecutionError", code: "NODE_FAILED", node: "boom" } });
  });

  it("a loop bound goes to its exit, or fails with LOOP_BOUND, where the mini engine does", async () => {
    const input = draftInput(99);
    const held = await settleOn(runOnDBOS(boundedToHold, input, { workflowId: nextId("bound-hold") }));
    expect(held).toEqual(await settleOn(boundedToHold.invoke(input)));
    expect(held).toMatchObject({ ok: { trace: ["write", "check", "revise", "check", "hold"] } });
    const failed = await settleOn(runOnDBOS(boundedNoExit, input, { workflowId: nextId("bound-fail") }));
    expect(failed).toEqual(await settleOn(boundedNoExit.invoke(input)));
    expect(failed).toMatchObject({ failed: { name: "GraphLimitError", code: "LOOP_BOUND", node: "revise" } });
  });

  it("maxSteps stops the run where the mini engine does (GraphLimitError naming the node not started)", async () => {
    const input = initialReportState();
    const mini = await settleOn(revising.invoke(input, { maxSteps: 4 }));
    expect(await settleOn(runOnDBOS(revising, input, { workflowId: nextId("limit"), maxSteps: 4 }))).toEqual(mini);
    expect(mini).toMatchObject({ failed: { name: "GraphLimitError", code: "STEP_LIMIT" } });
  });

  it("an input the graph refuses is INVALID_INPUT before any workflow starts", async () => {
    const mini = await settleOn(report.invoke({ nope: 1 } as never));
    expect(await settleOn(runOnDBOS(report, { nope: 1 } as never, { workflowId: nextId("bad-input") }))).toEqual(mini);
  });

  it("an input that is not JSON (a function in a list) is NOT_SERIALIZABLE before any workflow starts, as on a thread", async () => {
    const input = { n: 1, log: [(() => 1) as unknown as string] };
    calls = {};
    const threaded = await settleOn(counted.invoke(input, { threadId: nextId("thread"), checkpointer: new MemoryCheckpointer() }));
    const workflowId = nextId("not-json");
    const durable = await settleOn(runOnDBOS(counted, input, { workflowId }));
    expect(threaded).toMatchObject({ failed: { name: "NotSerializableError", code: "NOT_SERIALIZABLE" } });
    expect(durable).toEqual(threaded);
    expect(calls).toEqual({});
    expect(await DBOS.getWorkflowStatus(workflowId)).toBeNull();
  });

  it("a finished run started again with its workflow id runs no node again and gives the same result", async () => {
    calls = {};
    const workflowId = nextId("again");
    const first = await runOnDBOS(counted, { n: 1, log: [] }, { workflowId });
    const seen = { ...calls };
    const second = await runOnDBOS(counted, { n: 1, log: [] }, { workflowId });
    expect(calls).toEqual(seen);
    expect(outcome(second)).toEqual(outcome(first));
    const retrieved = await (await retrieveOnDBOS(counted, workflowId)).result();
    expect(outcome(retrieved)).toEqual(outcome(first));
  });
});

describe("runOnDBOS: a replayed workflow runs no recorded node again", () => {
  // DBOS's fork copies the recorded steps before `startStep` into a new workflow and replays it: what a
  // recovery after a crash does, in one process.
  it("forked after two nodes: those two are replayed from their records, the rest run; same result", async () => {
    calls = {};
    const workflowId = nextId("fork");
    const first = await runOnDBOS(counted, { n: 1, log: [] }, { workflowId });
    calls = {};
    const fork = await DBOS.forkWorkflow(workflowId, 2, { newWorkflowID: `${workflowId}-fork` });
    const forked = await (await retrieveOnDBOS(counted, fork.workflowID)).result();
    expect(calls).toEqual({ b: 1 });
    expect(outcome(forked)).toEqual(outcome(first));
  });

  it("a recorded failure replays as the same error (code, message, node, state, trace)", async () => {
    calls = { flaky: 2 };
    const workflowId = nextId("fork-failed");
    const first = await settleOn(runOnDBOS(counted, { n: 20, log: [] }, { workflowId }));
    calls = {};
    const fork = await DBOS.forkWorkflow(workflowId, 4, { newWorkflowID: `${workflowId}-fork` });
    const forked = await settleOn((await retrieveOnDBOS(counted, fork.workflowID)).result());
    expect(calls).toEqual({});
    expect(forked).toEqual(first);
    expect(first).toMatchObject({ failed: { code: "NODE_FAILED", node: "boom" } });
  });
});

describe("runOnDBOS: bad input is a coded error", () => {
  it("an unregistered graph: DBOS_GRAPH_NOT_REGISTERED", async () => {
    const error = await runOnDBOS(buildReportGraph(), initialReportState(), { workflowId: nextId("x") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DBOSRunError);
    expect(error).toMatchObject({ code: "DBOS_GRAPH_NOT_REGISTERED" });
    expect((error as Error).message).toMatch(/^runOnDBOS: .*registerOnDBOS/);
  });

  it("not a compiled graph at all: the core's INVALID_OPTION, before the registration question", async () => {
    const error = await runOnDBOS({} as typeof report, initialReportState(), { workflowId: nextId("x") }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_OPTION" });
    expect(error).not.toBeInstanceOf(DBOSRunError);
  });

  it("an unknown workflow id: DBOS_RUN_NOT_FOUND", async () => {
    await expect(retrieveOnDBOS(report, "no-such-run")).rejects.toMatchObject({ code: "DBOS_RUN_NOT_FOUND", workflowId: "no-such-run" });
  });

  it("registering after launch: DBOS_ALREADY_LAUNCHED", () => {
    expect(() => registerOnDBOS(buildReportGraph(), { name: "late" })).toThrow(expect.objectContaining({ code: "DBOS_ALREADY_LAUNCHED" }));
  });

  it("a missing workflow id: INVALID_OPTION", async () => {
    await expect(runOnDBOS(report, initialReportState(), { workflowId: "" })).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});
