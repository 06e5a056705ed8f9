/**
 * In-node interrupts on DBOS: a node's `interrupt()` call pauses the durable run as it pauses a thread
 * (same ids, nodes, payloads, state), the run waits in DBOS's `recv`, and `resumeOnDBOS` answers it with
 * the same values (a `defineInterrupt`'s typed `.resume`, or a map by id) and the same rules: an
 * ambiguous or unknown answer is refused before anything is sent, a schema's refusal leaves the run
 * paused where it stood, and a finished sibling of a paused node never runs again.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registerOnDBOS, resumeOnDBOS, retrieveOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { append, Command, defineInterrupt, END, InterruptError, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { launchDBOSForFile } from "./_launch.js";

interface Doc {
  draft: string;
  log: string[];
}

const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval", {
  schema: z.object({ approved: z.boolean() }),
});

/** Node runs, counted across the file: a DBOS step that completed must never run again. */
const runs: Record<string, number> = {};
const count = (node: string) => {
  runs[node] = (runs[node] ?? 0) + 1;
};

/** START → write → review (asks for an approval) → publish → END. */
const review = registerOnDBOS(
  new StateGraph<Doc>({ reducers: { log: append } })
    .addNode("write", () => (count("write"), { draft: "v1", log: ["write"] }))
    .addNode("review", async (s) => {
      count("review");
      await Promise.resolve();
      const { approved } = approval({ draft: s.draft });
      return { log: [`review ${approved ? "approved" : "rejected"} ${s.draft}`] };
    })
    .addNode("publish", () => (count("publish"), { log: ["publish"] }))
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addEdge("review", "publish")
    .addEdge("publish", END)
    .compile(),
  { name: "in-node-review" },
);

/** START → ask → END: ask asks under a retry policy that retries anything (a refused answer is never retried). */
const retriedAsk = registerOnDBOS(
  new StateGraph<Doc>({ reducers: { log: append } })
    .addNode("ask", () => (count("retried-ask"), { log: [`ask ${approval({ draft: "d" }).approved}`] }), {
      retry: { maxAttempts: 3, initialInterval: 1, jitter: false, retryOn: () => true },
    })
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile(),
  { name: "in-node-retried-ask" },
);

/** START → {legal, brand, format} → END: legal and brand each ask, format does not. */
const parallel = registerOnDBOS(
  new StateGraph<Doc>({ reducers: { log: append } })
    .addNode("legal", () => (count("legal"), { log: [`legal ${approval({ draft: "legal" }).approved}`] }))
    .addNode("brand", () => (count("brand"), { log: [`brand ${approval({ draft: "brand" }).approved}`] }))
    .addNode("format", () => (count("format"), { log: ["format"] }))
    .addEdge(START, ["legal", "brand", "format"])
    .addEdge("legal", END)
    .addEdge("brand", END)
    .addEdge("format", END)
    .compile(),
  { name: "in-node-parallel" },
);

/** START → confirm → END: confirm asks, then fails its first run past the answer; under a retry policy when `retried`. */
function confirming(name: string, retried: boolean) {
  let left = 1;
  return registerOnDBOS(
    new StateGraph<Doc>({ reducers: { log: append } })
      .addNode(
        "confirm",
        () => {
          count(name);
          const { approved } = approval({ draft: "d" });
          if (left-- > 0) throw new Error("the mail server is down");
          return { log: [`confirm ${approved}`] };
        },
        retried ? { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } } : {},
      )
      .addEdge(START, "confirm")
      .addEdge("confirm", END)
      .compile(),
    { name: `in-node-${name}` },
  );
}
const retriedConfirm = confirming("retried-confirm", true);
const failingConfirm = confirming("failing-confirm", false);

const nextId = launchDBOSForFile("dbos_in_node");
const input = (): Doc => ({ draft: "", log: [] });

