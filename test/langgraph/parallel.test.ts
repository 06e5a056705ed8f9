/**
 * Parallel graphs on LangGraph.js: fan-out, joins (waiting edges), routes with several keys and Send
 * run there with the mini engine's results: the same findings, state, trace, steps (in declaration
 * order within a superstep), routes and errors. The last block pins where LangGraph.js cannot match.
 */
import {
  Annotation,
  END as LG_END,
  InvalidUpdateError as LangGraphInvalidUpdateError,
  StateGraph as LangGraphStateGraph,
  START as LG_START,
} from "@langchain/langgraph";
import { describe, expect, it, vi } from "vitest";
import { PARALLEL_ENGINES, streamOnEngine } from "../../src/cli/engines.js";
import { formatUpdateLine } from "../../src/cli/format.js";
import {
  buildDigestGraph,
  buildResearchGraph,
  DIGEST_FIELDS,
  fakeSources,
  initialResearchState,
  type DigestState,
  type ResearchSources,
  type ResearchState,
} from "../../src/examples/research/index.js";
import {
  append,
  END,
  type GraphExecutionError,
  Send,
  START,
  StateGraph,
  type CompiledGraph,
  type RunResult,
  type Step,
} from "../../src/index.js";
import { langGraphRecursionLimit, runOnLangGraph, streamOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { failure, outcome, plainSteps, settle } from "./_helpers.js";

/** A promise a test resolves by hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `graph` on both engines and settles each run. */
async function bothEngines<S extends object>(
  graph: CompiledGraph<S>,
  input: S,
  options: { maxSteps?: number; recursionLimit?: number } = {},
) {
  return { mini: await settle(graph.invoke(input, options)), onLangGraph: await settle(runOnLangGraph(graph, input, options)) };
}

/** Collects a stream's steps, and the error it ended with. */
async function collect(steps: AsyncIterable<Step<unknown>>) {
  const seen: Step<unknown>[] = [];
  try {
    for await (const step of steps) seen.push(step);
  } catch (error) {
    return { steps: plainSteps(seen), error: failure(error) };
  }
  return { steps: plainSteps(seen) };
}

/** Fake sources that count their calls. */
function countingSources() {
  const calls: string[] = [];
  const fake = fakeSources();
  const counted =
    (name: keyof ResearchSources): ResearchSources[typeof name] =>
    async (query) => (calls.push(name), fake[name](query));
  return { calls, sources: { web: counted("web"), papers: counted("papers"), internal: counted("internal") } };
}

describe("the research graph (fan-out, a join, a subgraph node) on LangGraph.js", () => {
  it.each(["tides", "volcanoes", "coral reefs"])("%s: the same findings, summary, steps, trace and routes", async (topic) => {
    const graph = buildResearchGraph();
    const mini = await graph.invoke(initialResearchState(topic));
    const onLangGraph = await runOnLangGraph(graph, initialResearchState(topic));
    expect(outcome(onLangGraph)).toEqual(outcome(mini));
    expect(onLangGraph.state.findings).toEqual(mini.state.findings);
    expect(onLangGraph.state.summary).toBe(mini.state.summary);
    expect(onLangGraph.trace).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    expect(onLangGraph.supersteps).toBe(3);
    expect(mini.supersteps).toBe(3);
  });

  it("the findings merge in declaration order (web, papers, internal), not LangGraph's node-name order", async () => {
    const { state } = await runOnLangGraph(buildResearchGraph(), initialResearchState("tides"));
    expect(state.findings.map((finding) => finding.split(":")[0])).toEqual(["web", "papers", "papers", "papers", "internal"]);
  });

  it("a plain invoke of the exported graph gives the same final state", async () => {
    const graph = buildResearchGraph();
    const mini = await graph.invoke(initialResearchState("tides"));
    expect(await (await toLangGraph(graph)).invoke(initialResearchState("tides"))).toEqual(mini.state);
  });

  it("LangGraph.js really runs the three branches in one superstep: all three start before any may finish", async () => {
    const started: string[] = [];
    const allStarted = deferred();
    const fake = fakeSources();
    const held =
      (name: keyof ResearchSources): ResearchSources[typeof name] =>
      async (query) => {
        started.push(name);
        if (started.length === 3) allStarted.resolve();
        await allStarted.promise;
        return fake[name](query);
      };
    const graph = buildResearchGraph({ sources: { web: held("web"), papers: held("papers"), internal: held("internal") } });
    const timeout = sleep(2000).then(() => "the branches did not overlap");
    const result = await Promise.race([runOnLangGraph(graph, initialResearchState("tides")), timeout]);
    expect(typeof result === "string" ? result : result.trace).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    expect([...started].sort()).toEqual(["internal", "papers", "web"]);
  });

  it("streams the same steps, in declaration order within the superstep, whatever order the branches finish in", async () => {
    const fake = fakeSources();
    const delayed =
      (name: keyof ResearchSources, ms: number): ResearchSources[typeof name] =>
      async (query) => (await sleep(ms), fake[name](query));
    const sources = { web: delayed("web", 30), papers: delayed("papers", 15), internal: delayed("internal", 0) };
    const graph = buildResearchGraph({ sources });
    const mini = await collect(graph.stream(initialResearchState("tides")));
    const onLangGraph = await collect(streamOnLangGraph(graph, initialResearchState("tides")));
    expect(onLangGraph).toEqual(mini);
    expect(onLangGraph.steps.map((step) => step.node)).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
  });

  it("what `tsg research --show-updates` prints: the same lines on the langgraph engine as on mini", async () => {
    const lines = async (engine: "mini" | "langgraph") => {
      const printed: string[] = [];
      for await (const step of streamOnEngine(engine, buildResearchGraph(), initialResearchState("tides"), { maxSteps: 25 })) {
        printed.push(formatUpdateLine(step.node, step.update));
        if (step.node === "synthesize") printed.push(String(step.state.summary));
      }
      return printed;
    };
    expect(await lines("langgraph")).toEqual(await lines("mini"));
    expect(PARALLEL_ENGINES).toContain("langgraph");
  });

  it("a failure inside the papers subgraph: the same error, path papers/search, trace and state", async () => {
    const sources = { ...fakeSources(), papers: async () => Promise.reject(new Error("index offline")) };
    const graph = buildResearchGraph({ sources });
    const { mini, onLangGraph } = await bothEngines(graph, initialResearchState("tides"));
    expect(mini.failed).toMatchObject({ name: "GraphExecutionError", code: "NODE_FAILED", node: "papers", trace: ["plan"] });
    expect(onLangGraph).toEqual(mini);
    const error: unknown = await runOnLangGraph(graph, initialResearchState("tides")).catch((e: unknown) => e);
    expect((error as GraphExecutionError).path).toEqual(["papers", "search"]);
  });

  it.each([1, 2, 3, 4, 5, 6])(
    "maxSteps %i: the same result or GraphLimitError, and no node of a refused superstep starts",
    async (maxSteps) => {
      const mini = countingSources();
      const lg = countingSources();
      const onMini = await settle(buildResearchGraph({ sources: mini.sources }).invoke(initialResearchState("tides"), { maxSteps }));
      const onLangGraph = await settle(
        runOnLangGraph(buildResearchGraph({ sources: lg.sources }), initialResearchState("tides"), { maxSteps }),
      );
      expect(onLangGraph).toEqual(onMini);
      expect(lg.calls.sort()).toEqual(mini.calls.sort());
      if (maxSteps < 5) expect(onMini.failed).toMatchObject({ name: "GraphLimitError", code: "STEP_LIMIT" });
    },
  );

  it.each([1, 2, 3, 4])("recursionLimit %i (supersteps): the same result or GraphLimitError", async (recursionLimit) => {
    const { mini, onLangGraph } = await bothEngines(buildResearchGraph(), initialResearchState("tides"), { recursionLimit });
    expect(onLangGraph).toEqual(mini);
    if (recursionLimit < 3) expect(mini.failed).toMatchObject({ name: "GraphLimitError" });
  });

  it("maxSteps 2 stops before the second branch, named in declaration order", async () => {
    const { onLangGraph } = await bothEngines(buildResearchGraph(), initialResearchState("tides"), { maxSteps: 2 });
    expect(onLangGraph.failed).toMatchObject({ name: "GraphLimitError", node: "papers", trace: ["plan"] });
  });

  it("LangGraph gets one superstep more than the bounds: the run refuses the superstep beyond them itself", () => {
    expect(langGraphRecursionLimit({ maxSteps: 30 })).toBe(31);
  });

  it("an abort during the branches ends the run at once, committing nothing of the superstep (as on the mini engine)", async () => {
    const run = async (engine: "mini" | "langgraph") => {
      const controller = new AbortController();
      const fake = fakeSources();
      const sources = { ...fake, web: async (query: string) => (controller.abort(new Error("user cancelled")), fake.web(query)) };
      const graph = buildResearchGraph({ sources });
      const input = initialResearchState("tides");
      return settle(
        engine === "mini"
          ? graph.invoke(input, { signal: controller.signal })
          : runOnLangGraph(graph, input, { signal: controller.signal }),
      );
    };
    const mini = await run("mini");
    expect(mini.failed).toMatchObject({ code: "ABORTED", node: "web", trace: ["plan"] });
    expect(await run("langgraph")).toEqual(mini);
  });
});

/**
 * The digest graph with its `digest` node renamed: LangGraph.js refuses a node named like a state field,
 * and `buildDigestGraph()` has both a node and a field called `digest` (see the next test).
 */
const digestGraph = buildDigestGraph;

describe("Send on LangGraph.js: one LangGraph Send per document", () => {
  it("a node named like a state field is refused: LangGraph keeps one namespace for both", async () => {
    const clash = new StateGraph<DigestState>({ fields: [...DIGEST_FIELDS] })
      .addNode("digest", () => ({ digest: "x" }))
      .addEdge(START, "digest")
      .addEdge("digest", END)
      .compile();
    await expect(toLangGraph(clash)).rejects.toMatchObject({
      code: "LANGGRAPH_NODE_NAME",
      message: expect.stringContaining(`"digest" is also a state field`),
    });
  });

  const documents = {
    none: [],
    one: ["tides rise twice a day along most coasts"],
    many: [
      "tides rise twice a day",
      "the moon pulls the oceans",
      "spring tides follow the new moon",
      "neap tides are weaker",
      "storm surges add to tides",
    ],
  };

  it.each(Object.entries(documents))("%s: the same summaries, digest, steps and routes", async (_, docs) => {
    const input: DigestState = { documents: [...docs], summaries: [], digest: null };
    const { mini, onLangGraph } = await bothEngines(digestGraph(), input);
    expect(onLangGraph).toEqual(mini);
    const trace = mini.ok?.trace ?? [];
    expect(trace.filter((node) => node === "summarize")).toHaveLength(docs.length);
    expect(trace.filter((node) => node === "write_digest")).toHaveLength(docs.length === 0 ? 0 : 1);
    expect(mini.ok?.state.summaries).toHaveLength(docs.length);
  });

  it("Sends merge in the order they were sent, whatever order they finish in (append is order-sensitive)", async () => {
    const items = ["a", "b", "c", "d", "e"];
    const graph = new StateGraph<{ items: string[]; out: string[] }>({ reducers: { out: append }, fields: ["items", "out"] })
      .addNode("fan", () => ({}))
      .addNode("work", async (input: { item: string; delay: number }) => (await sleep(input.delay), { out: [input.item] }))
      .addEdge(START, "fan")
      .addConditionalEdges("fan", (s) => s.items.map((item, index) => new Send("work", { item, delay: (items.length - index) * 5 })), [
        "work",
      ])
      .addEdge("work", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, { items, out: [] });
    expect(mini.ok?.state.out).toEqual(items);
    expect(onLangGraph).toEqual(mini);
  });
});

interface Flow {
  log: string[];
  note: string | null;
  round: number;
}
const FLOW_FIELDS = ["log", "note", "round"] as const;
const flow = (): Flow => ({ log: [], note: null, round: 0 });
const logs = (name: string) => (s: Flow) => ({ log: [`${name}@${s.log.length}`] });

describe("joins and fan-out on LangGraph.js", () => {
  it("a join waits for a branch that takes more supersteps, then runs once", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("fork", logs("fork"))
      .addNode("fast", logs("fast"))
      .addNode("slow", logs("slow"))
      .addNode("slow_2", async (s) => (await sleep(20), { log: [`slow_2@${s.log.length}`] }))
      .addNode("merge", logs("merge"))
      .addEdge(START, "fork")
      .addEdge("fork", ["fast", "slow"])
      .addEdge("slow", "slow_2")
      .addEdge(["fast", "slow_2"], "merge")
      .addEdge("merge", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.trace).toEqual(["fork", "fast", "slow", "slow_2", "merge"]);
    expect(mini.ok?.state.log).toEqual(["fork@0", "fast@1", "slow@1", "slow_2@3", "merge@4"]);
    expect(onLangGraph).toEqual(mini);
  });

  it("a join whose branch is held open: the target starts only after the slow branch finished", async () => {
    const release = deferred();
    const events: string[] = [];
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("quick", () => (events.push("quick done"), { log: ["quick"] }))
      .addNode("held", async () => (await release.promise, events.push("held done"), { log: ["held"] }))
      .addNode("after", (s) => (events.push(`after sees ${s.log.join("+")}`), {}))
      .addEdge(START, ["quick", "held"])
      .addEdge(["quick", "held"], "after")
      .addEdge("after", END)
      .compile();
    const run = runOnLangGraph(graph, flow());
    // However slowly LangGraph.js loads on a busy machine: wait for the quick branch, then give the
    // join a chance to start early (it must not).
    await vi.waitFor(() => expect(events).toEqual(["quick done"]), { timeout: 10_000 });
    await sleep(30);
    expect(events).toEqual(["quick done"]);
    release.resolve();
    expect((await run).trace).toEqual(["quick", "held", "after"]);
    expect(events).toEqual(["quick done", "held done", "after sees quick+held"]);
  });

  it("a loop through a fan-out and a join: the barrier resets each round", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("plan", (s) => ({ round: s.round + 1, log: [`plan ${s.round + 1}`] }))
      .addNode("left", logs("left"))
      .addNode("right", logs("right"))
      .addNode("check", logs("check"))
      .addEdge(START, "plan")
      .addEdge("plan", ["left", "right"])
      .addEdge(["left", "right"], "check")
      .addConditionalEdges("check", (s): "again" | "done" => (s.round < 3 ? "again" : "done"), { again: "plan", done: END })
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.trace.filter((node) => node === "check")).toHaveLength(3);
    expect(onLangGraph).toEqual(mini);
  });

  it("a fan-out from START and a join into END", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("a", logs("a"))
      .addNode("b", logs("b"))
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.trace).toEqual(["a", "b"]);
    expect(onLangGraph).toEqual(mini);
  });

  it("a superstep whose nodes change nothing (LangGraph emits no values for it) still commits, once", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("quiet_a", () => undefined)
      .addNode("quiet_b", () => ({}))
      .addNode("after", logs("after"))
      .addEdge(START, ["quiet_a", "quiet_b"])
      .addEdge(["quiet_a", "quiet_b"], "after")
      .addEdge("after", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.steps.map((step) => [step.node, step.update])).toEqual([
      ["quiet_a", {}],
      ["quiet_b", {}],
      ["after", { log: ["after@0"] }],
    ]);
    expect(onLangGraph).toEqual(mini);
  });

  it("a router returning several keys, one key, or none: the same steps (route lists included) and routes", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("pick", (s) => ({ round: s.round + 1 }))
      .addNode("a", logs("a"))
      .addNode("b", logs("b"))
      .addEdge(START, "pick")
      .addConditionalEdges("pick", (s) => (s.round === 1 ? ["b", "a"] : s.round === 2 ? ["a"] : []), ["a", "b"])
      .addEdge("a", "pick")
      .addEdge("b", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.trace).toEqual(["pick", "a", "b", "pick", "a", "pick"]);
    expect(mini.ok?.steps.map((step) => step.route)).toEqual([["b", "a"], undefined, undefined, ["a"], undefined, []]);
    expect(onLangGraph).toEqual(mini);
  });
});

