/**
 * A node that returns a list of Commands, against LangGraph.js 1.7.3: the same graphs written natively
 * (a node returning `[new Command(…), new Command(…)]`, as LangGraph's own Command tests write it) and on
 * this library end in the same state; `runOnLangGraph` and `toLangGraph` hand LangGraph a list of its
 * Commands, so they agree too (on a thread as well, a sibling's interrupt keeping the node's write).
 * Last, a Command as a Send's input (LangGraph's "send sequences" test), plain and on a thread.
 */
import {
  Annotation,
  isCommand as isLangGraphCommand,
  Command as LangGraphCommand,
  END as LG_END,
  Send as LangGraphSend,
  StateGraph as LangGraphStateGraph,
  START as LG_START,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { Command, END, interrupt, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { DESK, fanOutByCommands, plainFieldWrittenTwice, reducerWrittenThrice, type Desk } from "../helpers/command-list-graphs.js";
import { itemOf, sendSequences, type Items } from "../helpers/send-command-graphs.js";
import { counting, onBothEngines } from "./_helpers.js";

const DeskChannels = Annotation.Root({
  topic: Annotation<string>(),
  log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});
type Native = { invoke(input: Desk): Promise<Desk> };
const INPUT: Desk = { topic: "", log: [] };

/** `fanOutByCommands` written on LangGraph.js. */
function nativeFanOut(): Native {
  return new LangGraphStateGraph(DeskChannels)
    .addNode(
      "triage",
      () => [
        new LangGraphCommand({ update: { topic: "refund" }, goto: "billing" }),
        new LangGraphCommand({ update: { log: ["triage"] }, goto: "support" }),
      ],
      { ends: ["billing", "support"] },
    )
    .addNode("billing", (s: Desk) => ({ log: [`billing(${s.topic})`] }))
    .addNode("support", (s: Desk) => ({ log: [`support(${s.topic})`] }))
    .addEdge(LG_START, "triage")
    .addEdge("billing", LG_END)
    .addEdge("support", LG_END)
    .compile();
}

/** `reducerWrittenThrice` written on LangGraph.js. */
function nativeThrice(): Native {
  return new LangGraphStateGraph(DeskChannels)
    .addNode(
      "a",
      () => [
        new LangGraphCommand({ update: { log: ["one"] } }),
        new LangGraphCommand({ update: { log: ["two"], topic: "t" } }),
        new LangGraphCommand({ update: { log: ["three"] }, goto: new LangGraphSend("work", { topic: "sent", log: [] }) }),
      ],
      { ends: ["work"] },
    )
    .addNode("work", (s: Desk) => ({ log: [`work(${s.topic})`] }))
    .addEdge(LG_START, "a")
    .addEdge("a", LG_END)
    .addEdge("work", LG_END)
    .compile();
}

/** `plainFieldWrittenTwice` written on LangGraph.js. */
function nativeTwice(): Native {
  return new LangGraphStateGraph(DeskChannels)
    .addNode("a", () => [new LangGraphCommand({ update: { topic: "x" } }), new LangGraphCommand({ update: { topic: "y" } })])
    .addEdge(LG_START, "a")
    .addEdge("a", LG_END)
    .compile();
}

const cases: [string, () => CompiledGraph<Desk>, () => Native][] = [
  ["every goto of the list taken", fanOutByCommands, nativeFanOut],
  ["a reducer field written by three Commands, and a Send", reducerWrittenThrice, nativeThrice],
];

describe("a list of Commands: the mini engine against LangGraph.js 1.7.3", () => {
  it.each(cases)("%s: the same state", async (_name, ours, native) => {
    const expected = await native().invoke(INPUT);
    expect((await ours().invoke(INPUT)).state).toEqual(expected);
  });

  it.each(cases)("%s: runOnLangGraph and toLangGraph give LangGraph's result", async (_name, ours) => {
    const onMini = await ours().invoke(INPUT);
    const onLangGraph = await runOnLangGraph(ours(), INPUT);
    expect({ state: onLangGraph.state, trace: onLangGraph.trace, steps: onLangGraph.steps.map((step) => step.update) }).toEqual({
      state: onMini.state,
      trace: onMini.trace,
      steps: onMini.steps.map((step) => step.update),
    });
    const exported = await toLangGraph(ours());
    expect(await exported.invoke(INPUT)).toEqual(onMini.state);
  });

  it("two Commands writing a field without a reducer fail on both (LangGraph: INVALID_CONCURRENT_GRAPH_UPDATE)", async () => {
    await expect(nativeTwice().invoke(INPUT)).rejects.toThrow(/LastValue can only receive one value per step/);
    await expect(plainFieldWrittenTwice().invoke(INPUT)).rejects.toMatchObject({ code: "CONCURRENT_WRITE" });
    await expect(runOnLangGraph(plainFieldWrittenTwice(), INPUT)).rejects.toMatchObject({ code: "CONCURRENT_WRITE" });
  });

  it("on a thread: a sibling's interrupt keeps the node's parts, and the resume runs it no more, on both engines", async () => {
    const build = () => {
      const runs: string[] = [];
      const count = counting(runs);
      const graph = new StateGraph<Desk>(DESK)
        .addNode(
          "a",
          count("a", () => [new Command({ update: { log: ["one"] }, goto: "b" }), new Command({ update: { log: ["two"] } })]),
          { ends: ["b"] },
        )
        .addNode(
          "ask",
          count("ask", () => ({ topic: interrupt<string>("topic?") })),
        )
        .addNode(
          "b",
          count("b", (s: Desk) => ({ log: [`b(${s.topic})`] })),
        )
        .addEdge(START, ["a", "ask"])
        .addEdge("a", END)
        .addEdge("ask", END)
        .addEdge("b", END)
        .compile();
      return { graph, runs };
    };
    const both = await onBothEngines(build, INPUT, [() => new Command({ resume: "refund" })]);
    expect(both.langGraph).toEqual(both.mini);
    expect(both.last.state).toEqual({ topic: "refund", log: ["one", "two", "b(refund)"] });
    expect(both.langGraphRuns).toEqual(both.miniRuns);
  });
});

/** LangGraph.js 1.7.3's "should handle send sequences correctly" (pregel.test.ts), its node writing as `itemOf` does. */
function nativeSendSequences(): { invoke(input: Items): Promise<Items> } {
  const Channels = Annotation.Root({ items: Annotation<string[]>({ reducer: (a, b) => a.concat(b) }) });
  const node = (name: string) => (state: Items) => {
    const update = { items: [isLangGraphCommand(state) ? `${name}|command` : itemOf(name, state)] };
    if (!isLangGraphCommand(state)) return update;
    (state as { update: unknown }).update = update;
    return state;
  };
  return new LangGraphStateGraph(Channels)
    .addNode("1", node("1"))
    .addNode("2", node("2"))
    .addNode("3", node("3"))
    .addNode("3.1", node("3.1"))
    .addEdge(LG_START, "1")
    .addConditionalEdges("1", () => [
      new LangGraphSend("2", new LangGraphCommand({ goto: new LangGraphSend("2", 3) })),
      new LangGraphSend("2", new LangGraphCommand({ goto: new LangGraphSend("2", 4) })),
      "3.1",
    ])
    .addConditionalEdges("2", () => "3")
    .compile();
}

describe("a Command as a Send's input: the mini engine against LangGraph.js 1.7.3", () => {
  it("the same items; LangGraph merges the Sends after the plain task (a documented difference of merge order)", async () => {
    const native = (await nativeSendSequences().invoke({ items: ["0"] })).items;
    expect(native).toEqual(["0", "1", "3.1", "2|command", "2|command", "3", "2|3", "2|4", "3"]);
    const ours = (await sendSequences().invoke({ items: ["0"] })).state.items;
    expect([...ours].sort()).toEqual([...native].sort());
  });

  it("runOnLangGraph gives the mini engine's result, also on a thread paused before the Sends run", async () => {
    const onMini = await sendSequences().invoke({ items: ["0"] });
    const onLangGraph = await runOnLangGraph(sendSequences(), { items: ["0"] });
    expect({ state: onLangGraph.state, trace: onLangGraph.trace }).toEqual({ state: onMini.state, trace: onMini.trace });
    const both = await onBothEngines(() => ({ graph: sendSequences({ interruptBefore: ["3.1"] }), runs: [] }), { items: ["0"] }, [
      () => null,
    ]);
    // `next` aside: the LangGraph runner lists a node once however many Sends wait for it (its own rule, not this one's).
    const withoutNext = (results: unknown[]) => results.map((result) => ({ ...(result as object), next: undefined }));
    expect(withoutNext(both.langGraph)).toEqual(withoutNext(both.mini));
    expect(both.last.state).toEqual(onMini.state);
  });
});