function where(result: { state: unknown; trace: unknown; supersteps: number; status: string; interrupt?: unknown }) {
  const { state, trace, supersteps, status, interrupt } = result;
  return { state, trace, supersteps, status, interrupt };
}

describe("interrupt() in a node of a durable run", () => {
  it("pauses as a thread does, and the typed resume finishes as a thread does; write runs once", async () => {
    const checkpointer = new MemoryCheckpointer();
    const threadPaused = await review.invoke(input(), { threadId: "t", checkpointer });
    const threadDone = await review.invoke(approval.resume({ approved: true }), { threadId: "t", checkpointer });
    const workflowId = nextId("review");
    const before = { ...runs };
    const paused = await runOnDBOS(review, input(), { workflowId });
    expect(paused).toMatchObject({
      status: "interrupted",
      interrupt: { when: "during", nodes: ["review"], interrupts: [{ id: "review:2:0:0", name: "approval", value: { draft: "v1" } }] },
    });
    expect(where(paused)).toEqual(where(threadPaused));
    const done = await resumeOnDBOS(review, workflowId, approval.resume({ approved: true }));
    expect(done.status).toBe("done");
    expect(where(done)).toEqual(where(threadDone));
    expect(done.state.log).toEqual(["write", "review approved v1", "publish"]);
    // The node ran again from its start, as LangGraph's does; write, recorded, never did.
    expect({ write: (runs.write ?? 0) - (before.write ?? 0), review: (runs.review ?? 0) - (before.review ?? 0) }).toEqual({
      write: 1,
      review: 2,
    });
  });

  it("an update with the answer is merged before the node runs again", async () => {
    const workflowId = nextId("update");
    await runOnDBOS(review, input(), { workflowId });
    const done = await resumeOnDBOS(review, workflowId, new Command({ resume: { approved: false }, update: { draft: "v2" } }));
    expect(done.state).toEqual({ draft: "v2", log: ["write", "review rejected v2", "publish"] });
  });

  it("goto replaces the paused node: the run goes on from there", async () => {
    const workflowId = nextId("goto");
    await runOnDBOS(review, input(), { workflowId });
    const done = await resumeOnDBOS(review, workflowId, { goto: "publish" });
    expect(done).toMatchObject({ status: "done", state: { log: ["write", "publish"] }, trace: ["write", "publish"] });
  });

  it("a value the interrupt's schema refuses: INVALID_RESUME, and the run stays paused where it stood", async () => {
    const workflowId = nextId("refused");
    await runOnDBOS(review, input(), { workflowId });
    const error = await resumeOnDBOS(review, workflowId, new Command({ resume: { approved: "yes" }, update: { draft: "v9" } })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InterruptError);
    expect(error).toMatchObject({ code: "INVALID_RESUME" });
    expect((error as Error).message).toMatch(/^approval: the resume value/);
    // Nothing of the refused resume stayed, not even its update.
    const again = await (await retrieveOnDBOS(review, workflowId)).result();
    expect(again).toMatchObject({ status: "interrupted", state: { draft: "v1", log: ["write"] }, interrupt: { nodes: ["review"] } });
    const done = await resumeOnDBOS(review, workflowId, approval.resume({ approved: true }));
    expect(done.state.log).toEqual(["write", "review approved v1", "publish"]);
  });

  it("a value the schema refuses under a retry policy is tried once: INVALID_RESUME is never retried", async () => {
    const workflowId = nextId("retried-ask");
    await runOnDBOS(retriedAsk, input(), { workflowId });
    const before = runs["retried-ask"] ?? 0;
    await expect(resumeOnDBOS(retriedAsk, workflowId, new Command({ resume: { approved: "yes" } }))).rejects.toMatchObject({
      code: "INVALID_RESUME",
    });
    // One attempt that got the refused answer (never a second), then the run that pauses again where it stood.
    expect((runs["retried-ask"] ?? 0) - before).toBe(2);
  });
});

