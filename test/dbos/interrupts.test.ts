/**
 * Interrupts on DBOS: a run compiled with `interruptBefore` / `interruptAfter` pauses as a thread does
 * (same state, trace, interrupt), waits in DBOS's `recv` for the resume message, and goes on with the
 * same update rules as `updateState`; its final state equals the threaded run's.
 */
import { describe, expect, it } from "vitest";
import { DBOSRunError, registerOnDBOS, resumeOnDBOS, retrieveOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { buildReportGraph, initialReportState, type ReportState } from "../../src/examples/report/index.js";
import { append, END, START, StateGraph, union, type CompileOptions, type CompiledGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { launchDBOSForFile } from "./_launch.js";

const beforePublish = registerOnDBOS(buildReportGraph({}, { interruptBefore: ["publish"] }), { name: "report-before-publish" });
const afterCheck = registerOnDBOS(buildReportGraph({}, { interruptAfter: ["check_draft"] }), { name: "report-after-check" });
const plain = registerOnDBOS(buildReportGraph(), { name: "report-plain" });
/** START → plan → {web, papers} → synthesize → END, paused before (or after) the join's target. */
interface FanOutState {
  topic: string;
  findings: string[];
  log: string[];
  summary: string | null;
}
function fanOut(compileOptions: CompileOptions<"plan" | "web" | "papers" | "synthesize">): CompiledGraph<FanOutState> {
  return new StateGraph<FanOutState>({
    reducers: { findings: union, log: append },
  })
    .addNode("plan", (s) => ({ log: [`plan ${s.topic}`] }))
    .addNode("web", async (s) => ({ findings: [`web:${s.topic}`], log: ["web"] }))
    .addNode("papers", (s) => ({ findings: [`papers:${s.topic}`], log: ["papers"] }))
    .addNode("synthesize", (s) => ({ summary: s.findings.join(", ") }))
    .addEdge(START, "plan")
    .addEdge("plan", ["web", "papers"])
    .addEdge(["web", "papers"], "synthesize")
    .addEdge("synthesize", END)
    .compile(compileOptions);
}
const researchInput = (): FanOutState => ({ topic: "tides", findings: [], log: [], summary: null });
const fanOutBefore = registerOnDBOS(fanOut({ interruptBefore: ["synthesize"] }), { name: "fan-out-before" });
const fanOutAfter = registerOnDBOS(fanOut({ interruptAfter: ["web"] }), { name: "fan-out-after" });

const nextId = launchDBOSForFile("dbos_interrupts");

/** What a paused or finished run and a thread must agree on. */
function where(result: { state: unknown; trace: unknown; routes: unknown; supersteps: number; status: string }) {
  const { state, trace, routes, supersteps, status } = result;
  return { state, trace, routes, supersteps, status };
}

describe("interruptBefore on DBOS: pauses and resumes as a thread does", () => {
  it("pauses before publish with the thread's state and trace, and the go-ahead publishes", async () => {
    const checkpointer = new MemoryCheckpointer();
    const threadPaused = await beforePublish.invoke(initialReportState(), { threadId: "t", checkpointer, maxSteps: 30 });
    const workflowId = nextId("before");
    const paused = await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "before", nodes: ["publish"] } });
    expect(where(paused)).toEqual(where(threadPaused));

    const threadDone = await beforePublish.invoke(null, { threadId: "t", checkpointer, maxSteps: 30 });
    const done = await resumeOnDBOS(beforePublish, workflowId);
    expect(done.status).toBe("done");
    expect(where(done)).toEqual(where(threadDone));
    // And it equals an uninterrupted run.
    expect(done.state).toEqual((await plain.invoke(initialReportState(), { maxSteps: 30 })).state);
  });

  it("an edit applied as revise_draft goes back through check_draft, as updateState does", async () => {
    const checkpointer = new MemoryCheckpointer();
    const threadPaused = await beforePublish.invoke(initialReportState(), { threadId: "e", checkpointer, maxSteps: 30 });
    const draft = threadPaused.state.draft;
    if (draft === null) throw new Error("the paused run has no draft");
    const update: Partial<ReportState> = { draft: { ...draft, notice: "edited by hand" }, review: null, events: ["edited"] };
    await beforePublish.updateState("e", update, { asNode: "revise_draft", checkpointer });
    const threadNext = await beforePublish.invoke(null, { threadId: "e", checkpointer, maxSteps: 30 });

    const workflowId = nextId("edit");
    await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    const next = await resumeOnDBOS(beforePublish, workflowId, { update, asNode: "revise_draft" });
    expect(where(next)).toEqual(where(threadNext));
    expect(next.trace.slice(-1)).toEqual(threadNext.trace.slice(-1));
  });

  it("an update without asNode counts as the node that ran last, as updateState does", async () => {
    const checkpointer = new MemoryCheckpointer();
    await beforePublish.invoke(initialReportState(), { threadId: "u", checkpointer, maxSteps: 30 });
    const update: Partial<ReportState> = { events: ["approved by a person"] };
    await beforePublish.updateState("u", update, { checkpointer });
    const threadDone = await beforePublish.invoke(null, { threadId: "u", checkpointer, maxSteps: 30 });

    const workflowId = nextId("update");
    await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    expect(where(await resumeOnDBOS(beforePublish, workflowId, { update }))).toEqual(where(threadDone));
  });

  it("interruptAfter pauses after each check_draft, as a thread does", async () => {
    const checkpointer = new MemoryCheckpointer();
    const workflowId = nextId("after");
    let thread = await afterCheck.invoke(initialReportState(), { threadId: "a", checkpointer, maxSteps: 30 });
    let durable = await runOnDBOS(afterCheck, initialReportState(), { workflowId, maxSteps: 30 });
    expect(durable).toMatchObject({ status: "interrupted", interrupt: { when: "after", nodes: ["check_draft"] } });
    for (let pauses = 1; thread.status === "interrupted"; pauses++) {
      expect(where(durable)).toEqual(where(thread));
      expect(pauses).toBeLessThan(10);
      thread = await afterCheck.invoke(null, { threadId: "a", checkpointer, maxSteps: 30 });
      durable = await resumeOnDBOS(afterCheck, workflowId);
    }
    expect(where(durable)).toEqual(where(thread));
  });

  it("a parallel graph paused before its join target resumes to the uninterrupted state", async () => {
    const workflowId = nextId("fan-out");
    const paused = await runOnDBOS(fanOutBefore, researchInput(), { workflowId });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "before", nodes: ["synthesize"] } });
    const done = await resumeOnDBOS(fanOutBefore, workflowId);
    expect(done.state).toEqual((await fanOut({}).invoke(researchInput())).state);
  });

  it("after a superstep of several nodes, an update must name its node (AMBIGUOUS_UPDATE, as updateState); the go-ahead finishes", async () => {
    const workflowId = nextId("ambiguous");
    const paused = await runOnDBOS(fanOutAfter, researchInput(), { workflowId });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "after", nodes: ["web"] } });
    await expect(resumeOnDBOS(fanOutAfter, workflowId, { update: { log: ["edit"] } })).rejects.toMatchObject({
      code: "AMBIGUOUS_UPDATE",
      node: "web",
    });
    const done = await resumeOnDBOS(fanOutAfter, workflowId);
    expect(done.state).toEqual((await fanOut({}).invoke(researchInput())).state);
  });

  it("a run retrieved while paused (another process's view) waits for the same stop", async () => {
    const workflowId = nextId("retrieved");
    const paused = await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    const retrieved = await (await retrieveOnDBOS(beforePublish, workflowId)).result();
    expect(where(retrieved)).toEqual(where(paused));
  });
});

