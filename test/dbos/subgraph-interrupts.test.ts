/**
 * Interrupts inside subgraphs on DBOS: a child graph's `interrupt()` pauses the durable run with the
 * interrupts a thread pauses with (ids, nodes, payloads, namespaces), and a resume continues inside the
 * child from where it paused, at any depth: the child's completed supersteps (DBOS steps of its child
 * workflow) never run again. Each graph counts its node starts, as the thread tests do.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registerOnDBOS, resumeOnDBOS, retrieveOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import {
  append,
  Command,
  defineInterrupt,
  END,
  interrupt,
  START,
  StateGraph,
  type CompiledGraph,
  type NodeContext,
  type PendingInterrupt,
} from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { nestedGraph, nestedInput, type Nested } from "../helpers/nested-graphs.js";
import { failureOf } from "./_compare.js";
import { launchDBOSForFile } from "./_launch.js";

/** Each node's starts, as a plain object. */
const counts = (runs: Map<string, number>) => Object.fromEntries([...runs].sort(([a], [b]) => a.localeCompare(b)));

/** A graph registered on DBOS and its twin for threads, each counting its own node starts. */
function twins(name: string, build: (runs: Map<string, number>) => CompiledGraph<Nested>) {
  const dbosRuns = new Map<string, number>();
  const threadRuns = new Map<string, number>();
  return { dbos: registerOnDBOS(build(dbosRuns), { name }), thread: build(threadRuns), dbosRuns, threadRuns };
}

const depth1 = twins("nested-1", (runs) => nestedGraph(2, runs));
const depth2 = twins("nested-2", (runs) => nestedGraph(3, runs));
const again = twins("nested-again", (runs) => nestedGraph(3, runs));
const parallel = twins("nested-parallel", (runs) => nestedGraph(2, runs, "parallel"));

/** START → {top, sub} → END: `top` asks at the top level while `sub`'s child asks in two parallel nodes. */
const beside = twins("nested-beside", (runs) =>
  new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("top", () => {
      runs.set("top", (runs.get("top") ?? 0) + 1);
      return { log: ["top"], answers: [`top=${interrupt<string>({ question: "top" })}`] };
    })
    .addNode("sub", nestedGraph(1, runs, "parallel"))
    .addEdge(START, ["top", "sub"])
    .addEdge("top", END)
    .addEdge("sub", END)
    .compile(),
);

/** A node of the children below: it writes part of the shared state. */
type ChildNode = (state: Nested, context: NodeContext) => Partial<Nested>;

/** START → sub → END, where sub's child runs `one` then `two`. */
function underSub(one: ChildNode, two: ChildNode): CompiledGraph<Nested> {
  const child = new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("one", one)
    .addNode("two", two)
    .addEdge(START, "one")
    .addEdge("one", "two")
    .addEdge("two", END)
    .compile();
  return new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("sub", child)
    .addEdge(START, "sub")
    .addEdge("sub", END)
    .compile();
}

/** A child whose second node fails, and one whose second node asks with a schema. */
const failures = twins("nested-failing", (runs) =>
  underSub(
    () => (runs.set("one", (runs.get("one") ?? 0) + 1), { log: ["one"] }),
    () => {
      throw new Error("flaky");
    },
  ),
);
const approval = defineInterrupt<{ q: string }, { ok: boolean }>("approval", { schema: z.object({ ok: z.boolean() }) });
const schema = twins("nested-schema", (runs) =>
  underSub(
    (_s, context) => (runs.set("one", (runs.get("one") ?? 0) + 1), { log: [`one ${context.threadId?.split("\u001f").length}`] }),
    () => ({ answers: [`ok=${approval({ q: "ok?" }).ok}`] }),
  ),
);

const gotoPast = twins("nested-goto", (runs) => nestedGraph(3, runs));

/** A subgraph node under a retry policy: one DBOS step, the policy's timers inside it. */
const underPolicy = twins("nested-policy", (runs) => {
  const child = new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("work", () => {
      runs.set("work", (runs.get("work") ?? 0) + 1);
      if (runs.get("work") === 1) throw new Error("first attempt fails");
      return { log: ["work"] };
    })
    .addEdge(START, "work")
    .addEdge("work", END)
    .compile();
  return new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("sub", child, { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } })
    .addEdge(START, "sub")
    .addEdge("sub", END)
    .compile();
});

/** The same, whose child asks: under the policy the pause is the task's own, and the child starts again. */
const askingUnderPolicy = twins("nested-policy-ask", (runs) =>
  new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("sub", nestedGraph(1, runs), { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } })
    .addEdge(START, "sub")
    .addEdge("sub", END)
    .compile(),
);

