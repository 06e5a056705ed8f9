/**
 * The abstract coverage model, and the facts about `xstate/graph` that make it necessary (each one is
 * stated in docs/xstate.md).
 */
import { createActor, setup } from "xstate";
import { createTestModel, getSimplePaths } from "xstate/graph";
import { describe, expect, it } from "vitest";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { END, START, StateGraph } from "../../src/index.js";
import { routeEvent, toCoverageModel, toMachine, XStateExportError } from "../../src/xstate/index.js";

const report = buildReportGraph();

/** The transitions a list of model paths takes, as `state --event-->` strings. */
function takenBy(paths: readonly { steps: readonly { state: { value: unknown }; event: { type: string } }[] }[]): Set<string> {
  const taken = new Set<string>();
  for (const path of paths) {
    path.steps.slice(1).forEach((step, i) => taken.add(`${String(path.steps[i]?.state.value)} --${step.event.type}-->`));
  }
  return taken;
}

describe("toCoverageModel", () => {
  it("has no context, one state per node, START first and a final END", () => {
    const model = toCoverageModel(report);
    expect(Object.keys(model.root.states)).toEqual([START, ...report.spec.nodes, END]);
    expect(model.root.states[END]?.type).toBe("final");
    expect(createActor(model).getSnapshot().context).toEqual({});
  });

  it("makes each route key an event `route.<key>`, and each fixed edge the event `next`", () => {
    const model = toCoverageModel(report);
    const events = (state: string) => Object.keys(model.root.states[state]?.on ?? {});
    expect(events("check_draft")).toEqual(["route.accept", "route.revise", "route.hold"]);
    expect(events(START)).toEqual(["next"]);
    expect(events("revise_draft")).toEqual(["next"]);
    expect(routeEvent("accept")).toBe("route.accept");
  });

  it("moves between nodes as the graph does", () => {
    const actor = createActor(toCoverageModel(report)).start();
    for (const type of ["next", "next", "next", "route.revise", "next", "route.hold", "next"] as const) actor.send({ type });
    expect(actor.getSnapshot().status).toBe("done");
  });

  it("refuses route keys XState would read as wildcards", () => {
    const spec = { ...report.spec, routes: [{ ...report.spec.routes[0], from: "check_draft", router: "r", paths: { "*": "publish" } }] };
    expect(() => toCoverageModel({ spec })).toThrow(XStateExportError);
  });
});

describe("what xstate/graph sees", () => {
  it("explores every branch of the abstract model: shortest paths reach all 9 transitions of the report graph", () => {
    const model = createTestModel(toCoverageModel(report));
    const heads = model.getShortestPaths();
    const full = model.getShortestPathsFrom(heads, { toState: (s) => s.status === "done" });
    expect(full).toHaveLength(4);
    expect(takenBy(full).size).toBe(9);
  });

  it("plain simple paths never take the revise_draft → check_draft back-edge (7 of 9 transitions)", () => {
    const paths = getSimplePaths(toCoverageModel(report), { toState: (s) => s.status === "done" });
    const taken = takenBy(paths);
    expect(taken.size).toBe(7);
    expect(taken.has("revise_draft --next-->")).toBe(false);
  });

  it("by default, cannot join paths that end at a node routing to itself", () => {
    // START → draft → check; check routes to END, to itself, and back to draft.
    const selfLooping = new StateGraph<{ n: number }>()
      .addNode("draft", () => ({}))
      .addNode("check", () => ({}))
      .addEdge(START, "draft")
      .addEdge("draft", "check")
      .addConditionalEdges("check", (): "done" | "again" | "redo" => "done", { done: END, again: "check", redo: "draft" })
      .compile();
    const model = createTestModel(toCoverageModel(selfLooping));
    expect(() => model.getShortestPathsFrom(model.getShortestPaths(), { toState: (s) => s.status === "done" })).toThrow(
      "Paths cannot be joined",
    );
  });

  it("cannot explore the running machine: its nodes are invoked actors", () => {
    expect(() => createTestModel(toMachine(report))).toThrow("Invocations on test machines are not supported");
  });

  it("sees only the branch the context picks when routing is guarded on context", () => {
    const guarded = setup({ types: { context: {} as { passed: boolean } } }).createMachine({
      context: { passed: false },
      initial: "check",
      states: {
        check: { always: [{ guard: ({ context }) => context.passed, target: "publish" }, { target: "revise" }] },
        publish: { type: "final" },
        revise: { type: "final" },
      },
    });
    const reached = createTestModel(guarded)
      .getShortestPaths()
      .map((path) => path.state.value);
    expect(reached).toEqual(["revise"]);
  });
});