describe("bounds, early stops and concurrent runs", () => {
  it("maxSteps inside a superstep of many Sends: the same GraphLimitError, and none of them starts", async () => {
    const started: string[] = [];
    const graph = new StateGraph<{ items: string[]; out: string[] }>({ reducers: { out: append }, fields: ["items", "out"] })
      .addNode("fan", () => ({}))
      .addNode("work", (input: { item: string }) => (started.push(input.item), { out: [input.item] }))
      .addEdge(START, "fan")
      .addConditionalEdges("fan", (s) => s.items.map((item) => new Send("work", { item })), ["work"])
      .addEdge("work", END)
      .compile();
    // 8 Sends: LangGraph.js 1.7.3 itself warns (MaxListenersExceededWarning) when it streams more than 10 tasks at once.
    const items = Array.from({ length: 8 }, (_, index) => `item ${index}`);
    for (const maxSteps of [1, 5, 8, 9]) {
      const { mini, onLangGraph } = await bothEngines(graph, { items, out: [] }, { maxSteps });
      expect(onLangGraph).toEqual(mini);
      if (maxSteps < 9) expect(mini.failed).toMatchObject({ name: "GraphLimitError", node: "work", trace: ["fan"] });
      expect(started.splice(0)).toHaveLength(maxSteps === 9 ? 16 : 0);
    }
  });

  it("a router returning several keys through an object path map: the same bounds, stopping inside and between supersteps", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("pick", (s) => ({ round: s.round + 1 }))
      .addNode("a", logs("a"))
      .addNode("b", logs("b"))
      .addEdge(START, "pick")
      .addConditionalEdges("pick", (s): ("left" | "right" | "stop")[] => (s.round < 3 ? ["right", "left"] : ["stop"]), {
        left: "a",
        right: "b",
        stop: END,
      })
      .addEdge("a", "pick")
      .addEdge("b", END)
      .compile();
    for (const limits of [
      {},
      { maxSteps: 1 },
      { maxSteps: 2 },
      { maxSteps: 3 },
      { maxSteps: 4 },
      { maxSteps: 6 },
      { recursionLimit: 2 },
      { recursionLimit: 3 },
    ]) {
      const { mini, onLangGraph } = await bothEngines(graph, flow(), limits);
      expect(onLangGraph).toEqual(mini);
    }
  });

  it("a caller that stops reading after the first step: no node of a later superstep runs", async () => {
    const { calls, sources } = countingSources();
    for await (const step of streamOnLangGraph(buildResearchGraph({ sources }), initialResearchState("tides"))) {
      expect(step.node).toBe("plan");
      break;
    }
    await sleep(20);
    expect(calls).toEqual([]);
  });

  it("concurrent runs of one exported research graph keep their own findings and traces", async () => {
    const graph = buildResearchGraph();
    const topics = ["tides", "volcanoes", "coral reefs"];
    const results = await Promise.all(topics.map((topic) => runOnLangGraph(graph, initialResearchState(topic))));
    for (const [index, topic] of topics.entries())
      expect(outcome(results[index] as RunResult<ResearchState>)).toEqual(outcome(await graph.invoke(initialResearchState(topic))));
  });
});

