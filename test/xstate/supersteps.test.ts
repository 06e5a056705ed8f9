/**
 * Parallel graphs on XState: the superstep machine runs fan-outs, joins, multi-key routes and Sends with
 * the mini engine's results (state, trace, routes, steps, supersteps) and its errors (conflicts,
 * atomicity, limits), in both modes, and a step-by-step run can be persisted between supersteps.
 */
import { createActor, toPromise, type AnyMachineSnapshot, type Snapshot } from "xstate";
import { describe, expect, it } from "vitest";
import {
  buildDigestGraph,
  buildResearchGraph,
  fakeSources,
  initialResearchState,
  type ResearchSource,
  type ResearchState,
} from "../../src/examples/research/index.js";
import {
  append,
  END,
  GraphLimitError,
  InvalidUpdateError,
  Send,
  START,
  StateGraph,
  union,
  type CompiledGraph,
  type RunOptions,
} from "../../src/index.js";
import {
  runOnXState,
  STEP_LIMIT_STATE,
  streamOnXState,
  SUPERSTEP_STATE,
  toMachine,
  WAITING_TAG,
  XStateExportError,
  type GraphMachine,
  type GraphMachineContext,
  type GraphMachineOutput,
} from "../../src/xstate/index.js";
import { outcomeOf } from "./_outcome.js";
import { deferred, fanOutGraph, researchInput, slowJoinGraph, type ResearchLike } from "../helpers/parallel-graphs.js";

const MODES = ["run", "step"] as const;

type R = ResearchLike;
const input = researchInput;

