/**
 * A resumed superstep that fails keeps the answers it was given (LangGraph keeps them as pending
 * writes): the thread saves an `interrupt` checkpoint like the one it resumed, with the answers and the
 * writes its tasks kept, so `invoke(null)` runs the node again with its answer instead of asking again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { append, Command, defineInterrupt, END, interrupt, START, StateGraph } from "../../../src/index.js";
import { MemoryCheckpointer, type Checkpointer } from "../../../src/persistence/index.js";
import { answersToKeep } from "../../../src/engine/threads/resume.js";
import { storesUnderTest } from "../../persistence/_helpers.js";

interface Flow {
  log: string[];
}
const FLOW = { reducers: { log: append }, fields: ["log"] } as const;

describe("answersToKeep", () => {
  const pending = { interrupts: [{ id: "a:1:0:0", node: "a", value: null }], resumes: { "b:1:1:0": "B" } };

  it("adds the answers given to those the checkpoint keeps", () => {
    expect(answersToKeep(pending, { "b:1:1:0": "B", "a:1:0:0": "A" }, new Set())).toEqual({ "a:1:0:0": "A", "b:1:1:0": "B" });
  });

  it("is undefined when nothing is new: the thread keeps them already", () => {
    expect(answersToKeep(pending, { "b:1:1:0": "B" }, new Set())).toBeUndefined();
    expect(answersToKeep(pending, {}, new Set())).toBeUndefined();
  });

  it("a new value for a kept answer replaces it", () => {
    expect(answersToKeep(pending, { "b:1:1:0": "B2" }, new Set())).toEqual({ "b:1:1:0": "B2" });
  });

  it("leaves out the answers a schema refused", () => {
    expect(answersToKeep(pending, { "a:1:0:0": { ok: "no" } }, new Set(["a:1:0:0"]))).toBeUndefined();
  });

  it("is undefined for a checkpoint that waits for no interrupt (a failure past the resumed superstep)", () => {
    expect(answersToKeep({ resumes: {} }, { "a:1:0:0": "A" }, new Set())).toBeUndefined();
  });
});

describe.each(storesUnderTest("resume-failure.db"))("a resumed superstep that fails, on %s", (_, open) => {
  let store: { checkpointer: Checkpointer; close(): void } | undefined;
  afterEach(() => store?.close());
  const checkpointerOf = () => {
    store = open();
    return store.checkpointer;
  };

  /** START → {ask, sibling} → END: both ask; ask then fails its first `fails` runs past its question. */
  function graph(fails: number) {
    const runs: string[] = [];
    let left = fails;
    const compiled = new StateGraph<Flow>(FLOW)
      .addNode("ask", async () => {
        runs.push("ask");
        const answer = interrupt<string>({ q: "go?" });
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (left-- > 0) throw new Error("disk full");
        return { log: [`ask:${answer}`] };
      })
      .addNode("sibling", async () => {
        runs.push("sibling");
        return { log: [`sibling:${interrupt<string>({ q: "and you?" })}`] };
      })
      .addEdge(START, ["ask", "sibling"])
      .addEdge(["ask", "sibling"], END)
      .compile();
    return { graph: compiled, runs };
  }
  const both = { "ask:1:0:0": "yes", "sibling:1:1:0": "S" };

  it("saves an interrupt checkpoint with the answers and the writes kept meanwhile; null retries with them", async () => {
    const checkpointer = checkpointerOf();
    const { graph: g, runs } = graph(2);
    const options = { threadId: "t", checkpointer };
    const paused = await g.invoke({ log: [] }, options);
    expect(paused.status).toBe("interrupted");
    await expect(g.invoke(new Command({ resume: both }), options)).rejects.toMatchObject({ code: "NODE_FAILED" });

    const kept = await checkpointer.latest("t");
    expect(kept).toMatchObject({
      parentId: paused.checkpointId,
      metadata: { source: "interrupt", writes: [] },
      next: ["ask", "sibling"],
      interrupts: [{ id: "ask:1:0:0" }, { id: "sibling:1:1:0" }],
      resumes: both,
      // The sibling answered and finished while ask failed: its write, kept on the resumed checkpoint, comes
      // along, beside the reserved write that records ask's failure (getState's tasks[0].error).
      pendingWrites: [
        {
          task: 0,
          node: "ask",
          update: { __tsg_error__: { name: "GraphExecutionError", code: "NODE_FAILED", message: expect.stringContaining("disk full") } },
        },
        { task: 1, node: "sibling", update: { log: ["sibling:S"] } },
      ],
    });
    expect(kept?.state).toEqual({ log: [] });

    // A second failure with nothing new to keep writes nothing more.
    await expect(g.invoke(null, options)).rejects.toMatchObject({ code: "NODE_FAILED" });
    expect((await checkpointer.latest("t"))?.id).toBe(kept?.id);

    const done = await g.invoke(null, options);
    expect(done).toMatchObject({ status: "done", state: { log: ["ask:yes", "sibling:S"] } });
    expect(runs).toEqual(["ask", "sibling", "ask", "sibling", "ask", "ask"]);
  });

  it("a new answer after the failure replaces the kept one", async () => {
    const checkpointer = checkpointerOf();
    const { graph: g } = graph(1);
    const options = { threadId: "t", checkpointer };
    await g.invoke({ log: [] }, options);
    await expect(g.invoke(new Command({ resume: both }), options)).rejects.toMatchObject({ code: "NODE_FAILED" });
    const done = await g.invoke(new Command({ resume: { "ask:1:0:0": "no" } }), options);
    expect(done).toMatchObject({ status: "done", state: { log: ["ask:no", "sibling:S"] } });
  });

  it("a failure past the resumed superstep keeps nothing more: null goes on from the committed one", async () => {
    const checkpointer = checkpointerOf();
    let left = 1;
    const g = new StateGraph<Flow>(FLOW)
      .addNode("ask", () => ({ log: [`ask:${interrupt<string>({ q: 1 })}`] }))
      .addNode("later", () => {
        if (left-- > 0) throw new Error("disk full");
        return { log: ["later"] };
      })
      .addEdge(START, "ask")
      .addEdge("ask", "later")
      .addEdge("later", END)
      .compile();
    const options = { threadId: "t", checkpointer };
    await g.invoke({ log: [] }, options);
    await expect(g.invoke(new Command({ resume: "yes" }), options)).rejects.toMatchObject({ code: "NODE_FAILED" });
    const latest = await checkpointer.latest("t");
    expect(latest).toMatchObject({ metadata: { source: "loop", writes: ["ask"] }, next: ["later"] });
    expect(latest?.resumes).toBeUndefined();
    expect((await g.invoke(null, options)).state.log).toEqual(["ask:yes", "later"]);
  });
});

