/**
 * A step's `update` on the LangGraph runner is what the mini engine shows (the kernel's `settle`, by
 * `visibleUpdate`): the node's own object, prototype included, unless a list of Commands wrote parts.
 * Found by test/properties/driver-equivalence.test.ts (seed -144169664: a node returning an object with
 * a null prototype, which the runner rebuilt as a plain object).
 */
import { describe, expect, it } from "vitest";
import { Command, END, START, StateGraph } from "../../src/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";

interface S {
  count: number;
  label: string;
}

function graphOf(update: () => Partial<S> | Command<unknown, S>[]) {
  return new StateGraph<S>({ fields: ["count", "label"] }).addNode("a", update).addEdge(START, "a").addEdge("a", END).compile();
}

describe("a step's update on the LangGraph runner", () => {
  it("keeps a null-prototype update's prototype, as invoke does", async () => {
    const graph = graphOf(() => Object.assign(Object.create(null) as Partial<S>, { count: 1 }));
    const mini = await graph.invoke({ count: 0, label: "" });
    const lang = await runOnLangGraph(graph, { count: 0, label: "" });
    expect(Object.getPrototypeOf(mini.steps[0]?.update)).toBeNull();
    expect(lang.steps).toStrictEqual(mini.steps);
  });

  it("shows a list of Commands' parts together, as invoke does", async () => {
    const graph = graphOf(() => [new Command({ update: { count: 1 } }), new Command({ update: { label: "x" } })]);
    const mini = await graph.invoke({ count: 0, label: "" });
    const lang = await runOnLangGraph(graph, { count: 0, label: "" });
    expect(mini.steps[0]?.update).toEqual({ count: 1, label: "x" });
    expect(lang.steps).toStrictEqual(mini.steps);
  });
});