describe("failures in a parallel superstep: the same error on both engines", () => {
  it("two nodes write a field without a reducer: InvalidUpdateError naming both, in declaration order", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("zeta", () => ({ note: "from zeta" }))
      .addNode("alpha", () => ({ note: "from alpha" }))
      .addEdge(START, ["zeta", "alpha"])
      .addEdge(["zeta", "alpha"], END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.failed).toMatchObject({ name: "InvalidUpdateError", code: "CONCURRENT_WRITE", node: "alpha", trace: [], state: flow() });
    expect(mini.failed?.message).toContain(`"zeta" and "alpha" both wrote "note"`);
    expect(onLangGraph).toEqual(mini);
  });

  it("superstep atomicity: one branch fails, nothing of its superstep commits, the others have run", async () => {
    const ran: string[] = [];
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("plan", logs("plan"))
      .addNode("ok", (s) => (ran.push("ok"), logs("ok")(s)))
      .addNode("broken", async () => {
        await sleep(5);
        throw new Error("source down");
      })
      .addNode("done", logs("done"))
      .addEdge(START, "plan")
      .addEdge("plan", ["ok", "broken"])
      .addEdge(["ok", "broken"], "done")
      .addEdge("done", END)
      .compile();
    const mini = await settle(graph.invoke(flow()));
    expect(ran.splice(0)).toEqual(["ok"]);
    const onLangGraph = await settle(runOnLangGraph(graph, flow()));
    expect(ran).toEqual(["ok"]);
    expect(mini.failed).toMatchObject({ code: "NODE_FAILED", node: "broken", trace: ["plan"], state: { log: ["plan@0"] } });
    expect(onLangGraph).toEqual(mini);
  });

  it("two branches fail: the first in declaration order is reported, whichever failed first", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("early", async () => {
        await sleep(20);
        throw new Error("early failed last");
      })
      .addNode("late", () => {
        throw new Error("late failed first");
      })
      .addEdge(START, ["early", "late"])
      .addEdge(["early", "late"], END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.failed).toMatchObject({ code: "NODE_FAILED", node: "early", message: expect.stringContaining("early failed last") });
    expect(onLangGraph).toEqual(mini);
  });

  it("a reducer that throws on one branch's update: REDUCER_FAILED naming that branch", async () => {
    const graph = new StateGraph<Flow>({
      reducers: {
        log: (current, update) => {
          if (update.includes("bad")) throw new Error("no bad entries");
          return [...current, ...update];
        },
      },
      fields: [...FLOW_FIELDS],
    })
      .addNode("good", () => ({ log: ["good"] }))
      .addNode("bad", () => ({ log: ["bad"] }))
      .addEdge(START, ["good", "bad"])
      .addEdge(["good", "bad"], END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.failed).toMatchObject({ code: "REDUCER_FAILED", node: "bad", trace: [], state: flow() });
    expect(onLangGraph).toEqual(mini);
  });
});

