/**
 * Deferred nodes against LangGraph.js 1.7.3's own `defer`: the same graph written natively on
 * LangGraph.js (`addNode(name, fn, { defer: true })`, as its tests write it) and on this library agree
 * on the trace and the state; runOnLangGraph and toLangGraph map `defer` to LangGraph's, so they agree too.
 */
import {
  Annotation,
  END as LG_END,
  Send as LangGraphSend,
  StateGraph as LangGraphStateGraph,
  START as LG_START,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { CompiledGraph } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { joinIntoDeferred, reduceBesideSends, unevenBranches, type LogState } from "../helpers/defer-graphs.js";

const Log = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }) });
type Native = { invoke(input: LogState): Promise<LogState> };

const step = (name: string) => (): Partial<LogState> => ({ log: [name] });
const reduce = (s: LogState): Partial<LogState> => ({ log: [`reduce(${s.log.join(",")})`] });

/** `unevenBranches` written on LangGraph.js. */
function nativeUneven(defer: boolean): Native {
  return new LangGraphStateGraph(Log)
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("a2", step("a2"))
    .addNode("reduce", reduce, { defer })
    .addEdge(LG_START, "a")
    .addEdge(LG_START, "b")
    .addEdge("a", "a2")
    .addEdge("a2", "reduce")
    .addEdge("b", "reduce")
    .addEdge("reduce", LG_END)
    .compile();
}

/** `reduceBesideSends` written on LangGraph.js. */
function nativeBesideSends(): Native {
  return new LangGraphStateGraph(Log)
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("reduce", reduce, { defer: true })
    .addNode("work", (s: LogState) => ({ log: [`work(${s.log.length})`] }))
    .addEdge(LG_START, "a")
    .addEdge(LG_START, "b")
    .addEdge("a", "reduce")
    .addConditionalEdges("b", () => [new LangGraphSend("work", { log: [] }), new LangGraphSend("work", { log: ["x"] })], ["work"])
    .addEdge("work", LG_END)
    .addEdge("reduce", LG_END)
    .compile();
}

/** `joinIntoDeferred` written on LangGraph.js (a waiting edge into a deferred node). */
function nativeJoin(): Native {
  // Declared in another order than the helper's: LangGraph runs a superstep's tasks by node name, whatever the order.
  return new LangGraphStateGraph(Log)
    .addNode("c", step("c"))
    .addNode("c2", step("c2"))
    .addNode("c3", step("c3"))
    .addNode("reduce", reduce, { defer: true })
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addEdge(LG_START, "c")
    .addEdge("c", "c2")
    .addEdge("c2", "c3")
    .addEdge("c3", LG_END)
    .addEdge(LG_START, "a")
    .addEdge(LG_START, "b")
    .addEdge(["a", "b"], "reduce")
    .addEdge("reduce", LG_END)
    .compile();
}

const cases: [string, () => CompiledGraph<LogState>, () => Native][] = [
  ["branches of different lengths", () => unevenBranches(true), () => nativeUneven(true)],
  ["the same graph without defer (reduce runs twice on both)", () => unevenBranches(false), () => nativeUneven(false)],
  ["a deferred node beside pending Sends runs with them", reduceBesideSends, nativeBesideSends],
  ["a join into a deferred node waits for the longest branch", joinIntoDeferred, nativeJoin],
];

describe("deferred nodes: the mini engine against LangGraph.js 1.7.3's defer", () => {
  it.each(cases)("%s: the same state", async (_name, ours, native) => {
    const expected = await native().invoke({ log: [] });
    expect((await ours().invoke({ log: [] })).state).toEqual(expected);
  });

  it.each(cases)("%s: runOnLangGraph and toLangGraph give LangGraph's result", async (_name, ours) => {
    const onMini = await ours().invoke({ log: [] });
    const onLangGraph = await runOnLangGraph(ours(), { log: [] });
    expect({ state: onLangGraph.state, trace: onLangGraph.trace }).toEqual({ state: onMini.state, trace: onMini.trace });
    const exported = await toLangGraph(ours());
    expect(await exported.invoke({ log: [] })).toEqual(onMini.state);
  });
});
