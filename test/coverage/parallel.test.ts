/**
 * Coverage for graphs that fan out and join: their transitions, plans of runs (superstep by superstep),
 * replays of every planned run on both engines, and reports of recorded runs.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  coveragePlan,
  coverageReport,
  CoverageError,
  formatPath,
  replayPath,
  scriptedGraph,
  transitionsOf,
  type CoveragePath,
} from "../../src/coverage/index.js";
import { buildDigestGraph, buildResearchGraph, initialResearchState } from "../../src/examples/research/index.js";
import { append, compileGraph, END, START, StateGraph, type CompiledGraph, type GraphSpec } from "../../src/index.js";
import { arbitraryGraphSpec } from "../../src/testing/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { slowJoinGraph } from "../helpers/parallel-graphs.js";
import { outcomeOf } from "../xstate/_outcome.js";

interface R {
  log: string[];
  summary: string | null;
}
const input = (): R => ({ log: [], summary: null });

/** a routes to b, to c, or to both; b and c join into d. */
function eitherOrBoth() {
  return new StateGraph<R>({ reducers: { log: append } })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addNode("d", (s) => ({ summary: s.log.join(" ") }))
    .addEdge(START, "a")
    .addConditionalEdges("a", (): ("x" | "y")[] => ["x", "y"], { x: "b", y: "c" })
    .addEdge(["b", "c"], "d")
    .addEdge("d", END)
    .compile();
}

describe("transitionsOf a parallel graph", () => {
  it("lists the research graph's fan-out and join edges, naming the rule each comes from", () => {
    expect(transitionsOf(buildResearchGraph()).map((t) => [t.label, t.kind === "edge" ? t.rule : "route"])).toEqual([
      ["START → plan", "edge"],
      ["plan → web", "fanOut"],
      ["plan → papers", "fanOut"],
      ["plan → internal", "fanOut"],
      ["web → synthesize", "join"],
      ["papers → synthesize", "join"],
      ["internal → synthesize", "join"],
      ["synthesize → END", "edge"],
    ]);
  });
});

describe("coveragePlan for parallel graphs: planned runs, superstep by superstep", () => {
  it("covers the research graph's 8 transitions with one run of three supersteps", () => {
    const plan = coveragePlan(buildResearchGraph());
    expect([plan.via, plan.covered, plan.total, plan.paths.length]).toEqual(["linear", 8, 8, 1]);
    const [run] = plan.paths as [CoveragePath];
    expect(run.supersteps).toEqual([["plan"], ["web", "papers", "internal"], ["synthesize"]]);
    expect(run.trace).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    expect(run.name).toBe("plan → {web, papers, internal} → synthesize");
    expect(formatPath(run)).toBe("START → plan → {web, papers, internal} → synthesize → END");
    expect([run.routes, run.choices]).toEqual([[], []]);
  });

  it("plans the digest graph (Send) as paths: each destination of the list path map alone", () => {
    const plan = coveragePlan(buildDigestGraph());
    const last = buildDigestGraph().spec.nodes.at(-1);
    expect(plan.paths.map(formatPath)).toEqual(["START → split [__end__] → END", `START → split [summarize] → summarize → ${last} → END`]);
    expect([plan.covered, plan.total]).toEqual([5, 5]);
  });

  it("waits at a join for the slow branch", () => {
    const [run, ...rest] = coveragePlan(slowJoinGraph()).paths;
    expect(rest).toEqual([]);
    expect(run?.supersteps).toEqual([["plan"], ["quick", "slow1"], ["slow2"], ["join"]]);
  });

  it("takes several keys at once where a join needs them, and each key alone where that is enough", () => {
    // Taking x alone would leave the join waiting for c, and such a run fails (JOIN_INCOMPLETE).
    const plan = coveragePlan(eitherOrBoth());
    expect(plan.paths.map(formatPath)).toEqual(["START → a [x, y] → {b, c} → d → END"]);
    expect(plan.paths.map((p) => p.name)).toEqual(["x + y"]);
    expect(plan.paths[0]?.choices).toEqual([{ from: "a", keys: ["x", "y"] }]);
    expect([plan.covered, plan.total]).toEqual([6, 6]);
    const noJoin = new StateGraph<R>()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addEdge(START, ["a", "b"])
      .addConditionalEdges("a", (): "x" | "y" => "x", { x: "c", y: END })
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    expect(coveragePlan(noJoin).paths.map(formatPath)).toEqual(["START → {a [y], b} → END", "START → {a [x], b} → c → END"]);
  });

  it("refuses a transition no run that ends can take, naming it (code UNCOVERABLE)", () => {
    // c runs only after d, and d only after the join of b and c: once b ran, the run can only fail.
    const graph = new StateGraph<R>()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addNode("d", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "go" | "stop" => "stop", { go: "b", stop: END })
      .addEdge(["b", "c"], "d")
      .addConditionalEdges("d", (): "loop" | "done" => "done", { loop: "c", done: END })
      .compile();
    const error = catchError(() => coveragePlan(graph));
    expect(error).toBeInstanceOf(CoverageError);
    expect(error).toMatchObject({ code: "UNCOVERABLE", message: expect.stringContaining("JOIN_INCOMPLETE") });
    expect((error as CoverageError).transitions.map((t) => t.label)).toEqual([
      "a [go] → b",
      "b → d",
      "c → d",
      "d [loop] → c",
      "d [done] → END",
    ]);
  });

  it("gives up clearly on a graph with too many configurations (code PLAN_TOO_LARGE)", () => {
    const branches = Array.from({ length: 12 }, (_, i) => `b${i}`);
    const spec: GraphSpec = {
      nodes: branches,
      edges: [],
      fanOuts: [{ from: START, to: branches }],
      routes: branches.map((from) => ({ from, router: "router", paths: { one: END, two: END, three: END } })),
      reducers: [],
    };
    expect(() => coveragePlan({ spec })).toThrow(
      expect.objectContaining({ code: "PLAN_TOO_LARGE", message: expect.stringContaining("coverageReport") }),
    );
  });

  it("refuses via xstate, whose coverage model has one state per node (code XSTATE_PLAN_UNSUPPORTED)", async () => {
    const error = await coveragePlan(buildResearchGraph(), { via: "xstate" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "XSTATE_PLAN_UNSUPPORTED",
      message: expect.stringMatching(/^coveragePlan: via "xstate" .*Omit `via`/),
    });
  });
});