/** START → {left, right} → END, each the schema's child: two children paused side by side. */
const twoChildren = twins("nested-two-children", (runs) => {
  const child = (side: string) =>
    new StateGraph<Nested>({ reducers: { log: append, answers: append } })
      .addNode("one", () => (runs.set(`${side}.one`, (runs.get(`${side}.one`) ?? 0) + 1), { log: [`${side}.one`] }))
      .addNode("two", () => ({ answers: [`${side}=${approval({ q: side }).ok}`] }))
      .addEdge(START, "one")
      .addEdge("one", "two")
      .addEdge("two", END)
      .compile();
  return new StateGraph<Nested>({ reducers: { log: append, answers: append } })
    .addNode("left", child("left"))
    .addNode("right", child("right"))
    .addEdge(START, ["left", "right"])
    .addEdge("left", END)
    .addEdge("right", END)
    .compile();
});

const nextId = launchDBOSForFile("dbos_subgraph");

/** An interrupt with the checkpoint part of its namespaces left out: a thread names a checkpoint id there, DBOS the superstep. */
function comparable(pending: PendingInterrupt) {
  return { ...pending, ...(pending.ns === undefined ? {} : { ns: pending.ns.map((ns) => ns.replace(/^(.+):[^:]+:(\d+)$/, "$1:*:$2")) }) };
}

/** What a paused or finished run and a thread must agree on. */
function where(result: { state: unknown; trace: unknown; supersteps: number; status: string; interrupt?: unknown }) {
  const { state, trace, supersteps, status } = result;
  const interrupt = result.interrupt as { interrupts?: readonly PendingInterrupt[] } | undefined;
  return {
    state,
    trace,
    supersteps,
    status,
    ...(interrupt === undefined ? {} : { interrupt: { ...interrupt, interrupts: interrupt.interrupts?.map(comparable) } }),
  };
}

/** Runs the same steps on a thread and on DBOS; each step's results must agree. */
function side(graph: ReturnType<typeof twins>) {
  const checkpointer = new MemoryCheckpointer();
  const threadId = "t";
  const workflowId = nextId(graph.dbos.spec.nodes.join("-"));
  return {
    workflowId,
    onThread: (command: Command<unknown, Nested, string>) => graph.thread.invoke(command, { threadId, checkpointer }),
    start: async () => {
      const thread = await graph.thread.invoke(nestedInput, { threadId, checkpointer });
      const durable = await runOnDBOS(graph.dbos, nestedInput, { workflowId });
      expect(where(durable)).toEqual(where(thread));
      return durable;
    },
    resume: async (command: Command<unknown, Nested, string> | undefined) => {
      const thread = await (command === undefined
        ? graph.thread.invoke(null, { threadId, checkpointer })
        : graph.thread.invoke(command, { threadId, checkpointer }));
      const durable = await resumeOnDBOS(graph.dbos, workflowId, command);
      expect(where(durable)).toEqual(where(thread));
      return durable;
    },
  };
}

