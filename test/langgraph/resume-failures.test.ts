/**
 * A node that fails after its interrupt was answered, on LangGraph.js and on the mini engine. LangGraph
 * keeps a resume value as one of its task's pending writes; the mini engine keeps the answers of a
 * resumed superstep that failed in an interrupt checkpoint. So on both, `null` retries the node with
 * its answer instead of asking again: at the top level, at depth 2, with several parallel interrupts
 * answered in part, and inside one invoke when a retry policy runs the node again. An answer an
 * interrupt's schema refuses is the documented difference: the mini engine does not keep it.
 */
import { describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { z } from "zod";
import { append, Command, defineInterrupt, END, interrupt, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { counting, onBothEngines, withoutNs } from "./_helpers.js";

interface Flow {
  log: string[];
}

const FLOW = { reducers: { log: append }, fields: ["log"] } as const;

/** A node that asks `question`, then fails its first `fails` runs past the question. */
function asking(counted: ReturnType<typeof counting>, name: string, fails: number) {
  let left = fails;
  return counted(name, () => {
    const answer = interrupt<string>({ q: name });
    if (left-- > 0) throw new Error(`${name}: disk full`);
    return { log: [`${name}:${answer}`] };
  });
}

/** START → ask → after → END; ask fails once after its answer. */
function topLevel() {
  const runs: string[] = [];
  const counted = counting(runs);
  const graph = new StateGraph<Flow>(FLOW)
    .addNode("ask", asking(counted, "ask", 1))
    .addNode(
      "after",
      counted("after", () => ({ log: ["after"] })),
    )
    .addEdge(START, "ask")
    .addEdge("ask", "after")
    .addEdge("after", END)
    .compile();
  return { graph, runs };
}

/** START → outer → END, outer's child START → c1 → inner → END, inner's child START → ask → END (ask fails once after its answer). */
function depthTwo() {
  const runs: string[] = [];
  const counted = counting(runs);
  const inner = new StateGraph<Flow>(FLOW)
    .addNode("ask", asking(counted, "ask", 1))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile();
  const middle = new StateGraph<Flow>(FLOW)
    .addNode(
      "c1",
      counted("c1", () => ({ log: ["c1"] })),
    )
    .addNode("inner", inner)
    .addEdge(START, "c1")
    .addEdge("c1", "inner")
    .addEdge("inner", END)
    .compile();
  const graph = new StateGraph<Flow>(FLOW).addNode("outer", middle).addEdge(START, "outer").addEdge("outer", END).compile();
  return { graph, runs };
}

/** START → {a, b} → END: both ask; a fails once after its answer. Async, so both run in the superstep on both engines. */
function parallel() {
  const runs: string[] = [];
  const counted = counting(runs);
  const a = asking(counted, "a", 1);
  const b = asking(counted, "b", 0);
  const graph = new StateGraph<Flow>(FLOW)
    .addNode("a", async () => a())
    .addNode("b", async () => b())
    .addEdge(START, ["a", "b"])
    .addEdge(["a", "b"], END)
    .compile();
  return { graph, runs };
}

describe("a node that fails after its interrupt was answered: null retries it with its answer, on both engines", () => {
  it("at the top level", async () => {
    const run = await onBothEngines(topLevel, { log: [] }, [() => new Command({ resume: "yes" }), () => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[1]).toMatchObject({ failed: { code: "NODE_FAILED", message: 'invoke: node "ask" threw: ask: disk full' } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["ask:yes", "after"] } });
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    expect(run.miniRuns).toEqual(["ask", "ask", "ask", "after"]);
  });

  it("at depth 2: the answer reaches the grandchild, whose parent's completed step runs once", async () => {
    const run = await onBothEngines(depthTwo, { log: [] }, [() => new Command({ resume: "yes" }), () => null]);
    expect(run.langGraph.map(withoutNs)).toEqual(run.mini.map(withoutNs));
    expect(run.mini[0]).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "outer:1:0/inner:2:0/ask:1:0:0" }] } });
    expect(run.mini[1]).toMatchObject({ failed: { code: "NODE_FAILED" } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["c1", "ask:yes"] } });
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    expect(run.miniRuns).toEqual(["c1", "ask", "ask", "ask"]);
  });

  it("several parallel interrupts answered in part: the answered one is kept, the other still asks", async () => {
    const run = await onBothEngines(parallel, { log: [] }, [
      () => new Command({ resume: { "a:1:0:0": "A" } }),
      () => null,
      () => new Command({ resume: "B" }),
    ]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[1]).toMatchObject({ failed: { code: "NODE_FAILED", message: 'invoke: node "a" threw: a: disk full' } });
    // null: "a" runs again with its answer and succeeds (its write is kept); "b" was never answered, so it asks again.
    expect(run.mini[2]).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "b:1:1:0" }] } });
    expect(run.last).toMatchObject({ status: "done", state: { log: ["a:A", "b:B"] } });
  });

  it("a retry policy runs the node again inside the same invoke: the next attempt gets the answer, not a new question", async () => {
    const build = () => {
      const runs: string[] = [];
      const graph = new StateGraph<Flow>(FLOW)
        .addNode("ask", asking(counting(runs), "ask", 1), { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } })
        .addEdge(START, "ask")
        .addEdge("ask", END)
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines(build, { log: [] }, [() => new Command({ resume: "yes" })]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.last).toMatchObject({ status: "done", state: { log: ["ask:yes"] } });
    expect(run.miniRuns).toEqual(["ask", "ask", "ask"]);
  });

  // A child the export cannot map (no `fields`) runs on the mini engine inside LangGraph's task, in the
  // task's frame: a retry of the child's own node must not restart the task's count, or "b" would take
  // "a"'s answer without asking.
  it("a retry inside a child run in its task's frame: the retried node asks its own question, never takes another node's answer", async () => {
    let fails = 1;
    const child = new StateGraph<Flow>({ reducers: { log: append } })
      .addNode("a", () => ({ log: [`a:${interrupt<string>({ q: "qa" })}`] }))
      .addNode(
        "b",
        () => {
          if (fails-- > 0) throw new Error("b: flaky");
          return { log: [`b:${interrupt<string>({ q: "qb" })}`] };
        },
        { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } },
      )
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const parent = new StateGraph<Flow>(FLOW).addNode("outer", child).addEdge(START, "outer").addEdge("outer", END).compile();
    const saver = new MemorySaver();
    const on = (input: Flow | Command) => runOnLangGraph(parent, input, { threadId: "t", checkpointer: saver });
    expect(await on({ log: [] })).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ value: { q: "qa" } }] } });
    expect(await on(new Command({ resume: "A" }))).toMatchObject({
      status: "interrupted",
      interrupt: { interrupts: [{ value: { q: "qb" } }] },
    });
    expect(await on(new Command({ resume: "B" }))).toMatchObject({ status: "done", state: { log: ["a:A", "b:B"] } });
  });
});

