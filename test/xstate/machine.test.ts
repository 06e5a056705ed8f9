import { createActor, toPromise, type AnyMachineSnapshot } from "xstate";
import { describe, expect, expectTypeOf, it } from "vitest";
import { append, END, InvalidOptionError, START, StateGraph, type RouteTaken } from "../../src/index.js";
import { STEP_LIMIT_STATE, toMachine, XStateExportError, type GraphMachineOutput } from "../../src/xstate/index.js";
import { buildReportGraph, initialReportState, type ReportState } from "../../src/examples/report/index.js";
import { counterGraph, counterInput, type CounterState } from "../helpers/graphs.js";

const report = buildReportGraph();

/** A state's config as `toMachine` writes it: only what these tests read. */
interface WrittenState {
  readonly type?: string;
  readonly invoke?: { readonly src: string; readonly onDone: readonly { guard?: unknown; target: string; actions: unknown }[] };
}

function writtenState(machine: { readonly config: { readonly states?: unknown } }, name: string): WrittenState {
  return (machine.config.states as Record<string, WrittenState>)[name] as WrittenState;
}

describe("toMachine: the machine's shape", () => {
  it("has one state per node, plus __start__, a final __end__ and a final __step_limit__", () => {
    const machine = toMachine(report);
    expect(Object.keys(machine.root.states)).toEqual([START, ...report.spec.nodes, END, STEP_LIMIT_STATE]);
    expect(machine.root.states[END]?.type).toBe("final");
    expect(machine.root.states[STEP_LIMIT_STATE]?.type).toBe("final");
    expect(machine.config.initial).toBe(START);
  });

  it("runs each node in an invoked actor whose route key selects one guarded transition, after the step-limit guard", () => {
    const check = writtenState(toMachine(report), "check_draft");
    expect(check.invoke?.src).toBe("runStep");
    expect(check.invoke?.onDone.map((t) => t.guard)).toEqual([
      "stepLimitReached",
      { type: "routeIs", params: { key: "accept" } },
      { type: "routeIs", params: { key: "revise" } },
      { type: "routeIs", params: { key: "hold" } },
    ]);
    // An exit to END cannot exceed the limit, so it has no limit guard.
    expect(writtenState(toMachine(report), "publish").invoke?.onDone.map((t) => t.guard)).toEqual([undefined]);
  });

  it("keeps its config plain for the inspector: named guards, actions and actors, serializable as JSON", () => {
    const machine = toMachine(report);
    const json = JSON.parse(JSON.stringify(machine.config)) as { states: Record<string, WrittenState> };
    const transitions = Object.values(json.states).flatMap((state) => state.invoke?.onDone ?? []);
    // START: its edge (an invoked actor, so the JSON definition keeps it); collect, write_draft, revise_draft:
    // limit + edge; check_draft: limit + 3 keys; publish, hold: their edge to END.
    expect(transitions.length).toBe(1 + 2 + 2 + 4 + 2 + 1 + 1);
    for (const transition of transitions) {
      expect(typeof transition.target).toBe("string");
      expect([transition.actions].flat().every((action) => typeof action === "string")).toBe(true);
    }
    expect(JSON.stringify(machine.root.definition)).toContain('"routeIs"');
  });

  it("gives step mode a waiting and a running state per node", () => {
    const machine = toMachine(report, { mode: "step" });
    expect(Object.keys(machine.root.states["collect"]?.states ?? {})).toEqual(["waiting", "running"]);
  });

  it("types the input and the output with the graph's state", () => {
    const machine = toMachine(report);
    const actor = createActor(machine, { input: { state: initialReportState(), maxSteps: 30 } });
    expectTypeOf(actor.getSnapshot().context.state).toEqualTypeOf<ReportState>();
    expectTypeOf(toPromise(actor)).resolves.toEqualTypeOf<GraphMachineOutput<ReportState>>();
    // @ts-expect-error - the input is the graph's state, wrapped as { state }
    createActor(machine, { input: initialReportState() });
  });
});