describe("interrupts inside subgraphs on DBOS resume inside the child, as on a thread", () => {
  it.each([
    [1, depth1],
    [2, depth2],
  ] as const)("depth %i: the same interrupt as a thread's, and a resume runs no completed superstep again", async (depth, graph) => {
    const run = side(graph);
    const paused = await run.start();
    const path = Array.from({ length: depth }, (_, index) => `${index + 1}.sub:2:0/`).join("");
    const asking = `${depth + 1}.ask`;
    expect(paused).toMatchObject({
      status: "interrupted",
      interrupt: {
        when: "during",
        nodes: [asking],
        interrupts: [{ id: `${path}${asking}:2:0:0`, node: asking, value: { question: asking } }],
      },
    });
    if (paused.status !== "interrupted") return;
    const ns = paused.interrupt.interrupts?.[0]?.ns ?? [];
    expect(ns).toEqual(Array.from({ length: depth }, (_, index) => `${index + 1}.sub:2:0`));

    const done = await run.resume(new Command({ resume: "yes" }));
    expect(done.status).toBe("done");
    const levels = depth + 1;
    const as = Array.from({ length: levels }, (_, index) => `${index + 1}.a`);
    const bs = Array.from({ length: levels }, (_, index) => `${levels - index}.b`);
    expect(done.state).toEqual({ log: [...as, asking, ...bs], answers: [`${asking}=yes`] });
    // Every node started once, the asking one a second time on resume: as on the thread.
    expect(counts(graph.dbosRuns)).toEqual(
      Object.fromEntries([...as, ...bs, asking].sort().map((name) => [name, name === asking ? 2 : 1])),
    );
    expect(counts(graph.dbosRuns)).toEqual(counts(graph.threadRuns));
  });

  it("a resume without an answer pauses inside the child again, running nothing else", async () => {
    const run = side(again);
    const first = await run.start();
    const second = await run.resume(undefined);
    expect(second.status).toBe("interrupted");
    if (first.status !== "interrupted" || second.status !== "interrupted") return;
    expect(second.interrupt.interrupts).toEqual(first.interrupt.interrupts);
    expect(counts(again.dbosRuns)).toEqual({ "1.a": 1, "2.a": 1, "3.a": 1, "3.ask": 2 });
    expect(counts(again.dbosRuns)).toEqual(counts(again.threadRuns));
    await run.resume(new Command({ resume: "late" }));
  });

  it("parallel interrupts in a child: their own ids, a partial map pauses again for the rest", async () => {
    const run = side(parallel);
    const paused = await run.start();
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const ids = (paused.interrupt.interrupts ?? []).map((pending) => pending.id);
    expect(ids).toEqual(["1.sub:2:0/2.x:2:0:0", "1.sub:2:0/2.y:2:1:0"]);
    await expect(resumeOnDBOS(parallel.dbos, run.workflowId, new Command({ resume: "yes" }))).rejects.toMatchObject({
      code: "AMBIGUOUS_RESUME",
    });
    const partial = await run.resume(new Command({ resume: { [ids[0] as string]: "left" } }));
    expect(partial).toMatchObject({ status: "interrupted", interrupt: { nodes: ["2.y"] } });
    const done = await run.resume(new Command({ resume: { [ids[1] as string]: "right" } }));
    expect(done.state).toEqual({ log: ["1.a", "2.a", "2.x", "2.y", "2.b", "1.b"], answers: ["2.x=left", "2.y=right"] });
    // x ran twice (paused, answered); y three times (paused, paused again, answered); nothing else again.
    expect(counts(parallel.dbosRuns)).toEqual({ "1.a": 1, "1.b": 1, "2.a": 1, "2.b": 1, "2.x": 2, "2.y": 3 });
  });

  it("an interrupt at the top level beside a child's two: each answered in turn, nothing completed runs again", async () => {
    const run = side(beside);
    const paused = await run.start();
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const pending = paused.interrupt.interrupts ?? [];
    expect(pending.map((p) => p.id).sort()).toEqual(["sub:1:1/1.x:2:0:0", "sub:1:1/1.y:2:1:0", "top:1:0:0"]);
    const byNode = Object.fromEntries(pending.map((p) => [p.node, p.id]));
    const topOnly = await run.resume(new Command({ resume: { [byNode.top as string]: "t" } }));
    expect(topOnly).toMatchObject({ status: "interrupted", interrupt: { nodes: ["1.x", "1.y"] } });
    const xOnly = await run.resume(new Command({ resume: { [byNode["1.x"] as string]: "x" } }));
    expect(xOnly).toMatchObject({ status: "interrupted", interrupt: { nodes: ["1.y"] } });
    const done = await run.resume(new Command({ resume: { [byNode["1.y"] as string]: "y" } }));
    expect(done.status).toBe("done");
    expect([...(done.state.answers ?? [])].sort()).toEqual(["1.x=x", "1.y=y", "top=t"]);
    expect(counts(beside.dbosRuns)).toEqual({ "1.a": 1, "1.b": 1, "1.x": 3, "1.y": 4, top: 2 });
    expect(counts(beside.dbosRuns)).toEqual(counts(beside.threadRuns));
  });
});

describe("goto and policies around a subgraph on DBOS", () => {
  it("goto past a paused subgraph: its child never resumes, and the run ends as a thread's", async () => {
    const run = side(gotoPast);
    await run.start();
    const done = await run.resume(new Command({ goto: "1.b" }));
    // The child's writes never committed: the superstep it paused in was replaced.
    expect(done).toMatchObject({ status: "done", state: { log: ["1.a", "1.b"], answers: [] } });
    expect(counts(gotoPast.dbosRuns)).toEqual(counts(gotoPast.threadRuns));
  });

  it("a subgraph node under a retry policy runs its child in one step, retried inside it", async () => {
    const thread = await underPolicy.thread.invoke(nestedInput);
    const workflowId = nextId("policy");
    const durable = await runOnDBOS(underPolicy.dbos, nestedInput, { workflowId });
    expect(where(durable)).toEqual(where({ ...thread, status: "done" }));
    const names = ((await DBOS.listWorkflowSteps(workflowId)) ?? []).map((step) => step.name).filter((name) => !name.startsWith("DBOS."));
    expect(names).toEqual(["sub"]);
    expect(counts(underPolicy.dbosRuns)).toEqual({ work: 2 });
  });

  it("a child that asks under such a node pauses as the task itself, and runs again from its START", async () => {
    const workflowId = nextId("policy-ask");
    const paused = await runOnDBOS(askingUnderPolicy.dbos, nestedInput, { workflowId });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { interrupts: [{ id: "sub:1:0:0", node: "sub" }] } });
    // The pause is no failure: the policy does not try the paused attempt again.
    expect(counts(askingUnderPolicy.dbosRuns)).toEqual({ "1.a": 1, "1.ask": 1 });
    const done = await resumeOnDBOS(askingUnderPolicy.dbos, workflowId, new Command({ resume: "yes" }));
    expect(done.state).toEqual({ log: ["1.a", "1.ask", "1.b"], answers: ["1.ask=yes"] });
    // The child started again from its START on resume.
    expect(counts(askingUnderPolicy.dbosRuns)).toEqual({ "1.a": 2, "1.ask": 2, "1.b": 1 });
  });
});