describe("resumeOnDBOS: bad input is a coded error", () => {
  it("a run that is not paused: DBOS_NOT_INTERRUPTED", async () => {
    const workflowId = nextId("not-paused");
    await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    await resumeOnDBOS(beforePublish, workflowId);
    const error = await resumeOnDBOS(beforePublish, workflowId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DBOSRunError);
    expect(error).toMatchObject({ code: "DBOS_NOT_INTERRUPTED", workflowId });
  });

  it("a resume value for a run paused at interruptBefore: NO_PENDING_INTERRUPT, as on a thread", async () => {
    const workflowId = nextId("static-resume");
    await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    const error = await resumeOnDBOS(beforePublish, workflowId, { resume: "yes" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NO_PENDING_INTERRUPT" });
    expect((error as Error).message).toContain(`run "${workflowId}" has no pending interrupt to resume`);
    expect((await resumeOnDBOS(beforePublish, workflowId)).status).toBe("done");
  });

  it("an unknown workflow id: DBOS_RUN_NOT_FOUND", async () => {
    await expect(resumeOnDBOS(beforePublish, "no-such-run")).rejects.toMatchObject({ code: "DBOS_RUN_NOT_FOUND" });
  });

  it("an asNode that is not a node: INVALID_OPTION; an undeclared field: UNDECLARED_FIELD", async () => {
    const workflowId = nextId("bad-resume");
    await runOnDBOS(beforePublish, initialReportState(), { workflowId, maxSteps: 30 });
    await expect(resumeOnDBOS(beforePublish, workflowId, { asNode: "nope" })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(resumeOnDBOS(beforePublish, workflowId, { update: { nope: 1 } as never })).rejects.toMatchObject({
      code: "UNDECLARED_FIELD",
    });
    // Still paused: the refused resumes sent nothing.
    expect((await resumeOnDBOS(beforePublish, workflowId)).status).toBe("done");
  });
});