describe("where LangGraph.js cannot match the mini engine in a parallel graph", () => {
  it("LangGraph alone merges a superstep by node name; the exported graph's reducer channels restore declaration order", async () => {
    const channels = { log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }) };
    const plain = new LangGraphStateGraph(Annotation.Root(channels))
      .addNode("web", () => ({ log: ["web"] }))
      .addNode("papers", () => ({ log: ["papers"] }))
      .addNode("internal", () => ({ log: ["internal"] }))
      .addEdge(LG_START, "web")
      .addEdge(LG_START, "papers")
      .addEdge(LG_START, "internal")
      .addEdge("web", LG_END)
      .addEdge("papers", LG_END)
      .addEdge("internal", LG_END)
      .compile();
    expect((await plain.invoke({ log: [] })).log).toEqual(["internal", "papers", "web"]);
  });

  it("LangGraph alone reports a parallel write conflict as its own InvalidUpdateError, naming the channel but no node", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("zeta", () => ({ note: "z" }))
      .addNode("alpha", () => ({ note: "a" }))
      .addEdge(START, ["zeta", "alpha"])
      .addEdge(["zeta", "alpha"], END)
      .compile();
    const error: unknown = await (await toLangGraph(graph)).invoke(flow()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGraphInvalidUpdateError);
    expect((error as Error).message).toMatch(
      /^Invalid update for channel "note" with values \["a","z"\]: LastValue can only receive one value per step/,
    );
  });

  it("a router after a parallel node reads the pre-superstep state plus its own node's writes on LangGraph.js, the merged state on the mini engine", async () => {
    const graph = new StateGraph<Flow>({ reducers: { log: append }, fields: [...FLOW_FIELDS] })
      .addNode("a", logs("a"))
      .addNode("b", logs("b"))
      .addNode("saw_b", logs("saw_b"))
      .addEdge(START, ["a", "b"])
      .addConditionalEdges("a", (s): "seen" | "unseen" => (s.log.some((entry) => entry.startsWith("b@")) ? "seen" : "unseen"), {
        seen: "saw_b",
        unseen: END,
      })
      .addEdge("b", END)
      .addEdge("saw_b", END)
      .compile();
    const { mini, onLangGraph } = await bothEngines(graph, flow());
    expect(mini.ok?.routes.map((route) => route.key)).toEqual(["seen"]);
    expect(onLangGraph.ok?.routes.map((route) => route.key)).toEqual(["unseen"]);
    expect(onLangGraph.ok?.trace).toEqual(["a", "b"]);
  });

  it("parallel writes of strings through an order-sensitive reducer merge in LangGraph's node-name order (compile warns)", async () => {
    const graph = new StateGraph<{ text: string }>({ reducers: { text: (a, b) => a + b }, fields: ["text"] })
      .addNode("zeta", () => ({ text: "z" }))
      .addNode("alpha", () => ({ text: "a" }))
      .addEdge(START, ["zeta", "alpha"])
      .addEdge(["zeta", "alpha"], END)
      .compile();
    expect(graph.warnings.map((warning) => warning.message).join(" ")).toContain("text");
    expect((await graph.invoke({ text: "" })).state.text).toBe("za");
    expect((await runOnLangGraph(graph, { text: "" })).state.text).toBe("az");
    const withArrays = new StateGraph<{ text: string[] }>({ reducers: { text: append }, fields: ["text"] })
      .addNode("zeta", () => ({ text: ["z"] }))
      .addNode("alpha", () => ({ text: ["a"] }))
      .addEdge(START, ["zeta", "alpha"])
      .addEdge(["zeta", "alpha"], END)
      .compile();
    expect((await runOnLangGraph(withArrays, { text: [] })).state.text).toEqual(["z", "a"]);
  });

  it("a node reached in one superstep by a plain key and by Sends runs the plain task first, on both engines", async () => {
    const graph = new StateGraph<{ n: number; out: string[] }>({ reducers: { out: append }, fields: ["n", "out"] })
      .addNode("each", (input: { n?: number; tag?: string }) => ({ out: [input.tag ?? "plain"] }))
      .addConditionalEdges(START, () => [new Send("each", { tag: "sent" }), "each"], ["each"])
      .addEdge("each", END)
      .compile();
    expect((await graph.invoke({ n: 0, out: [] })).state.out).toEqual(["plain", "sent"]);
    expect((await runOnLangGraph(graph, { n: 0, out: [] })).state.out).toEqual(["plain", "sent"]);
  });
});