describe("a child's failure and a refused answer on DBOS", () => {
  it("a child's failure fails the run with the thread's error", async () => {
    const thread = await failures.thread.invoke(nestedInput, { threadId: "f", checkpointer: new MemoryCheckpointer() }).catch(failureOf);
    const durable = await runOnDBOS(failures.dbos, nestedInput, { workflowId: nextId("failing") }).catch(failureOf);
    expect(durable).toMatchObject({ name: "GraphExecutionError", code: "NODE_FAILED", node: "sub" });
    expect(durable).toEqual(thread);
  });

  it("a value the child's schema refuses: INVALID_RESUME, paused where it stood; a fitting one finishes", async () => {
    const run = side(schema);
    await run.start();
    const refusal = new Command({ resume: { ok: "no" } });
    const thread = await run.onThread(refusal).catch(failureOf);
    const error = await resumeOnDBOS(schema.dbos, run.workflowId, refusal).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "InterruptError", code: "INVALID_RESUME" });
    expect((error as Error).message).toMatch(/^approval: the resume value/);
    expect(failureOf(error)).toEqual(thread);
    const still = await (await retrieveOnDBOS(schema.dbos, run.workflowId)).result();
    expect(still).toMatchObject({ status: "interrupted", interrupt: { nodes: ["two"] } });
    const done = await resumeOnDBOS(schema.dbos, run.workflowId, approval.resume({ ok: true }));
    // The child's node sees the child's thread id (parent, namespace), and ran once.
    expect(done.state).toEqual({ log: ["one 2"], answers: ["ok=true"] });
    expect(counts(schema.dbosRuns)).toEqual({ one: 1 });
  });

  it("a refusal in one of two paused children leaves both where they stood: neither starts again", async () => {
    const run = side(twoChildren);
    const paused = await run.start();
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const [left, right] = (paused.interrupt.interrupts ?? []).map((pending) => pending.id);
    const refusal = new Command({ resume: { [left as string]: { ok: true }, [right as string]: { ok: "no" } } });
    const thread = await run.onThread(refusal).catch(failureOf);
    const error = await resumeOnDBOS(twoChildren.dbos, run.workflowId, refusal).catch(failureOf);
    expect(error).toMatchObject({ name: "InterruptError", code: "INVALID_RESUME" });
    expect(error).toEqual(thread);
    const done = await run.resume(new Command({ resume: { [left as string]: { ok: true }, [right as string]: { ok: false } } }));
    expect(done.state).toEqual({ log: ["left.one", "right.one"], answers: ["left=true", "right=false"] });
    expect(counts(twoChildren.dbosRuns)).toEqual({ "left.one": 1, "right.one": 1 });
    expect(counts(twoChildren.dbosRuns)).toEqual(counts(twoChildren.threadRuns));
  });

  it("the child's tasks are steps of a child workflow of the run, which records none of them itself", async () => {
    const run = side(depth1);
    const paused = await run.start();
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    const steps = (await DBOS.listWorkflowSteps(run.workflowId)) ?? [];
    // The child workflow's start and the wait for its result both name it.
    const children = [...new Set(steps.flatMap((step) => (typeof step.childWorkflowID === "string" ? [step.childWorkflowID] : [])))];
    expect(steps.map((step) => step.name).filter((name) => !name.startsWith("DBOS."))).toEqual(["1.a", "tsg-subgraph:nested-1"]);
    expect(children).toHaveLength(1);
    const childSteps = ((await DBOS.listWorkflowSteps(children[0] as string)) ?? []).map((step) => step.name);
    expect(childSteps.filter((name) => !name.startsWith("DBOS."))).toEqual(["2.a", "2.ask"]);
    await run.resume(new Command({ resume: "done" }));
  });
});
