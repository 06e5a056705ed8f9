/**
 * The example graphs run identically on an XState actor and on the mini engine: the same final state,
 * trace, routes and steps, and the same error when a run stops.
 */
import { describe, expect, it } from "vitest";
import {
  AGENT_TASKS,
  agentQuestion,
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  LANGUAGES as AGENT_LANGUAGES,
  ScriptedModel,
  TEACHING_CITIES,
} from "../../src/examples/agent/index.js";
import { buildReportGraph, DRAFT_STYLES, initialReportState, LANGUAGES, type City } from "../../src/examples/report/index.js";
import { runOnXState, type XStateRunOptions } from "../../src/xstate/index.js";
import { outcomeOf, type Outcome } from "./_outcome.js";

const CITY_LISTS: readonly (readonly City[])[] = [["Tokyo"], ["Paris"], ["Tokyo", "Paris"], ["Paris", "Tokyo"]];

const reportCases = DRAFT_STYLES.flatMap((draftStyle) =>
  [0, 1, 2].flatMap((maxRevisions) =>
    LANGUAGES.flatMap((language) =>
      CITY_LISTS.map((cities) => ({ draftStyle, maxRevisions, language, cities, includeFahrenheit: cities.length === 2 })),
    ),
  ),
);

async function bothEngines(run: (options: XStateRunOptions) => ReturnType<typeof runOnXState>, mini: () => ReturnType<typeof runOnXState>) {
  const onMini = await outcomeOf(mini);
  const onXState = await outcomeOf(() => run({ mode: "run" }));
  const stepByStep = await outcomeOf(() => run({ mode: "step" }));
  return { onMini, onXState, stepByStep };
}

describe("the report graph on XState", () => {
  it(`runs each of ${reportCases.length} requests as the mini engine does: every draft style, 0 to 2 revisions, both languages, one or two cities`, async () => {
    const traces = new Set<string>();
    for (const { draftStyle, maxRevisions, ...request } of reportCases) {
      const graph = buildReportGraph({ draftStyle, maxRevisions });
      const { onMini, onXState, stepByStep } = await bothEngines(
        (options) => runOnXState(graph, initialReportState(request), { maxSteps: 30, ...options }),
        () => graph.invoke(initialReportState(request), { maxSteps: 30 }),
      );
      expect(onXState, `${draftStyle}, ${maxRevisions} revisions, ${JSON.stringify(request)}`).toStrictEqual(onMini);
      expect(stepByStep).toStrictEqual(onMini);
      if (onMini.kind === "done") traces.add(onMini.trace.join(" "));
    }
    // Not vacuous: the requests take every way through the graph (accept, revise once or twice, hold).
    expect(traces.size).toBe(5);
  });

  it("stops at the same node with the same state for every step limit", async () => {
    const graph = buildReportGraph({ draftStyle: "stubborn", maxRevisions: 2 });
    const endings = new Set<string>();
    for (let maxSteps = 1; maxSteps <= 9; maxSteps++) {
      const { onMini, onXState, stepByStep } = await bothEngines(
        (options) => runOnXState(graph, initialReportState(), { maxSteps, ...options }),
        () => graph.invoke(initialReportState(), { maxSteps }),
      );
      expect(onXState).toStrictEqual(onMini);
      expect(stepByStep).toStrictEqual(onMini);
      endings.add(endingOf(onMini));
    }
    expect(endings).toEqual(new Set(["STEP_LIMIT", "done"]));
  });
});

describe("the agent graph on XState", () => {
  const budgets = [
    { maxModelSteps: 6, maxToolCalls: 6 },
    { maxModelSteps: 1, maxToolCalls: 6 },
    { maxModelSteps: 2, maxToolCalls: 6 },
    { maxModelSteps: 6, maxToolCalls: 0 },
    { maxModelSteps: 6, maxToolCalls: 1 },
  ];

  it("runs every task, city and language, under every budget case, as the mini engine does", async () => {
    const endings = new Set<string>();
    for (const task of AGENT_TASKS) {
      for (const city of TEACHING_CITIES) {
        for (const language of AGENT_LANGUAGES) {
          for (const budget of budgets) {
            const graph = buildAgentGraph(new ScriptedModel({ city, task, language }), budget);
            const input = initialAgentState(agentQuestion({ city, task, language }));
            const maxSteps = agentStepLimit(budget.maxModelSteps);
            const { onMini, onXState, stepByStep } = await bothEngines(
              (options) => runOnXState(graph, input, { maxSteps, ...options }),
              () => graph.invoke(input, { maxSteps }),
            );
            expect(onXState, `${task} ${city} ${language} ${JSON.stringify(budget)}`).toStrictEqual(onMini);
            expect(stepByStep).toStrictEqual(onMini);
            if (onMini.kind === "done") endings.add(String((onMini.state as { error: string | null }).error));
          }
        }
      }
    }
    // Not vacuous: answers, an exhausted model budget and an exhausted tool budget all occur.
    expect(endings).toEqual(new Set(["null", "model_budget_exhausted", "tool_budget_exhausted"]));
  });

  it("stops at the same node as the mini engine when the engine's step limit is tighter than the budgets", async () => {
    const graph = buildAgentGraph(new ScriptedModel({ city: "Paris", task: "convert", language: "zh-CN" }));
    const input = initialAgentState(agentQuestion({ city: "Paris", task: "convert", language: "zh-CN" }));
    for (let maxSteps = 1; maxSteps <= 5; maxSteps++) {
      const { onMini, onXState, stepByStep } = await bothEngines(
        (options) => runOnXState(graph, input, { maxSteps, ...options }),
        () => graph.invoke(input, { maxSteps }),
      );
      expect(onXState).toStrictEqual(onMini);
      expect(stepByStep).toStrictEqual(onMini);
    }
  });
});

function endingOf(outcome: Outcome): string {
  return outcome.kind === "done" ? "done" : outcome.code;
}
