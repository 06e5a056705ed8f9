/** The resume points of a spec: every place a thread of the graph can be found paused or stopped. */
import { describe, expect, it } from "vitest";
import { exampleSpec } from "../../src/cli/graph-source.js";
import { END, START, type GraphSpec } from "../../src/spec.js";
import { resumePoints } from "../../src/validate/resume-points.js";

const ids = (spec: GraphSpec) => resumePoints(spec).map((point) => point.id);

describe("resumePoints", () => {
  it("gives each node before, interrupt and after, in declaration order", () => {
    expect(ids(exampleSpec("agent"))).toEqual([
      "before:model",
      "interrupt:model",
      "after:model",
      "before:tools",
      "interrupt:tools",
      "after:tools",
    ]);
  });

  it("puts a subgraph node's child points under its name, and each join at the end", () => {
    expect(ids(exampleSpec("research"))).toEqual([
      "before:plan",
      "interrupt:plan",
      "after:plan",
      "before:web",
      "interrupt:web",
      "after:web",
      "before:papers",
      "before:papers/search",
      "interrupt:papers/search",
      "after:papers/search",
      "before:papers/rank",
      "interrupt:papers/rank",
      "after:papers/rank",
      "after:papers",
      "before:internal",
      "interrupt:internal",
      "after:internal",
      "before:synthesize",
      "interrupt:synthesize",
      "after:synthesize",
      "join:synthesize",
    ]);
    expect(resumePoints(exampleSpec("research")).at(-1)).toEqual({
      id: "join:synthesize",
      kind: "join",
      path: ["synthesize"],
      sources: ["web", "papers", "internal"],
    });
    expect(resumePoints(exampleSpec("research"))[7]).toEqual({ id: "before:papers/search", kind: "before", path: ["papers", "search"] });
  });

  it("adds send for the destinations of a route that may send and of a node's Command ends (END is no node)", () => {
    const spec: GraphSpec = {
      nodes: ["plan", "worker", "review"],
      edges: [
        { from: START, to: "plan" },
        { from: "worker", to: END },
      ],
      routes: [{ from: "plan", router: "fan", paths: { worker: "worker" }, sends: true }],
      ends: [{ from: "review", to: ["plan", END] }],
      reducers: [],
    };
    expect(ids(spec).filter((id) => id.startsWith("send:"))).toEqual(["send:plan", "send:worker"]);
    const plain = { ...spec, routes: [{ from: "plan", router: "fan", paths: { worker: "worker" } }], ends: [] };
    expect(ids(plain).filter((id) => id.startsWith("send:"))).toEqual([]);
  });

  it("tells two joins into one node apart by their sources", () => {
    const spec: GraphSpec = {
      nodes: ["a", "b", "c", "d", "t"],
      edges: [{ from: START, to: "a" }],
      routes: [],
      joins: [
        { from: ["a", "b"], to: "t" },
        { from: ["c", "d"], to: "t" },
      ],
      reducers: [],
    };
    expect(ids(spec).filter((id) => id.startsWith("join:"))).toEqual(["join:t(a,b)", "join:t(c,d)"]);
  });
});