describe("toMachine: running", () => {
  it("outputs the final state, the trace and the routes", async () => {
    const output = await toPromise(createActor(toMachine(counterGraph(2)), { input: { state: counterInput() } }).start());
    expect(output).toEqual({
      outcome: "end",
      state: { ...counterInput(), n: 2, log: ["inc 1", "inc 2"], note: "finished" },
      trace: ["inc", "inc", "done"],
      routes: [
        { from: "inc", key: "again", to: "inc" },
        { from: "inc", key: "stop", to: "done" },
      ] satisfies RouteTaken[],
    });
  });

  it("puts the actor in error when a router returns an undeclared key", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => "elsewhere" as "stop", { stop: END })
      .compile();
    const actor = createActor(toMachine(graph), { input: { state: counterInput() } });
    const failed = new Promise((resolve) => actor.subscribe({ error: resolve }));
    actor.start();
    expect(await failed).toBe(actor.getSnapshot().error);
    const snapshot = actor.getSnapshot();
    expect(snapshot.status).toBe("error");
    expect(snapshot.error).toMatchObject({ name: "GraphExecutionError", code: "UNKNOWN_ROUTE_KEY", node: "a", trace: ["a"] });
    expect(snapshot.value).not.toBe(END);
  });

  it("ends a run that reaches its step limit in the final __step_limit__ state, with a clear output instead of an error", async () => {
    const actor = createActor(toMachine(counterGraph(5)), { input: { state: counterInput(), maxSteps: 2 } }).start();
    const output = await toPromise(actor);
    expect(actor.getSnapshot().value).toBe(STEP_LIMIT_STATE);
    expect(output).toMatchObject({ outcome: "step-limit", stoppedBefore: "inc", maxSteps: 2, trace: ["inc", "inc"], state: { n: 2 } });
  });

  it("runs a node that routes to itself again (the state is re-entered)", async () => {
    const output = await toPromise(createActor(toMachine(counterGraph(4)), { input: { state: counterInput() } }).start());
    expect(output.trace).toEqual(["inc", "inc", "inc", "inc", "done"]);
  });

  it("accepts node names with dots, backslashes and spaces, which XState paths cannot hold", async () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("fetch.data", () => ({ log: ["a"] }))
      .addNode("x\\y z", () => ({ log: ["b"] }))
      .addEdge(START, "fetch.data")
      .addConditionalEdges("fetch.data", (s) => (s.log.length < 2 ? "again" : "on"), { again: "fetch.data", on: "x\\y z" })
      .addEdge("x\\y z", END)
      .compile();
    for (const mode of ["run", "step"] as const) {
      const actor = createActor(toMachine(graph, { mode }), { input: { state: { log: [] } } }).start();
      if (mode === "step") actor.subscribe((s) => s.hasTag("waiting") && queueMicrotask(() => actor.send({ type: "step" })));
      if (mode === "step") actor.send({ type: "step" });
      expect((await toPromise(actor)).trace).toEqual(["fetch.data", "fetch.data", "x\\y z"]);
    }
  });
});

describe("toMachine: what it refuses", () => {
  it("rejects node names XState reads as ids, or that clash with the states it adds", () => {
    const named = (name: string) =>
      new StateGraph<CounterState>()
        .addNode(name as "a", () => ({}))
        .addEdge(START, name as "a")
        .addEdge(name as "a", END)
        .compile();
    for (const name of ["#a", "__proto__", STEP_LIMIT_STATE]) {
      const error = catchError(() => toMachine(named(name)));
      expect(error).toBeInstanceOf(XStateExportError);
      expect(error).toMatchObject({ code: "UNSUPPORTED_NAME", names: [name] });
      expect((error as Error).message).toMatch(/^toMachine: .*Rename/);
    }
  });

  it("rejects one state per node for graphs that run several nodes at once, naming the sources", () => {
    const graph = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("plan", () => ({}))
      .addNode("web", () => ({ log: ["web"] }))
      .addNode("papers", () => ({ log: ["papers"] }))
      .addNode("merge", () => ({}))
      .addEdge(START, "plan")
      .addEdge("plan", ["web", "papers"])
      .addEdge(["web", "papers"], "merge")
      .addEdge("merge", END)
      .compile();
    // By default such a graph gets the superstep layout (test/xstate/supersteps.test.ts); one state per node is refused.
    expect(Object.keys(toMachine(graph).root.states)).toEqual([START, "__superstep__", END, STEP_LIMIT_STATE]);
    const error = catchError(() => toMachine(graph, { layout: "nodes" }));
    expect(error).toMatchObject({ name: "XStateExportError", code: "UNSUPPORTED_GRAPH", names: ["plan", "web", "papers"] });
  });

  it("rejects bad options with InvalidOptionError", () => {
    expect(() => toMachine(report, { mode: "fast" as "run" })).toThrow(InvalidOptionError);
    expect(() => toMachine(report, { id: "my.graph" })).toThrow(/^toMachine: id must be/);
  });

  it("rejects a bad input or step limit when the actor starts, with the mini engine's errors", async () => {
    const actor = createActor(toMachine(report), { input: { state: { ...initialReportState(), extra: 1 } as ReportState } });
    actor.subscribe({ error: () => {} });
    actor.start();
    expect(actor.getSnapshot().error).toMatchObject({ code: "INVALID_INPUT", node: START });
    const limited = createActor(toMachine(report), { input: { state: initialReportState(), maxSteps: 0 } });
    limited.subscribe({ error: () => {} });
    limited.start();
    expect(limited.getSnapshot().error).toBeInstanceOf(InvalidOptionError);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("toMachine: inspecting a run (as docs/xstate.md shows it)", () => {
  it("reports each state the root actor enters through XState's inspect option", async () => {
    const values: unknown[] = [];
    const actor = createActor(toMachine(counterGraph(2)), {
      input: { state: counterInput() },
      inspect: (event) => {
        if (event.type === "@xstate.snapshot" && event.actorRef.sessionId === event.rootId)
          values.push((event.snapshot as AnyMachineSnapshot).value);
      },
    }).start();
    await toPromise(actor);
    expect(values).toEqual([START, "inc", "inc", "done", END]);
  });
});
