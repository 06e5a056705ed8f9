/**
 * exploreGraph: fast-check drives a graph through its replaced nodes and interrupts, checks invariants
 * after every superstep, shrinks a failure to a minimal run that replays from TSG_REPLAY, and reports
 * which planned paths some run took.
 */
import * as fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { coveragePlan } from "../../src/coverage/index.js";
import { append, defineInterrupt, END, START, stateGraph } from "../../src/index.js";
import { ExplorationError, exploreGraph, REPLAY_ENV, runScenario } from "../../src/testing/index.js";

type Choice = "a" | "b" | "done";
interface Ledger {
  choice: Choice | null;
  history: Choice[];
  balance: number;
}

/** `oracle` (replaced: a model, say) picks a choice; `apply` books it, with a bug after a, b, a, b. */
function ledgerGraph() {
  return (
    stateGraph<Ledger>()({ reducers: { history: append } })
      .addNode("oracle", () => ({ choice: "done" as Choice }))
      .addNode("apply", (s) => {
        const history = [...s.history, s.choice ?? "done"];
        const planted = history.slice(-4).join("") === "abab"; // the bug: only this route sequence finds it
        return { history: [s.choice ?? "done"], balance: planted ? -1 : s.balance + 1 };
      })
      .addEdge(START, "oracle")
      .addEdge("oracle", "apply")
      // Bounded: at most six choices, whatever the oracle says.
      .addConditionalEdges("apply", (s) => (s.choice === "done" || s.history.length >= 6 ? "finish" : "again"), {
        again: "oracle",
        finish: END,
      })
      .compile()
  );
}

const choices = fc.constantFrom<Choice>("a", "b", "done").map((choice) => ({ choice }));
const ledgerOptions = {
  input: fc.constant<Ledger>({ choice: null, history: [], balance: 0 }),
  nodes: { oracle: choices },
  invariants: { "the balance never goes negative": (s: Ledger) => s.balance >= 0 || `balance = ${s.balance}` },
  runs: 500,
  seed: 42,
} as const;

afterEach(() => {
  delete process.env[REPLAY_ENV];
});

describe("exploreGraph finds a bug behind a route sequence and shrinks it", () => {
  it("the shrunk run is a, b, a, b: four routes, printed node by node, with a replay command", async () => {
    const error = await exploreGraph(ledgerGraph(), ledgerOptions).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExplorationError);
    const failure = error as ExplorationError;
    expect(failure.code).toBe("EXPLORATION_FAILED");
    expect(failure.run?.outcomes.oracle).toEqual([{ choice: "a" }, { choice: "b" }, { choice: "a" }, { choice: "b" }]);
    expect(failure.run?.trace).toEqual(["oracle", "apply", "oracle", "apply", "oracle", "apply", "oracle", "apply"]);
    expect(failure.message).toContain(
      'the invariant "the balance never goes negative" does not hold after superstep 8 (apply): balance = -1',
    );
    expect(failure.message).toContain(
      "path: START → oracle → apply [again] → oracle → apply [again] → oracle → apply [again] → oracle → apply",
    );
    expect(failure.message).toContain(`${REPLAY_ENV}=${failure.seed}:${failure.path}`);
  });

  it("TSG_REPLAY=<seed>:<path> runs that one case again, and it fails the same way", async () => {
    const first = (await exploreGraph(ledgerGraph(), ledgerOptions).catch((caught: unknown) => caught)) as ExplorationError;
    process.env[REPLAY_ENV] = `${first.seed}:${first.path}`;
    const again = (await exploreGraph(ledgerGraph(), { ...ledgerOptions, seed: 7 }).catch((caught: unknown) => caught)) as ExplorationError;
    expect(again).toBeInstanceOf(ExplorationError);
    expect(again.run?.trace).toEqual(first.run?.trace);
    expect(again.run?.outcomes).toEqual(first.run?.outcomes);
  });

  it("a malformed TSG_REPLAY is a coded error, not a random run", async () => {
    process.env[REPLAY_ENV] = "not-a-seed";
    await expect(exploreGraph(ledgerGraph(), ledgerOptions)).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });

  it("without the bug, every run passes and the report counts the paths", async () => {
    const report = await exploreGraph(ledgerGraph(), {
      ...ledgerOptions,
      nodes: { oracle: fc.constantFrom<Choice>("a", "done").map((choice) => ({ choice })) },
    });
    expect(report.runs).toBe(500);
    expect(report.distinctPaths).toBeGreaterThan(3);
  });
});