describe("an answer an interrupt's schema refuses (the documented difference)", () => {
  const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval", { schema: z.object({ approved: z.boolean() }) });
  const build = () =>
    new StateGraph<{ draft: string; approved: boolean | null }>({ fields: ["draft", "approved"] })
      .addNode("review", (s) => ({ approved: approval({ draft: s.draft }).approved }))
      .addEdge(START, "review")
      .addEdge("review", END)
      .compile();

  it("the mini engine does not keep it: null asks again, and a fitting answer resumes; LangGraph keeps the refused value", async () => {
    const mini = build();
    const checkpointer = new MemoryCheckpointer();
    const onMini = (input: unknown) => mini.invoke(input as never, { threadId: "t", checkpointer });
    await onMini({ draft: "d", approved: null });
    await expect(onMini(new Command({ resume: { approved: "yes" } }))).rejects.toMatchObject({ code: "INVALID_RESUME" });
    expect(await onMini(null)).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "review:1:0:0" }] } });
    expect(await onMini(approval.resume({ approved: true }))).toMatchObject({ status: "done", state: { approved: true } });

    const lang = build();
    const saver = new MemorySaver();
    const onLang = (input: unknown) => runOnLangGraph(lang, input as never, { threadId: "t", checkpointer: saver });
    await onLang({ draft: "d", approved: null });
    await expect(onLang(new Command({ resume: { approved: "yes" } }))).rejects.toMatchObject({ code: "INVALID_RESUME" });
    // LangGraph consumed the value: null hands it to the node again, which refuses it again.
    await expect(onLang(null)).rejects.toMatchObject({ code: "INVALID_RESUME" });
  });
});
