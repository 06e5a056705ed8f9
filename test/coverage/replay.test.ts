/**
 * Replaying planned paths with scripted routes, on both engines: every planned path of both example
 * graphs runs, and the mini engine and the XState actor agree on each replay (and on each refusal,
 * when a node notices that the forced route contradicts its own checks).
 */
import { describe, expect, it } from "vitest";
import { coveragePlan, CoverageError, replayPath, scriptedGraph, type CoveragePath } from "../../src/coverage/index.js";
import {
  agentQuestion,
  buildAgentGraph,
  initialAgentState,
  ScriptedModel,
  type AgentOptions,
  type AgentTask,
} from "../../src/examples/agent/index.js";
import { buildReportGraph, DRAFT_STYLES, initialReportState, type ReportNodeOptions } from "../../src/examples/report/index.js";
import type { CompiledGraph, RunResult } from "../../src/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { outcomeOf } from "../xstate/_outcome.js";

interface Fixture<S extends object> {
  readonly name: string;
  readonly graph: () => CompiledGraph<S>;
  readonly input: () => S;
}

async function plannedPaths(graph: CompiledGraph<object>): Promise<CoveragePath[]> {
  const paths = [...coveragePlan(graph).paths, ...(await coveragePlan(graph, { via: "xstate" })).paths];
  return paths.filter((path, i) => paths.findIndex((other) => other.name === path.name) === i);
}

/**
 * Replays every planned path with every fixture on both engines. Returns, per path, the fixtures whose
 * replay finished, and those whose own (unscripted) run takes that very path.
 */
async function replayAll<S extends object>(fixtures: readonly Fixture<S>[]) {
  const paths = await plannedPaths((fixtures[0] as Fixture<S>).graph() as CompiledGraph<object>);
  const replayed = new Map<string, string[]>();
  const natural = new Map<string, string[]>();
  for (const path of paths) {
    for (const fixture of fixtures) {
      const onMini = await outcomeOf(() => replayPath(fixture.graph(), path, fixture.input()));
      const onXState = await outcomeOf(() => replayPath(fixture.graph(), path, fixture.input(), { run: runOnXState }));
      expect(onXState, `${path.name} with ${fixture.name}`).toStrictEqual(onMini);
      if (onMini.kind !== "done") continue;
      replayed.set(path.name, [...(replayed.get(path.name) ?? []), fixture.name]);
      const own = await outcomeOf(() => fixture.graph().invoke(fixture.input(), { maxSteps: 30 }) as Promise<RunResult<S>>);
      if (own.kind === "done" && own.trace.join() === path.trace.join()) {
        // Where the router would have chosen the same keys, forcing them changes nothing.
        expect(onMini).toStrictEqual(own);
        natural.set(path.name, [...(natural.get(path.name) ?? []), fixture.name]);
      }
    }
  }
  return { paths, replayed, natural };
}

const reportFixtures: Fixture<ReturnType<typeof initialReportState>>[] = DRAFT_STYLES.flatMap((draftStyle) =>
  [0, 1, 2].map((maxRevisions) => {
    const options: ReportNodeOptions = { draftStyle, maxRevisions };
    return { name: `${draftStyle}/${maxRevisions}`, graph: () => buildReportGraph(options), input: () => initialReportState() };
  }),
);

const agentFixtures: Fixture<ReturnType<typeof initialAgentState>>[] = (
  ["greet", "weather", "convert"] as const satisfies readonly AgentTask[]
).flatMap((task) =>
  [{}, { maxToolCalls: 0 }, { maxToolCalls: 1 }, { maxModelSteps: 1 }].map((budget: AgentOptions) => ({
    name: `${task} ${JSON.stringify(budget)}`,
    graph: () => buildAgentGraph(new ScriptedModel({ city: "Tokyo", task, language: "en" }), budget),
    input: () => initialAgentState(agentQuestion({ city: "Tokyo", task, language: "en" })),
  })),
);

describe("replaying planned paths on both engines", () => {
  it("replays every planned path of the report graph, and some request takes each path on its own", async () => {
    const { paths, replayed, natural } = await replayAll(reportFixtures);
    expect(paths.map((p) => p.name)).toEqual(["accept", "revise → accept", "hold", "revise → hold"]);
    for (const path of paths) {
      expect(replayed.get(path.name), path.name).toBeDefined();
      expect(natural.get(path.name), path.name).toBeDefined();
    }
    // The nodes keep their checks: forcing "accept" on a draft the check rejected fails in publish.
    expect(replayed.get("accept")).toEqual(["complete/0", "complete/1", "complete/2"]);
  });

  it("replays every planned path of the agent graph, and some task and budget takes each path on its own", async () => {
    const { paths, replayed, natural } = await replayAll(agentFixtures);
    expect(paths.map((p) => p.name)).toEqual(["end", "tools → end", "tools → model → end", "tools → model → tools → end"]);
    for (const path of paths) {
      expect(replayed.get(path.name), path.name).toBeDefined();
      expect(natural.get(path.name), path.name).toBeDefined();
    }
  });
});

describe("scripted routes", () => {
  it("override the router and leave the nodes as they are", async () => {
    const [stopAtOnce] = coveragePlan(counterGraph(3)).paths.filter((p) => p.name === "stop");
    const { trace, state } = await replayPath(counterGraph(3), stopAtOnce as CoveragePath, counterInput());
    expect(trace).toEqual(["inc", "done"]);
    expect(state).toMatchObject({ n: 1, log: ["inc 1"], note: "finished" });
  });

  it("replay one run: a scripted graph asked for more choices than scripted fails with REPLAY_DIVERGED", async () => {
    const scripted = scriptedGraph(counterGraph(3), [{ from: "inc", key: "stop" }]);
    await scripted.invoke(counterInput());
    const error = await scripted.invoke(counterInput()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ROUTER_FAILED", cause: expect.any(CoverageError) });
    expect((error as { cause: CoverageError }).cause.code).toBe("REPLAY_DIVERGED");
  });

  it("name the source a choice was scripted for when the run asks another router", async () => {
    const scripted = scriptedGraph(counterGraph(3), [{ from: "done", key: "stop" }]);
    const error = await scripted.invoke(counterInput()).catch((e: unknown) => e);
    expect((error as { cause: Error }).cause.message).toMatch(
      /^scriptedGraph: choice #1 of the script is for "done", but the run asked the router after "inc"/,
    );
  });

  it("replayPath reports a path whose trace the graph does not follow", async () => {
    const path = { trace: ["inc", "inc", "done"], routes: [{ from: "inc", key: "stop" }] };
    await expect(replayPath(counterGraph(3), path, counterInput())).rejects.toMatchObject({ code: "REPLAY_DIVERGED" });
  });

  it("replayPath raises the step limit to the path's length", async () => {
    const long = {
      trace: Array.from({ length: 31 }, (_, i) => (i < 30 ? "inc" : "done")),
      routes: [...Array.from({ length: 29 }, () => ({ from: "inc", key: "again" })), { from: "inc", key: "stop" }],
    };
    const { trace } = await replayPath(counterGraph(100), long, counterInput());
    expect(trace).toHaveLength(31);
  });
});