describe("errors, ends and options", () => {
  const failing = () =>
    stateGraph<{ n: number }>()({})
      .addNode("model", () => ({ n: 1 }))
      .addEdge(START, "model")
      .addEdge("model", END)
      .compile();

  it("a replaced node that throws fails the exploration, unless its code is expected", async () => {
    const nodes = { model: fc.constant(new Error("model down")) };
    const input = fc.constant({ n: 0 });
    await expect(exploreGraph(failing(), { input, nodes, runs: 5 })).rejects.toThrow(/the run failed with NODE_FAILED/);
    await expect(exploreGraph(failing(), { input, nodes, runs: 5, expectErrors: ["NODE_FAILED"] })).resolves.toMatchObject({ runs: 5 });
  });

  it("a run that never ends within the step limit fails, naming the limit's code", async () => {
    const loop = stateGraph<{ n: number }>()({})
      .addNode("spin", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "spin")
      .addConditionalEdges("spin", (s) => (s.n < 0 ? "stop" : "again"), { again: "spin", stop: END })
      .compile();
    await expect(exploreGraph(loop, { input: fc.constant({ n: 0 }), runs: 3, maxSteps: 5 })).rejects.toThrow(
      /the run failed with STEP_LIMIT/,
    );
  });

  it("options naming a node the graph lacks, or a bad count, are INVALID_OPTION", async () => {
    const input = fc.constant({ n: 0 });
    // @ts-expect-error: "modle" is not a node of the graph
    await expect(exploreGraph(failing(), { input, nodes: { modle: fc.constant({ n: 2 }) } })).rejects.toThrow(
      /"modle", which is not a node/,
    );
    await expect(exploreGraph(failing(), { input, runs: 0 })).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});

describe("interrupts are answered from arbitraries, and the plan's paths are reported", () => {
  interface Review {
    draft: string;
    approved: boolean | null;
    log: string[];
  }
  const approval = defineInterrupt<{ draft: string }, boolean>("approval");
  const reviewGraph = () =>
    stateGraph<Review>()({ reducers: { log: append } })
      .addNode("write", () => ({ draft: "brief", log: ["write"] }))
      .addNode("review", (s) => ({ approved: approval({ draft: s.draft }), log: ["review"] }))
      .addNode("publish", () => ({ log: ["publish"] }))
      .addNode("discard", () => ({ log: ["discard"] }))
      .addNode("audit", () => ({ log: ["audit"] }))
      .addEdge(START, "write")
      .addEdge("write", "review")
      .addConditionalEdges("review", (s) => (s.approved === true ? "yes" : s.approved === false ? "no" : "audit"), {
        yes: "publish",
        no: "discard",
        audit: "audit",
      })
      .addEdge("publish", END)
      .addEdge("discard", END)
      .addEdge("audit", END)
      .compile();
  const input = fc.constant<Review>({ draft: "", approved: null, log: [] });

  it("both answers are explored; the path no answer can take (audit) is reported as not reached", async () => {
    const graph = reviewGraph();
    const report = await exploreGraph(graph, { input, answers: { approval: fc.boolean() }, runs: 40, seed: 1, plan: coveragePlan(graph) });
    const feasible = report.coverage?.feasible.map(({ path }) => path.name).sort();
    expect(feasible).toEqual(["no", "yes"]);
    expect(report.coverage?.notReached.map((path) => path.name)).toEqual(["audit"]);
    const yes = report.coverage?.feasible.find(({ path }) => path.name === "yes");
    expect(yes?.answers).toEqual([true]);
  });

  it("a pause with no answers arbitrary fails, naming the interrupt", async () => {
    await expect(exploreGraph(reviewGraph(), { input, runs: 2 })).rejects.toThrow(
      /paused at the interrupt "approval" in "review" and no answers arbitrary covers it/,
    );
  });

  it("an invariant sees every superstep's state, pauses included", async () => {
    const seen: number[] = [];
    await exploreGraph(reviewGraph(), {
      input,
      answers: fc.boolean(),
      runs: 3,
      invariants: { "records supersteps": (_s, step) => (seen.push(step.superstep), true) },
    });
    expect(new Set(seen)).toEqual(new Set([1, 2, 3]));
  });
});

describe("runScenario replays a recorded case, deterministically", () => {
  it("the recorded outcomes drive the replaced node, call by call", async () => {
    const run = await runScenario(ledgerGraph(), {
      input: { choice: null, history: [], balance: 0 },
      outcomes: { oracle: [{ choice: "a" }, { choice: "b" }, { choice: "done" }] },
    });
    expect(run.failure).toBeUndefined();
    expect(run.state.history).toEqual(["a", "b", "done"]);
    expect(run.routes.map(({ key }) => key)).toEqual(["again", "again", "finish"]);
  });

  it("a node called more often than recorded fails the run, saying the recording is stale", async () => {
    const run = await runScenario(ledgerGraph(), {
      input: { choice: null, history: [], balance: 0 },
      outcomes: { oracle: [{ choice: "a" }] },
    });
    expect(run.failure).toContain('runScenario: "oracle" was called more often than the scenario records outcomes for it (1)');
  });

  it("an interrupt with no recorded answer left is INVALID_OPTION", async () => {
    const graph = stateGraph<{ ok: boolean | null }>()({})
      .addNode("ask", () => ({ ok: defineInterrupt<{ q: string }, boolean>("ok")({ q: "?" }) }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    await expect(runScenario(graph, { input: { ok: null }, answers: [true] })).resolves.toMatchObject({ state: { ok: true } });
    await expect(runScenario(graph, { input: { ok: null } })).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});
