/**
 * Differential exploration: the same generated runs (input and node outcomes, call by call) on the
 * mini engine, XState and LangGraph.js end in equal states; a node that behaves otherwise on one
 * driver (planted: it reads whether it runs on a thread) is found, shrunk and printed with the engine
 * and the replay command.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { append, defineInterrupt, END, START, stateGraph } from "../../src/index.js";
import { ExplorationError, exploreGraph, REPLAY_ENV } from "../../src/testing/index.js";

type Choice = "a" | "b" | "fail";
interface Tally {
  choice: Choice | null;
  picks: Choice[];
  score: number;
}

/** `model` (replaced) picks; `apply` scores it. With `planted`, a "b" scores otherwise off a thread. */
function tallyGraph(planted: boolean) {
  // `fields`: the LangGraph export needs every channel named.
  return stateGraph<Tally>()({ reducers: { picks: append }, fields: ["choice", "picks", "score"] })
    .addNode("model", () => ({ choice: "a" as Choice }))
    .addNode("apply", (s, context) => {
      if (s.choice === "fail") throw new Error("cannot apply");
      const bonus = planted && s.choice === "b" && context.threadId === undefined ? 10 : 1;
      return { picks: [s.choice ?? "a"], score: s.score + bonus };
    })
    .addEdge(START, "model")
    .addEdge("model", "apply")
    .addConditionalEdges("apply", (s) => (s.picks.length >= 3 ? "done" : "again"), { again: "model", done: END })
    .compile();
}
const options = {
  input: fc.record<Tally>({ choice: fc.constant(null), picks: fc.constant<Choice[]>([]), score: fc.integer({ min: 0, max: 5 }) }),
  nodes: { model: fc.constantFrom<Choice>("a", "b", "fail").map((choice) => ({ choice })) },
  expectErrors: ["NODE_FAILED"],
  runs: 25,
  seed: 5,
} as const;

describe("exploreGraph({ differential })", () => {
  it("the same runs end in equal states on the mini engine, XState and LangGraph.js, failures included", async () => {
    const report = await exploreGraph(tallyGraph(false), { ...options, differential: ["xstate", "langgraph"] });
    expect(report.differential).toEqual({ xstate: { compared: 25, paused: 0 }, langgraph: { compared: 25, paused: 0 } });
  }, 60_000);

  it("a node that behaves otherwise on one driver fails the exploration, naming the engine, with a replay", async () => {
    await expect(exploreGraph(tallyGraph(true), options)).resolves.toMatchObject({ runs: 25 }); // not compared: not found
    const error = await exploreGraph(tallyGraph(true), { ...options, differential: ["xstate"] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExplorationError);
    const failure = error as ExplorationError;
    expect(failure.code).toBe("EXPLORATION_FAILED");
    expect(failure.message).toMatch(
      /the run ends otherwise on xstate: the mini engine ended with (NODE_FAILED with )?state \{.*"score":1\}, xstate with (NODE_FAILED with )?state \{.*"score":10\}/,
    );
    expect(failure.run?.outcomes.model).toContainEqual({ choice: "b" });
    expect(failure.run?.input).toMatchObject({ score: 0 }); // shrunk
    expect(failure.message).toContain(`${REPLAY_ENV}=${failure.seed}:${failure.path}`);
  }, 60_000);

  it("a run that paused is not compared, and counted as such", async () => {
    const ok = defineInterrupt<{ q: string }, boolean>("ok");
    const graph = stateGraph<{ ok: boolean | null }>()({})
      .addNode("ask", () => ({ ok: ok({ q: "?" }) }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const report = await exploreGraph(graph, {
      input: fc.constant({ ok: null }),
      answers: fc.boolean(),
      runs: 4,
      differential: ["xstate"],
    });
    expect(report.differential).toEqual({ xstate: { compared: 0, paused: 4 } });
  });

  it("an engine it does not know is INVALID_OPTION", async () => {
    // @ts-expect-error: "dbos" is not a differential engine
    await expect(exploreGraph(tallyGraph(false), { ...options, differential: ["dbos"] })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringContaining('the engines are "xstate", "langgraph"'),
    });
  });
});
