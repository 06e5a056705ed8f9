/**
 * The benchmarks at tiny sizes: every workload verifies (each engine's final state matches the mini
 * engine's) and the report renders. No timing is asserted: shared machines make timed assertions flaky.
 */
import { describe, expect, it } from "vitest";
import { overheadOf, overheadTable, timeAlternated } from "../../bench/_overhead.js";
import { timeRounds } from "../../bench/_rounds.js";
import { runRuntimeSuite } from "../../bench/runtime-suite.js";
import { runTypesSuite } from "../../bench/types-suite.js";
import { AGENT_NODES, agentGraphSource } from "../../bench/typecheck/agent.js";
import { chainWorkload } from "../../bench/workloads/chain.js";
import { coverageWorkload } from "../../bench/workloads/coverage.js";
import { fanOutWorkload } from "../../bench/workloads/fan-out.js";
import { CHECKPOINTED, checkpointedWorkload } from "../../bench/workloads/checkpointed.js";
import { REPORT, reportWorkload } from "../../bench/workloads/report.js";
import { STATE_SCHEMA, stateSchemaWorkload } from "../../bench/workloads/state-schema.js";

const once = { rounds: 1, time: 1, warmupTime: 0, iterations: 1 };

describe("runtime benchmark", () => {
  it("verifies every engine on the report graph before timing it", async () => {
    const workload = await reportWorkload();
    expect(workload.skipped).toEqual([]);
    expect(workload.contenders.map((c) => c.name)).toEqual(Object.values(REPORT));
  });

  it("verifies the report graph on every store, and LangGraph.js with PostgresSaver, on its own PostgreSQL", async () => {
    const workload = await checkpointedWorkload();
    try {
      expect(workload.skipped).toEqual([]);
      expect(workload.contenders.map((c) => c.name)).toEqual(Object.values(CHECKPOINTED));
    } finally {
      await workload.close();
    }
  }, 60_000);

  it("verifies the report graph with a zod, valibot and arktype state schema: each ends where the example's graph ends", async () => {
    const workload = await stateSchemaWorkload();
    expect(workload.skipped).toEqual([]);
    expect(workload.contenders.map((c) => c.name)).toEqual(Object.values(STATE_SCHEMA));
  });

  it.each([
    ["a chain of 3 nodes", () => chainWorkload([3])],
    ["the fan-out", fanOutWorkload],
    ["coverage plans on a random graph of 3 nodes", () => coverageWorkload([3])],
  ])("verifies %s and times it in one round", async (_, make) => {
    const workload = await make();
    expect(workload.contenders.length).toBeGreaterThan(0);
    const timed = await timeRounds(workload, once);
    for (const contender of workload.contenders) expect(timed.rounds.get(contender.name)).toHaveLength(1);
  });

  it("runs the whole suite at tiny sizes and reports every target", async () => {
    const result = await runRuntimeSuite({
      ...once,
      chainSizes: [3, 6],
      coverageSizes: [3],
      allocationRuns: 2,
      retentionRuns: 2,
      overheadRounds: 1,
      throughputRuns: 4,
      longRunSteps: 2_000,
      explorationRuns: 5,
      log: () => {},
    });
    expect(result.targets.map((t) => t.met)).not.toContain(undefined);
    // Only what LangGraph.js cannot export yet may go unmeasured.
    const skipped = result.workloads.flatMap((timed) => timed.workload.skipped);
    for (const { reason } of skipped) expect(reason).toContain("not exported to LangGraph.js yet");
    expect(result.markdown).toContain("### Targets");
    // Issue 41's row: the report graph explored, its time per run and the planned paths reached.
    const exploring = result.targets.find((t) => t.what.startsWith("exploring the report graph"));
    expect(exploring?.measured).toMatch(/ms per run .* distinct paths; 2 of 3 planned paths reached$/);
  }, 120_000);
});

describe("the overhead formula", () => {
  it("is (store − plain) ÷ floor within each round, then the median over the rounds", () => {
    const figures = new Map([
      ["plain", [1, 2, 1]],
      ["store", [4, 8, 3]],
      ["floor", [1, 2, 4]],
    ]);
    // Rounds: (4−1)/1 = 3, (8−2)/2 = 3, (3−1)/4 = 0.5: a ratio of medians would say (4−1)/2 = 1.5.
    expect(overheadOf(figures, "store", "plain", "floor")).toEqual({ median: 3, min: 0.5, max: 3 });
    expect(overheadOf(figures, "store", "plain", "missing")).toBeUndefined();
  });

  it("tables each mode's floor, the floor-only store's overhead, ours, and ours less the floor-only store's, per round", () => {
    const figures = new Map([
      ["plain", [1, 1, 1]],
      ["floor", [1, 2, 1]],
      ["floor-only", [2, 3, 2]],
      ["ours", [4, 5, 3]],
    ]);
    const mode = { mode: "sync", floor: "floor", floorIs: "7 rows", store: "ours", floorStore: "floor-only", target: "≤ 1.3" };
    const table = overheadTable(figures, "plain", [mode], (spread) => `${spread?.median} ms`);
    // Ours: 3, 2, 2; the floor-only store: 1, 1, 1; ours less it: (4−2)/1 = 2, (5−3)/2 = 1, (3−2)/1 = 1.
    expect(table.modes.get("sync")).toEqual({ ours: { median: 2, min: 2, max: 3 }, least: { median: 1, min: 1, max: 1 } });
    expect(table.markdown).toContain("**overhead = (store run − plain run) ÷ floor**");
    expect(table.markdown).toContain("| sync | 7 rows | 1 ms | 1.00 (1.00–1.00) | **2.00 (2.00–3.00)** | 1.00 (1.00–2.00) | ≤ 1.3 |");
  });

  it("times every contender in every round, rotating their order", async () => {
    const order: string[] = [];
    const contenders = ["a", "b", "c"].map((name) => ({ name, run: () => void order.push(name) }));
    const figures = await timeAlternated(contenders, { rounds: 3, runs: 1, warmupRounds: 0 });
    expect(order.join("")).toBe("abcbcacab");
    for (const name of ["a", "b", "c"]) expect(figures.get(name)).toHaveLength(3);
  });
});

describe("type-check benchmark", () => {
  it("checks tiny generated graphs in both forms, bounded loops, and the agent graph, on both compilers without error", async () => {
    const result = await runTypesSuite({
      root: process.cwd(),
      sizes: [3],
      forms: ["builder", "defineGraph"],
      repeat: 1,
      boundary: undefined,
      withoutSearch: [],
      boundedSizes: [10],
      agent: true,
      keep: false,
      log: () => {},
    });
    expect(result.failures).toEqual([]);
    expect(result.rows.map((row) => row.outcome)).toEqual(Array(8).fill("clean"));
    expect(result.rows.filter((row) => row.source.form === "bounded").map((row) => row.source.nodes)).toEqual([10, 10]);
  }, 120_000);

  it("the agent graph declares AGENT_NODES nodes", () => {
    expect(agentGraphSource().match(/\.addNode\("/g)).toHaveLength(AGENT_NODES);
  });
});
