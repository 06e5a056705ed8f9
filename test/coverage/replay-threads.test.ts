/**
 * Replaying a planned path on a thread: the scripted graph keeps the graph's compile options (its
 * checkpointer, its static interrupts, its node policies), and a replay that pauses on the way says
 * where it paused and how to go on, rather than blaming the plan.
 */
import { describe, expect, it } from "vitest";
import { coveragePlan, CoverageError, replayPath, type CoveragePath } from "../../src/coverage/index.js";
import { defineInterrupt, END, START, stateGraph, type CompileOptions } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Ticket {
  readonly question: string;
  readonly kind: "billing" | "question" | null;
  readonly answer: string | null;
}

const refund = defineInterrupt<{ question: string }, { approved: boolean }>("refund");

/** A triage bot: classify, then billing (which asks a person before a refund) or an answer. */
function triage(options: CompileOptions<"classify" | "billing" | "answer"> = {}) {
  return stateGraph<Ticket>()({ reducers: {} })
    .addNode("classify", (s) => ({ kind: s.question.includes("refund") ? ("billing" as const) : ("question" as const) }))
    .addNode("billing", (s) => {
      if (!s.question.includes("refund")) return { answer: "See your invoice." };
      const { approved } = refund({ question: s.question });
      return { answer: approved ? "Refunded." : "No refund." };
    })
    .addNode("answer", () => ({ answer: "Here is how." }))
    .addEdge(START, "classify")
    .addConditionalEdges("classify", (s) => (s.kind === "billing" ? "billing" : "answer"), { billing: "billing", answer: "answer" })
    .addEdge("billing", END)
    .addEdge("answer", END)
    .compile(options);
}

const ticket = (question: string): Ticket => ({ question, kind: null, answer: null });

function pathNamed(name: string): CoveragePath {
  const path = coveragePlan(triage()).paths.find((planned) => planned.name === name);
  if (path === undefined) throw new Error(`no planned path "${name}"`);
  return path;
}

/** The error a replay that should pause rejects with: a CoverageError of code REPLAY_PAUSED. */
async function pausedReplay(replay: Promise<unknown>): Promise<CoverageError> {
  const error = await replay.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CoverageError)) throw new Error(`expected a CoverageError, got ${String(error)}`);
  expect(error.code).toBe("REPLAY_PAUSED");
  return error;
}

describe("a replay keeps the graph's compile options", () => {
  it("replays on a thread with the checkpointer the graph was compiled with", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = triage({ checkpointer });
    const result = await replayPath(graph, pathNamed("billing"), ticket("Where is my invoice?"), { threadId: "r1" });
    expect([result.trace, result.state.answer]).toEqual([["classify", "billing"], "See your invoice."]);
    expect((await graph.getState("r1"))?.state.answer).toBe("See your invoice.");
  });

  it("pauses where the graph was compiled to pause (interruptBefore)", async () => {
    const graph = triage({ checkpointer: new MemoryCheckpointer(), interruptBefore: ["billing"] });
    const error = await pausedReplay(replayPath(graph, pathNamed("billing"), ticket("Where is my invoice?"), { threadId: "r2" }));
    expect(error.message).toBe(
      'replayPath: the run paused before "billing" (compiled with interruptBefore) after classify, so it did not finish the path ' +
        'classify → billing. The pause is saved on thread "r2": answer it and continue there (e.g. graph.invoke(null, { threadId: "r2" }), ' +
        "with the same checkpointer), or replay a scenario that does not reach the interrupt.",
    );
  });

  it("runs each node under the retry policy the graph was compiled with", async () => {
    let calls = 0;
    const graph = stateGraph<{ n: number }>()({ reducers: {} })
      .addNode("flaky", (s) => {
        calls += 1;
        if (calls === 1) throw new Error("transient");
        return { n: s.n + 1 };
      })
      .addEdge(START, "flaky")
      .addConditionalEdges("flaky", () => "end", { end: END })
      .compile({ retry: { maxAttempts: 2, initialInterval: 1, jitter: false } });
    const [path] = coveragePlan(graph).paths;
    const { state } = await replayPath(graph, path as CoveragePath, { n: 0 });
    expect([state.n, calls]).toEqual([1, 2]);
  });
});

describe("a replay that pauses at an in-node interrupt", () => {
  it("is refused with REPLAY_PAUSED, naming the node and the interrupt, and the thread continues", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = triage();
    const thread = { threadId: "r3", checkpointer };
    const error = await pausedReplay(replayPath(graph, pathNamed("billing"), ticket("I want a refund"), thread));
    expect(error.message).toBe(
      'replayPath: the run paused in "billing" at the interrupt "refund" after classify, so it did not finish the path ' +
        'classify → billing. The pause is saved on thread "r3": answer it and continue there ' +
        '(e.g. graph.invoke(refund.resume(answer), { threadId: "r3" }), with the same checkpointer), or replay a scenario that does not reach the interrupt.',
    );
    const resumed = await graph.invoke(refund.resume({ approved: true }), thread);
    expect([resumed.status, resumed.trace, resumed.state.answer]).toEqual(["done", ["classify", "billing"], "Refunded."]);
  });

  it("still reports a run that left the path before it paused as REPLAY_DIVERGED", async () => {
    const path = { trace: ["answer", "billing"], routes: [{ from: "classify", key: "billing" }] };
    const thread = { threadId: "r4", checkpointer: new MemoryCheckpointer() };
    await expect(replayPath(triage(), path, ticket("I want a refund"), thread)).rejects.toMatchObject({ code: "REPLAY_DIVERGED" });
  });
});
