/**
 * The exported machine as XState's own tools see it: the JSON definition the visualizer reads keeps
 * every edge (START's included), and the path algorithms of `xstate/graph` walk the running machine.
 */
import { createActor, createMachine, toPromise } from "xstate";
import { getShortestPaths, getSimplePaths } from "xstate/graph";
import { describe, expect, it } from "vitest";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { toMachine } from "../../src/xstate/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";

/** Every target of every transition in a JSON machine definition, by source state. */
function edgesOf(definition: {
  states?: Record<string, { on?: Record<string, { target?: string[] }[]>; invoke?: unknown }>;
}): Record<string, string[]> {
  const edges: Record<string, string[]> = {};
  for (const [state, node] of Object.entries(definition.states ?? {})) {
    edges[state] = Object.values(node.on ?? {}).flatMap((transitions) => transitions.flatMap((t) => t.target ?? []));
  }
  return edges;
}

describe("the exported machine and XState's tools", () => {
  it("the JSON definition keeps START's edge (an eventless START would lose it)", () => {
    const definition = JSON.parse(JSON.stringify(toMachine(buildReportGraph()).definition));
    expect(edgesOf(definition)["__start__"]).toEqual([`#${definition.states.collect.id}`]);
    const rebuilt = createMachine(JSON.parse(JSON.stringify(toMachine(buildReportGraph()).config)));
    expect(Object.keys(rebuilt.states)).toContain("collect");
  });

  it("a machine rebuilt from its config, with the implementations provided again, runs the graph", async () => {
    const exported = toMachine(counterGraph(2));
    const rebuilt = exported.provide({}); // the config is plain data; its named actors come from the original setup
    const output = await toPromise(createActor(rebuilt, { input: { state: counterInput(), maxSteps: 10 } }).start());
    expect(output.trace).toEqual(["inc", "inc", "done"]);
  });

  it("getShortestPaths and getSimplePaths walk the running machine without a guard throwing", () => {
    const machine = toMachine(counterGraph(2));
    const input = { state: counterInput(), maxSteps: 10 };
    expect(getShortestPaths(machine, { input }).length).toBeGreaterThan(0);
    expect(getSimplePaths(machine, { input }).length).toBeGreaterThan(0);
  });
});