describe("an answer a schema refuses is not kept", () => {
  const approval = defineInterrupt<null, { approved: boolean }>("approval", { schema: z.object({ approved: z.boolean() }) });

  /** START → {other, review} → END: other asks, then fails once; review asks with a schema. Inside a subgraph `sub` when `nested`. */
  function build(nested: boolean) {
    let left = 1;
    const g = new StateGraph<Flow>(FLOW)
      .addNode("other", async () => {
        const answer = interrupt<string>({ q: "other?" });
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (left-- > 0) throw new Error("disk full");
        return { log: [`other:${answer}`] };
      })
      .addNode("review", async () => ({ log: [`review:${approval(null).approved}`] }))
      .addEdge(START, ["other", "review"])
      .addEdge(["other", "review"], END)
      .compile();
    return nested ? new StateGraph<Flow>(FLOW).addNode("sub", g).addEdge(START, "sub").addEdge("sub", END).compile() : g;
  }

  it.each([
    ["at the top level", false, ""],
    ["inside a subgraph", true, "sub:1:0/"],
  ])(
    "%s, even when a sibling's failure is the one reported: null asks it again, and keeps the sibling's answer",
    async (_, nested, prefix) => {
      const g = build(nested);
      const options = { threadId: "t", checkpointer: new MemoryCheckpointer() };
      await g.invoke({ log: [] }, options);
      const resume = new Command({ resume: { [`${prefix}other:1:0:0`]: "O", [`${prefix}review:1:1:0`]: { approved: "yes" } } });
      // "other" comes first in the superstep, so its failure is the one reported, not review's refusal.
      await expect(g.invoke(resume, options)).rejects.toMatchObject({ code: "NODE_FAILED" });
      expect((await options.checkpointer.latest("t"))?.resumes).toEqual({ [`${prefix}other:1:0:0`]: "O" });
      const again = await g.invoke(null, options);
      expect(again.status === "interrupted" && again.interrupt.interrupts?.map((i) => i.id)).toEqual([`${prefix}review:1:1:0`]);
      const done = await g.invoke(approval.resume({ approved: true }), options);
      expect(done).toMatchObject({ status: "done", state: { log: ["other:O", "review:true"] } });
    },
  );

  it("inside a subgraph whose node caught the refusal and went on: a sibling's failure keeps the sibling's answer only", async () => {
    const child = new StateGraph<Flow>(FLOW)
      .addNode("review", () => {
        try {
          return { log: [`review:${approval(null).approved}`] };
        } catch (error) {
          if ((error as { code?: unknown }).code === "INVALID_RESUME") return { log: ["review:refused"] };
          throw error;
        }
      })
      .addEdge(START, "review")
      .addEdge("review", END)
      .compile();
    let left = 1;
    const g = new StateGraph<Flow>(FLOW)
      .addNode("sub", child)
      .addNode("other", async () => {
        const answer = interrupt<string>({ q: "other?" });
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (left-- > 0) throw new Error("disk full");
        return { log: [`other:${answer}`] };
      })
      .addEdge(START, ["sub", "other"])
      .addEdge(["sub", "other"], END)
      .compile();
    const options = { threadId: "t", checkpointer: new MemoryCheckpointer() };
    await g.invoke({ log: [] }, options);
    const resume = new Command({ resume: { "sub:1:0/review:1:0:0": { approved: "yes" }, "other:1:1:0": "O" } });
    await expect(g.invoke(resume, options)).rejects.toMatchObject({ code: "NODE_FAILED" });
    expect((await options.checkpointer.latest("t"))?.resumes).toEqual({ "other:1:1:0": "O" });
  });
});

describe("an observer of the failed run", () => {
  it("hears no checkpoint after the run ended: the answers are saved once its observation is over", async () => {
    let left = 1;
    const g = new StateGraph<Flow>(FLOW)
      .addNode("ask", () => {
        const answer = interrupt<string>({ q: 1 });
        if (left-- > 0) throw new Error("disk full");
        return { log: [answer] };
      })
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await g.invoke({ log: [] }, { threadId: "t", checkpointer });
    const heard: string[] = [];
    const observer = {
      run: () => ({
        checkpoint: ({ source }: { source: string }) => void heard.push(`checkpoint:${source}`),
        runEnd: ({ status }: { status: string }) => void heard.push(`end:${status}`),
      }),
    };
    await expect(g.invoke(new Command({ resume: "yes" }), { threadId: "t", checkpointer, observer })).rejects.toMatchObject({
      code: "NODE_FAILED",
    });
    expect(heard).toEqual(["end:failed"]);
    expect((await checkpointer.latest("t"))?.resumes).toEqual({ "ask:1:0:0": "yes" });
  });
});