/** Routers that return several keys, from START (a list path map) and from a node (a path map), and a loop. */
function multiKeyGraph() {
  return new StateGraph<R>({ reducers: { log: append } })
    .addNode("a", (s) => ({ log: [`a${s.log.length}`] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addConditionalEdges(START, () => ["a", "b"], ["a", "b"])
    .addConditionalEdges("a", (s): ("again" | "on")[] => (s.log.length < 6 ? ["again", "on"] : []), { again: "a", on: "c" })
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile();
}

/** A Send to `summarize` per document, then `done`. */
function sendGraph() {
  return new StateGraph<R>({ reducers: { findings: append } })
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

/** A router that takes one branch of two that join: the run ends with the join waiting. */
function halfJoinGraph() {
  return new StateGraph<R>({ reducers: { findings: union } })
    .addNode("plan", () => ({}))
    .addNode("a", () => ({ findings: ["a"] }))
    .addNode("b", () => ({ findings: ["b"] }))
    .addNode("join", () => ({ summary: "joined" }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (): ("a" | "b")[] => ["a"], ["a", "b"])
    .addEdge(["a", "b"], "join")
    .addEdge("join", END)
    .compile();
}

/** A fan-out from START where `a` loops on itself: for the limits. */
function loopGraph() {
  return new StateGraph<R>({ reducers: { log: append } })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, ["a", "b"])
    .addConditionalEdges("a", (s) => (s.log.length < 100 ? "again" : "out"), { again: "a", out: END })
    .addEdge("b", END)
    .compile();
}

const cases: [string, () => CompiledGraph<R>, R, RunOptions][] = [
  ["a fan-out and a join", () => fanOutGraph((name) => async () => ({ findings: [name], log: [name] })), input(), {}],
  ["a join that waits for a slow branch", slowJoinGraph, input(), {}],
  ["routers that return several keys, and none", multiKeyGraph, input(), {}],
  ["Send with no item", sendGraph, input(), {}],
  ["Send with one item", sendGraph, { ...input(), docs: ["x"] }, {}],
  ["Send with many items", sendGraph, { ...input(), docs: ["x", "y", "z"] }, {}],
  ["a parallel write conflict", () => fanOutGraph((name) => () => ({ summary: name })), input(), {}],
  [
    "a failing branch",
    () => fanOutGraph((name) => async () => (name === "papers" ? Promise.reject(new Error("offline")) : { findings: [name] })),
    input(),
    {},
  ],
  [
    "two failing branches: the first in declaration order is reported",
    () =>
      fanOutGraph((name) => async () => {
        await new Promise((r) => setTimeout(r, name === "web" ? 5 : 0));
        if (name !== "papers") throw new Error(`${name} failed`);
        return {};
      }),
    input(),
    {},
  ],
  ["a branch that returns an array", () => fanOutGraph((name) => () => (name === "internal" ? ([] as Partial<R>) : {})), input(), {}],
  ["maxSteps inside a superstep", loopGraph, input(), { maxSteps: 1 }],
  ["maxSteps later on", loopGraph, input(), { maxSteps: 4 }],
  ["recursionLimit", loopGraph, input(), { recursionLimit: 3 }],
  ["both limits on the same superstep", loopGraph, input(), { maxSteps: 3, recursionLimit: 2 }],
  ["a fan-out wider than maxSteps from START", () => fanOutGraph(() => () => ({})), input(), { maxSteps: 3 }],
  ["an aborted run", () => fanOutGraph(() => () => ({})), input(), { signal: AbortSignal.abort("stop") }],
  ["a run that ends with a join still waiting", halfJoinGraph, input(), {}],
];

describe("runOnXState on parallel graphs: the mini engine's results", () => {
  for (const mode of MODES) {
    it.each(cases)(`${mode} mode: same state, trace, routes, steps, supersteps or error for %s`, async (_name, graph, start, options) => {
      const onMini = await outcomeOf(() => graph().invoke(start, options));
      const onXState = await outcomeOf(() => runOnXState(graph(), start, { ...options, mode }));
      expect(onXState).toStrictEqual(onMini);
    });
  }

  it("fails with the mini engine's error classes and messages, word for word", async () => {
    for (const [graph, options] of [
      [fanOutGraph((name) => () => ({ summary: name })), {}],
      [fanOutGraph((name) => () => (name === "web" ? Promise.reject(new Error("web down")) : {})), {}],
      [loopGraph(), { maxSteps: 1 }],
      [loopGraph(), { recursionLimit: 3 }],
      [loopGraph(), { maxSteps: 3, recursionLimit: 2 }],
      [halfJoinGraph(), {}],
    ] as const) {
      const onMini = await graph.invoke(input(), options).catch((e: unknown) => e);
      const onXState = await runOnXState(graph, input(), options).catch((e: unknown) => e);
      expect(onMini).toBeInstanceOf(Error);
      expect(onXState).toBeInstanceOf((onMini as Error).constructor);
      expect((onXState as Error).message).toBe((onMini as Error).message);
    }
  });

  it("names both writers of a conflict in an InvalidUpdateError, and keeps the last committed state", async () => {
    const error = await runOnXState(
      fanOutGraph((name) => () => ({ summary: name })),
      input(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as Error).message).toContain(`"web" and "papers" both wrote "summary"`);
    expect(error).toMatchObject({ trace: ["plan"], state: { ...input(), log: ["plan tides"] } });
  });

  it("runs the branches of a superstep concurrently: all three start before any may finish", async () => {
    const started: string[] = [];
    const gate = deferred();
    const graph = fanOutGraph((name) => async () => {
      started.push(name);
      if (started.length === 3) gate.resolve();
      await gate.promise;
      return { findings: [name] };
    });
    for (const mode of MODES) {
      started.length = 0;
      const { trace, supersteps } = await runOnXState(graph, input(), { mode });
      expect(started.sort()).toEqual(["internal", "papers", "web"]);
      expect([trace, supersteps]).toEqual([["plan", "web", "papers", "internal", "synthesize"], 3]);
    }
  });

  it("ends the run at once when the signal aborts mid-superstep, committing nothing of it", async () => {
    const aborting = () => {
      const controller = new AbortController();
      const graph = fanOutGraph((name) => () => (name === "papers" && controller.abort(), { findings: [name] }));
      return { graph, signal: controller.signal };
    };
    const mini = aborting();
    const onMini = await outcomeOf(() => mini.graph.invoke(input(), { signal: mini.signal }));
    expect(onMini).toMatchObject({ kind: "error", code: "ABORTED", node: "papers", trace: ["plan"] });
    for (const mode of MODES) {
      const xstate = aborting();
      expect(await outcomeOf(() => runOnXState(xstate.graph, input(), { signal: xstate.signal, mode }))).toStrictEqual(onMini);
    }
  });

  it("keeps the failing node's path through a subgraph node (the research graph's papers specialist)", async () => {
    const failing: ResearchSource = async () => {
      throw new Error("archive offline");
    };
    const graph = () => buildResearchGraph({ sources: { ...fakeSources(), papers: failing } });
    const onMini = await outcomeOf(() => graph().invoke(initialResearchState("tides")));
    const onXState = await outcomeOf(() => runOnXState(graph(), initialResearchState("tides")));
    expect(onXState).toStrictEqual(onMini);
    expect(onXState).toMatchObject({ kind: "error", path: ["papers", "search"] });
  });
});

describe("the example graphs on XState", () => {
  it("runs the research graph as the mini engine does, for several topics, in both modes", async () => {
    for (const topic of ["tides", "glaciers", "the Hanseatic League"]) {
      const onMini = await outcomeOf(() => buildResearchGraph().invoke(initialResearchState(topic)));
      for (const mode of MODES) {
        expect(await outcomeOf(() => runOnXState(buildResearchGraph(), initialResearchState(topic), { mode }))).toStrictEqual(onMini);
      }
    }
  });

  it("stops the research graph at the same node for every step limit", async () => {
    for (let maxSteps = 1; maxSteps <= 6; maxSteps++) {
      for (const recursionLimit of [1, 2, 3, 25]) {
        const options = { maxSteps, recursionLimit };
        const onMini = await outcomeOf(() => buildResearchGraph().invoke(initialResearchState("tides"), options));
        for (const mode of MODES) {
          const onXState = await outcomeOf(() => runOnXState(buildResearchGraph(), initialResearchState("tides"), { ...options, mode }));
          expect(onXState, JSON.stringify(options)).toStrictEqual(onMini);
        }
      }
    }
  });

  it.each([[[]], [["one two three four five six"]], [["a b", "c d", "e f"]]])(
    "runs the digest graph (Send) over %j as the mini engine does",
    async (documents) => {
      const start = { documents, summaries: [], digest: null };
      const onMini = await outcomeOf(() => buildDigestGraph().invoke(start));
      for (const mode of MODES) expect(await outcomeOf(() => runOnXState(buildDigestGraph(), start, { mode }))).toStrictEqual(onMini);
    },
  );
});

describe("streamOnXState on parallel graphs", () => {
  it("yields each node's step in declaration order within a superstep, as graph.stream does", async () => {
    const fromMini = [];
    for await (const step of buildResearchGraph().stream(initialResearchState("tides"))) fromMini.push(step);
    for (const mode of MODES) {
      const fromXState = [];
      for await (const step of streamOnXState(buildResearchGraph(), initialResearchState("tides"), { mode })) fromXState.push(step);
      expect(fromXState).toStrictEqual(JSON.parse(JSON.stringify(fromMini)));
    }
  });

  it("in step mode, runs the next superstep only when the consumer asks for the next step", async () => {
    const ran: string[] = [];
    const graph = fanOutGraph((name) => () => (ran.push(name), { findings: [name] }));
    const seen: string[] = [];
    for await (const step of streamOnXState(graph, input(), { mode: "step" })) {
      seen.push(step.node);
      if (step.node === "web") break;
    }
    // The whole second superstep ran (its steps are yielded one by one), the third did not.
    expect(seen).toEqual(["plan", "web"]);
    expect(ran).toEqual(["web", "papers", "internal"]);
  });
});

describe("toMachine for parallel graphs: the superstep layout", () => {
  it("has __start__, one __superstep__ state, a final __end__ and a final __step_limit__", () => {
    const machine = toMachine(buildResearchGraph());
    expect(Object.keys(machine.root.states)).toEqual([START, SUPERSTEP_STATE, END, STEP_LIMIT_STATE]);
    expect(machine.root.states[END]?.type).toBe("final");
    expect(machine.root.states[STEP_LIMIT_STATE]?.type).toBe("final");
  });

  it("keeps its config plain for the inspector: named guards, actions and actors, serializable as JSON", () => {
    const config = JSON.parse(JSON.stringify(toMachine(buildResearchGraph()).config)) as {
      states: Record<
        string,
        { invoke?: { src: string; onDone: { guard?: string; target: string; actions: unknown }[] }; description?: string }
      >;
    };
    const superstep = config.states[SUPERSTEP_STATE];
    expect(superstep?.invoke?.src).toBe("runSuperstep");
    expect(superstep?.description).toMatch(/declaration order/);
    expect(superstep?.invoke?.onDone.map((t) => t.guard)).toEqual(["runFinished", "superstepLimitReached", undefined]);
    expect(config.states[START]?.invoke?.src).toBe("beginRun");
    for (const t of superstep?.invoke?.onDone ?? []) expect([t.actions].flat().every((a) => typeof a === "string")).toBe(true);
  });

  it("gives step mode a waiting and a running state", () => {
    const machine = toMachine(buildResearchGraph(), { mode: "step" });
    expect(Object.keys(machine.root.states[SUPERSTEP_STATE]?.states ?? {})).toEqual(["waiting", "running"]);
  });

  it("ends at __step_limit__ with an outcome naming the node not started and the bound", async () => {
    const actor = createActor(toMachine(loopGraph()), { input: { state: input(), recursionLimit: 3 } }).start();
    const output = await toPromise(actor);
    expect(actor.getSnapshot().value).toBe(STEP_LIMIT_STATE);
    expect(output).toMatchObject({ outcome: "step-limit", stoppedBefore: "a", limit: "recursionLimit", trace: ["a", "b", "a", "a"] });
    const wide = await toPromise(createActor(toMachine(loopGraph()), { input: { state: input(), maxSteps: 1 } }).start());
    expect(wide).toMatchObject({ outcome: "step-limit", stoppedBefore: "b", limit: "maxSteps", trace: [] });
  });

  it("puts the actor in error with the engine's error, its message naming toMachine", async () => {
    const actor = createActor(toMachine(fanOutGraph((name) => () => ({ summary: name }))), { input: { state: input() } });
    const failed = new Promise((resolve) => actor.subscribe({ error: resolve }));
    actor.start();
    const error = await failed;
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toMatchObject({ code: "CONCURRENT_WRITE", node: "papers", trace: ["plan"] });
    expect((error as Error).message).toMatch(/^toMachine: "web" and "papers" both wrote "summary"/);
  });

  it("reports one root snapshot per superstep to the inspector, the context naming the next tasks", async () => {
    const tasks: string[][] = [];
    const values: unknown[] = [];
    const actor = createActor(toMachine(buildResearchGraph()), {
      input: { state: initialResearchState("tides") },
      inspect: (event) => {
        if (event.type !== "@xstate.snapshot" || event.actorRef.sessionId !== event.rootId) return;
        const snapshot = event.snapshot as AnyMachineSnapshot;
        const context = snapshot.context as GraphMachineContext<ResearchState>;
        values.push(snapshot.value);
        tasks.push((context.run?.tasks ?? []).map((t) => t.node));
      },
    }).start();
    await toPromise(actor);
    expect(values).toEqual([START, SUPERSTEP_STATE, SUPERSTEP_STATE, SUPERSTEP_STATE, END]);
    expect(tasks).toEqual([[], ["plan"], ["web", "papers", "internal"], ["synthesize"], []]);
  });

  it("can be forced on a sequential graph, where it gives the same output as one state per node", async () => {
    const graph = new StateGraph<R>({ reducers: { log: append } })
      .addNode("a", (s) => ({ log: [`a${s.log.length}`] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (s) => (s.log.length < 3 ? "again" : "on"), { again: "a", on: "b" })
      .addEdge("b", END)
      .compile();
    const perNode = await toPromise(createActor(toMachine(graph), { input: { state: input() } }).start());
    const bySuperstep = await toPromise(createActor(toMachine(graph, { layout: "supersteps" }), { input: { state: input() } }).start());
    expect(bySuperstep).toEqual(perNode);
  });

  it("refuses layout 'nodes' for a graph that runs several nodes at once, naming the sources", () => {
    expect(() => toMachine(slowJoinGraph(), { layout: "nodes" })).toThrow(
      expect.objectContaining({ name: "XStateExportError", code: "UNSUPPORTED_GRAPH", names: ["plan", "quick", "slow2"] }),
    );
    expect(() => toMachine(slowJoinGraph(), { layout: "grid" as "nodes" })).toThrow(
      /^toMachine: layout must be "auto", "nodes" or "supersteps"/,
    );
  });

  it("a router that returns several keys in a graph declared sequential needs the superstep layout, and says so", async () => {
    const graph = new StateGraph<R>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => ["left", "right"], { left: "b", right: "c" })
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const error = await runOnXState(graph, input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(XStateExportError);
    expect(error).toMatchObject({ code: "SEVERAL_NEXT_NODES", names: ["a"] });
    expect((error as Error).message).toContain(`{ layout: "supersteps" }`);
    expect(await outcomeOf(() => runOnXState(graph, input(), { layout: "supersteps" }))).toStrictEqual(
      await outcomeOf(() => graph.invoke(input())),
    );
  });

  it("one state per node also refuses a router that chooses no key, or START's router choosing two (counted from the run's routes)", async () => {
    const none = new StateGraph<R>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (): ("on" | "done")[] => [], { on: "b", done: END })
      .addEdge("b", END)
      .compile();
    await expect(runOnXState(none, input(), { layout: "nodes" })).rejects.toThrow(/the router after "a" started 0 nodes at once/);
    const two = new StateGraph<R>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addConditionalEdges(START, () => ["left", "right"], { left: "a", right: "b" })
      .addEdge("a", END)
      .addEdge("b", END)
      .compile();
    await expect(runOnXState(two, input(), { layout: "nodes" })).rejects.toMatchObject({
      code: "SEVERAL_NEXT_NODES",
      names: [START],
      message: expect.stringContaining("started 2 nodes at once"),
    });
  });
});

type ParallelActor = ReturnType<typeof createActor<GraphMachine<R>>>;

/** Resolves once the actor waits for its next `step` (or has stopped). */
function settled(actor: ParallelActor): Promise<void> {
  return new Promise<void>((resolve) => {
    const isSettled = (s: ReturnType<ParallelActor["getSnapshot"]>) => s.hasTag(WAITING_TAG) || s.status !== "active";
    if (isSettled(actor.getSnapshot())) return resolve();
    const subscription = actor.subscribe((s) => {
      if (isSettled(s)) {
        subscription.unsubscribe();
        resolve();
      }
    });
  });
}

/** Runs `count` supersteps, one `step` event each; START's successors are computed before the first. */
async function runSupersteps(actor: ParallelActor, count: number): Promise<void> {
  await settled(actor);
  for (let i = 0; i < count; i++) {
    actor.send({ type: "step" });
    await settled(actor);
  }
}

async function finish(actor: ParallelActor): Promise<GraphMachineOutput<R>> {
  const done = toPromise(actor);
  const stepWhenWaiting = (snapshot: ReturnType<ParallelActor["getSnapshot"]>) => {
    if (snapshot.hasTag(WAITING_TAG)) queueMicrotask(() => actor.send({ type: "step" }));
  };
  actor.subscribe(stepWhenWaiting);
  stepWhenWaiting(actor.getSnapshot());
  return done;
}

describe("persisting a step-by-step parallel run", () => {
  it.each([
    ["the slow join (arrivals pending across supersteps)", slowJoinGraph, input()],
    ["Sends (their inputs wait in the snapshot)", sendGraph, { ...input(), docs: ["x", "y"] }],
    ["routers with several keys", multiKeyGraph, input()],
  ])("restores %s from JSON between any two supersteps and finishes with the uninterrupted output", async (_name, graph, start) => {
    const uninterrupted = await toPromise(createActor(toMachine(graph()), { input: { state: start } }).start());
    const supersteps = (await graph().invoke(start)).supersteps;
    for (let cut = 0; cut <= supersteps; cut++) {
      const first = createActor(toMachine(graph(), { mode: "step" }), { input: { state: start } }).start();
      await runSupersteps(first, cut);
      const saved = JSON.stringify(first.getPersistedSnapshot());
      first.stop();
      expect((JSON.parse(saved) as { children: object }).children, `cut after ${cut}`).toEqual({});
      const restored = createActor(toMachine(graph(), { mode: "step" }), {
        input: { state: start },
        snapshot: JSON.parse(saved) as Snapshot<unknown>,
      }).start();
      expect(await finish(restored), `cut after ${cut} supersteps`).toEqual(uninterrupted);
    }
  });

  it("waits between supersteps with the join's arrivals and the next tasks in its context", async () => {
    const actor = createActor(toMachine(slowJoinGraph(), { mode: "step" }), { input: { state: input() } }).start();
    await runSupersteps(actor, 2);
    const { value, context } = actor.getSnapshot();
    expect(value).toEqual({ [SUPERSTEP_STATE]: "waiting" });
    expect(context.trace).toEqual(["plan", "quick", "slow1"]);
    expect(context.run).toMatchObject({ supersteps: 2, tasks: [{ node: "slow2", sent: false }], joins: [["quick"]] });
  });
});

it("GraphLimitError from runOnXState names the node not started, as the mini engine does", async () => {
  const error = await runOnXState(loopGraph(), input(), { maxSteps: 1 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GraphLimitError);
  expect(error).toMatchObject({ node: "b", trace: [] });
});