describe("replaying planned runs on both engines", () => {
  it("replays the research graph's run on the mini engine and on XState, as its own run goes", async () => {
    for (const path of coveragePlan(buildResearchGraph()).paths) {
      const own = await outcomeOf(() => buildResearchGraph().invoke(initialResearchState("tides")));
      const onMini = await outcomeOf(() => replayPath(buildResearchGraph(), path, initialResearchState("tides")));
      const onXState = await outcomeOf(() => replayPath(buildResearchGraph(), path, initialResearchState("tides"), { run: runOnXState }));
      expect(onMini).toStrictEqual(own);
      expect(onXState).toStrictEqual(own);
    }
  });

  it("replays the digest graph's paths with the Sends' inputs, and each matches a run of its own", async () => {
    const plan = coveragePlan(buildDigestGraph());
    for (const [name, documents] of [
      ["__end__", []],
      ["summarize", ["one two three four five six"]],
    ] as const) {
      const path = plan.paths.find((p) => p.name === name) as CoveragePath;
      const start = { documents: [...documents], summaries: [], digest: null };
      const own = await outcomeOf(() => buildDigestGraph().invoke(start));
      expect(await outcomeOf(() => replayPath(buildDigestGraph(), path, start))).toStrictEqual(own);
      expect(await outcomeOf(() => replayPath(buildDigestGraph(), path, start, { run: runOnXState }))).toStrictEqual(own);
    }
  });

  it("keeps one Send per planned destination: with three documents, the summarize path summarizes the first", async () => {
    const path = coveragePlan(buildDigestGraph()).paths.find((p) => p.name === "summarize") as CoveragePath;
    const { trace, state } = await replayPath(buildDigestGraph(), path, { documents: ["a b", "c d", "e f"], summaries: [], digest: null });
    expect(trace).toEqual(["split", "summarize", buildDigestGraph().spec.nodes.at(-1)]);
    expect(state.digest).toBe("1 summaries: a b");
  });

  it("replays runs that take several keys at once, on both engines alike", async () => {
    for (const path of coveragePlan(eitherOrBoth()).paths) {
      const onMini = await outcomeOf(() => replayPath(eitherOrBoth(), path, input()));
      const onXState = await outcomeOf(() => replayPath(eitherOrBoth(), path, input(), { run: runOnXState }));
      expect(onMini).toMatchObject({ kind: "done", trace: path.trace, supersteps: path.supersteps.length });
      expect(onXState).toStrictEqual(onMini);
    }
  });

  it("scripts a choice of several keys as a list", async () => {
    const { trace, steps } = await scriptedGraph(eitherOrBoth(), [{ from: "a", keys: ["y", "x"] }]).invoke(input());
    expect(trace).toEqual(["a", "b", "c", "d"]);
    expect(steps[0]?.route).toEqual(["y", "x"]);
  });
});