describe("a node that fails after its interrupt was answered, on DBOS", () => {
  it("under a retry policy, the next attempt gets the answer instead of asking again, as on a thread", async () => {
    const workflowId = nextId("retried");
    const before = runs["retried-confirm"] ?? 0;
    await runOnDBOS(retriedConfirm, input(), { workflowId });
    const done = await resumeOnDBOS(retriedConfirm, workflowId, approval.resume({ approved: true }));
    expect(done).toMatchObject({ status: "done", state: { log: ["confirm true"] } });
    // Asked once, then the resumed step: a failed attempt and the one that got the answer.
    expect((runs["retried-confirm"] ?? 0) - before).toBe(3);
  });

  it("without one, the run fails with the node's error and is over: there is no run left to keep the answer for", async () => {
    const workflowId = nextId("failed");
    await runOnDBOS(failingConfirm, input(), { workflowId });
    await expect(resumeOnDBOS(failingConfirm, workflowId, approval.resume({ approved: true }))).rejects.toMatchObject({
      code: "NODE_FAILED",
    });
    await expect(resumeOnDBOS(failingConfirm, workflowId, approval.resume({ approved: true }))).rejects.toMatchObject({
      code: "DBOS_NOT_INTERRUPTED",
    });
  });
});

describe("parallel interrupts on DBOS", () => {
  it("each pending interrupt has its own id; a partial map resumes those and pauses again; format runs once", async () => {
    const checkpointer = new MemoryCheckpointer();
    const threadPaused = await parallel.invoke(input(), { threadId: "p", checkpointer });
    const workflowId = nextId("parallel");
    const before = { ...runs };
    const paused = await runOnDBOS(parallel, input(), { workflowId });
    expect(where(paused)).toEqual(where(threadPaused));
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const [legal, brand] = paused.interrupt.interrupts ?? [];
    expect([legal?.node, brand?.node]).toEqual(["legal", "brand"]);

    const threadHalf = await parallel.invoke(approval.resumeById({ [legal?.id as string]: { approved: true } }), {
      threadId: "p",
      checkpointer,
    });
    const half = await resumeOnDBOS(parallel, workflowId, approval.resumeById({ [legal?.id as string]: { approved: true } }));
    expect(half).toMatchObject({ status: "interrupted", interrupt: { nodes: ["brand"] } });
    expect(where(half)).toEqual(where(threadHalf));

    const threadDone = await parallel.invoke(approval.resume({ approved: false }), { threadId: "p", checkpointer });
    const done = await resumeOnDBOS(parallel, workflowId, approval.resume({ approved: false }));
    expect(where(done)).toEqual(where(threadDone));
    expect(done.state.log).toEqual(["legal true", "brand false", "format"]);
    expect((runs.format ?? 0) - (before.format ?? 0)).toBe(1);
  });

  it("one value for several, an empty map, an unknown id, a resume of a static pause: refused before anything is sent", async () => {
    const workflowId = nextId("ambiguous");
    await runOnDBOS(parallel, input(), { workflowId });
    await expect(resumeOnDBOS(parallel, workflowId, approval.resume({ approved: true }))).rejects.toMatchObject({
      code: "AMBIGUOUS_RESUME",
    });
    await expect(resumeOnDBOS(parallel, workflowId, { resume: {} })).rejects.toMatchObject({ code: "AMBIGUOUS_RESUME" });
    await expect(resumeOnDBOS(parallel, workflowId, { resume: { "legal:9:0:0": { approved: true } } })).rejects.toMatchObject({
      code: "UNKNOWN_INTERRUPT",
      interruptId: "legal:9:0:0",
    });
    await expect(resumeOnDBOS(parallel, workflowId, { asNode: "legal", update: { log: ["x"] } })).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
    await expect(resumeOnDBOS(parallel, workflowId, { goto: "nope" })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    // Still paused for both: the refused resumes sent nothing.
    const paused = await (await retrieveOnDBOS(parallel, workflowId)).result();
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { nodes: ["legal", "brand"] } });
  });
});
