/**
 * Bounds. LangGraph.js counts supersteps (`recursionLimit`) and raises GraphRecursionError after the
 * last allowed one, even when the run would end right there; the mini engine counts node executions
 * (`maxSteps`) and stops only before a node it may not start. So `maxSteps: N` runs as LangGraph's
 * `recursionLimit: N + 1` (what lets a run of N nodes finish there), and runOnLangGraph itself refuses
 * the superstep LangGraph announces beyond the bounds, before its nodes start: where the mini engine stops.
 */
import { GraphRecursionError } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildReportGraph, DRAFT_STYLES, initialReportState } from "../../src/examples/report/index.js";
import { GraphLimitError, InvalidOptionError, type Step } from "../../src/index.js";
import { langGraphRecursionLimit, runOnLangGraph, streamOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { failure, plainSteps, settle } from "./_helpers.js";

describe("LangGraph.js recursionLimit", () => {
  it("recursionLimit: 1 raises LangGraph's own GraphRecursionError", async () => {
    const graph = await toLangGraph(buildReportGraph());
    const error: unknown = await graph.invoke(initialReportState(), { recursionLimit: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphRecursionError);
    expect(error).toMatchObject({ name: "GraphRecursionError", lc_error_code: "GRAPH_RECURSION_LIMIT" });
  });

  it("raises even when the run ends in exactly recursionLimit supersteps (the mini engine finishes)", async () => {
    const complete = buildReportGraph({ draftStyle: "complete" }); // collect, write_draft, check_draft, publish
    const graph = await toLangGraph(complete);
    await expect(graph.invoke(initialReportState(), { recursionLimit: 4 })).rejects.toBeInstanceOf(GraphRecursionError);
    await expect(graph.invoke(initialReportState(), { recursionLimit: 5 })).resolves.toMatchObject({ status: "completed" });
    expect((await complete.invoke(initialReportState(), { maxSteps: 4 })).state.status).toBe("completed");
    expect((await runOnLangGraph(complete, initialReportState(), { maxSteps: 4 })).state.status).toBe("completed");
  });
});

describe("maxSteps on LangGraph.js stops where it stops on the mini engine", () => {
  const cases = DRAFT_STYLES.flatMap((draftStyle) => [1, 2, 3, 4, 5, 6, 7, 8].map((maxSteps) => ({ draftStyle, maxSteps })));

  it.each(cases)("$draftStyle with maxSteps $maxSteps: same result or same GraphLimitError", async ({ draftStyle, maxSteps }) => {
    const graph = buildReportGraph({ draftStyle, maxRevisions: 2 });
    const mini = await settle(graph.invoke(initialReportState(), { maxSteps }));
    const onLangGraph = await settle(runOnLangGraph(graph, initialReportState(), { maxSteps }));
    expect(onLangGraph).toEqual(mini);
  });

  it("the limit error names the node not started; the run refused it, so LangGraph's GraphRecursionError is not involved", async () => {
    const error: unknown = await runOnLangGraph(buildReportGraph(), initialReportState(), { maxSteps: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ code: "STEP_LIMIT", node: "check_draft", trace: ["collect", "write_draft"] });
    expect((error as Error).cause).toBeUndefined();
  });

  it("streaming (what tsg prints with --show-updates): the same steps, then the same GraphLimitError", async () => {
    const collect = async (steps: AsyncIterable<Step<unknown>>) => {
      const seen: Step<unknown>[] = [];
      try {
        for await (const step of steps) seen.push(step);
      } catch (error) {
        return { steps: plainSteps(seen), error: failure(error) };
      }
      return { steps: plainSteps(seen) };
    };
    const graph = buildReportGraph();
    const mini = await collect(graph.stream(initialReportState(), { maxSteps: 4 }));
    expect(mini.steps.map((s) => s.node)).toEqual(["collect", "write_draft", "check_draft", "revise_draft"]);
    expect(mini.error).toMatchObject({ name: "GraphLimitError", node: "check_draft" });
    expect(await collect(streamOnLangGraph(graph, initialReportState(), { maxSteps: 4 }))).toEqual(mini);
  });

  it("maps maxSteps N to LangGraph's recursionLimit N + 1 (the bound under which N supersteps can finish there)", () => {
    expect(langGraphRecursionLimit({ maxSteps: 30 })).toBe(31);
    expect(langGraphRecursionLimit({})).toBe(26);
    expect(langGraphRecursionLimit({ maxSteps: 40, recursionLimit: 10 })).toBe(11);
  });

  it("rejects the bounds the mini engine rejects", async () => {
    await expect(runOnLangGraph(buildReportGraph(), initialReportState(), { maxSteps: 0 })).rejects.toBeInstanceOf(InvalidOptionError);
    expect(() => langGraphRecursionLimit({ maxSteps: 1.5 })).toThrow(InvalidOptionError);
  });
});