describe("coverageReport for parallel graphs", () => {
  it("takes all 8 transitions of the research graph from one run, on either engine", async () => {
    const onMini = await buildResearchGraph().invoke(initialResearchState("tides"));
    const onXState = await runOnXState(buildResearchGraph(), initialResearchState("tides"));
    for (const run of [onMini, onXState])
      expect(coverageReport(buildResearchGraph(), [run])).toMatchObject({ covered: 8, total: 8, missing: [] });
  });

  it("counts each Send's route, and misses the digest graph's END key until a run takes it", async () => {
    const digest = buildDigestGraph();
    const three = await digest.invoke({ documents: ["a", "b", "c"], summaries: [], digest: null });
    const report = coverageReport(digest, [three]);
    expect(report.missing.map((t) => t.label)).toEqual(["split [__end__] → END"]);
    expect(report.counts.find((c) => c.transition.label === "split [summarize] → summarize")?.count).toBe(3);
    const none = await digest.invoke({ documents: [], summaries: [], digest: null });
    expect(coverageReport(digest, [three, none]).missing).toEqual([]);
  });
});

/**
 * Compiles a spec with nodes that change nothing and routers that choose at random (from a seed), as
 * the planner's model allows: one key, or all of them, or (a list path map) none.
 */
function randomlyRouted(spec: GraphSpec, seed: number): CompiledGraph {
  let state = seed >>> 0 || 1;
  const random = (n: number): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0), (state >>> 8) % n);
  const routers = spec.routes.map((route) => {
    const keys = Object.keys(route.paths);
    const router = () => {
      const pick = random(keys.length + 2);
      if (pick < keys.length) return keys[pick];
      return pick === keys.length || route.sends !== true ? keys : [];
    };
    return [route.from, router];
  });
  return compileGraph({
    spec,
    nodes: Object.fromEntries(spec.nodes.map((node) => [node, () => undefined])),
    routers: Object.fromEntries(routers),
    reducers: {},
  });
}

/** Compiles a spec with nodes that change nothing and routers that go on with their first key. */
function trivial(spec: GraphSpec): CompiledGraph {
  return compileGraph({
    spec,
    nodes: Object.fromEntries(spec.nodes.map((node) => [node, () => undefined])),
    routers: Object.fromEntries(spec.routes.map((route) => [route.from, () => Object.keys(route.paths)[0]])),
    reducers: {},
  });
}

describe("plans of random parallel graphs", () => {
  const specs = arbitraryGraphSpec({ kind: "valid", minNodes: 2, maxNodes: 6, parallel: true });

  test.prop([specs], { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 150), seed: 11 })(
    "cover every transition with runs that replay exactly on both engines, or name the transitions no run can take",
    async (spec) => {
      let plan;
      try {
        plan = coveragePlan(trivial(spec));
      } catch (error) {
        expect(error).toMatchObject({ code: "UNCOVERABLE" });
        const missing = (error as CoverageError).transitions.map((t) => t.label);
        expect(missing.length).toBeGreaterThan(0);
        // Checked another way: runs with random routers that end never take them.
        const ended = [];
        for (let seed = 1; seed <= 30; seed++) {
          const run = await randomlyRouted(spec, seed)
            .invoke({}, { maxSteps: 40 })
            .catch(() => undefined);
          if (run !== undefined) ended.push(run);
        }
        const taken = coverageReport({ spec }, ended).exercised.map((t) => t.label);
        expect(taken.filter((label) => missing.includes(label))).toEqual([]);
        return;
      }
      expect(plan.covered).toBe(plan.total);
      const runs = [];
      for (const path of plan.paths) {
        const onMini = await replayPath(trivial(spec), path, {});
        // The superstep machine runs any spec (one state per node refuses names such as "__proto__").
        const onXState = await replayPath(trivial(spec), path, {}, { run: (g, i, o) => runOnXState(g, i, { ...o, layout: "supersteps" }) });
        expect([onMini.trace, onMini.supersteps]).toEqual([path.trace, path.supersteps.length]);
        expect(onXState.trace).toEqual(onMini.trace);
        expect(onXState.routes).toEqual(onMini.routes);
        expect(onMini.routes.map(({ from, key, to }) => ({ from, key, to }))).toEqual(path.routes);
        runs.push(onMini);
      }
      // What the replays took is what the plan says it covers: every transition.
      expect(coverageReport(trivial(spec), runs).missing).toEqual([]);
    },
    60_000,
  );

  it("the random graphs are parallel, and most can be planned (the property is not vacuous)", () => {
    let parallel = 0;
    let planned = 0;
    let wide = 0;
    for (const spec of fc.sample(specs, { numRuns: 150, seed: 11 })) {
      if ((spec.fanOuts?.length ?? 0) + (spec.joins?.length ?? 0) === 0) continue;
      parallel += 1;
      try {
        const plan = coveragePlan({ spec });
        planned += 1;
        if (plan.paths.some((p) => p.supersteps.some((s) => s.length > 1))) wide += 1;
      } catch {
        // UNCOVERABLE: counted by its absence.
      }
    }
    // The others have parts no run can leave (a fan-out to END and a node that loops back keep a run
    // going forever), or joins whose sources never run together: validation accepts such specs.
    expect(parallel).toBeGreaterThan(40);
    expect(planned / parallel).toBeGreaterThan(0.6);
    expect(wide).toBeGreaterThan(20);
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
