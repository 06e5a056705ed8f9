/**
 * `Command.PARENT` (issue 38 §2) against LangGraph.js 1.7.3: the same parent and child written on
 * LangGraph.js natively (a child node returns LangGraph's `Command({ graph: Command.PARENT, … })`) end
 * in the state the mini engine gives, with the handoff's update merged through the parent's reducer, the
 * subgraph node's own edge and the goto both taken, and the child's other writes (c0, c2) lost; and
 * `runOnLangGraph` runs our graphs to the same result.
 */
import {
  Annotation,
  Command as LangGraphCommand,
  END as LG_END,
  START as LG_START,
  StateGraph as LangGraphStateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { Command } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { handoffParent, type Desk } from "../engine/_handoff.js";
import { onBothEngines, withoutNs } from "./_helpers.js";

const DeskChannels = Annotation.Root({
  log: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
  who: Annotation<string>(),
});
const INPUT: Desk = { log: [], who: "none" };

/** A node that appends its own name to the log. */
const logs = (name: string) => () => ({ log: [name] });

/** `handoffParent` written on LangGraph.js, its child `c1` handing off with LangGraph's own Command.PARENT. */
function nativeParent(routed: boolean) {
  const handOff = () => new LangGraphCommand({ graph: LangGraphCommand.PARENT, goto: "billing", update: { log: ["c1"], who: "c1" } });
  const child = new LangGraphStateGraph(DeskChannels)
    .addNode("c0", logs("c0"))
    .addNode("c1", handOff)
    .addNode("c2", logs("c2"))
    .addNode("c3", logs("c3"));
  for (const [from, to] of [
    [LG_START, "c0"],
    ["c0", "c1"],
    ["c0", "c2"],
    ["c1", "c3"],
    ["c2", "c3"],
    ["c3", LG_END],
  ] as const)
    child.addEdge(from, to);
  const parent = new LangGraphStateGraph(DeskChannels)
    .addNode("p0", logs("p0"))
    .addNode("sub", child.compile(), { ends: ["billing"] })
    .addNode("after", logs("after"))
    .addNode("billing", logs("billing"));
  for (const [from, to] of [
    [LG_START, "p0"],
    ["p0", "sub"],
    ["after", LG_END],
    ["billing", LG_END],
  ] as const)
    parent.addEdge(from, to);
  if (routed) parent.addConditionalEdges("sub", () => "after", ["after"]);
  else parent.addEdge("sub", "after");
  return parent.compile();
}

describe("Command.PARENT: the mini engine against LangGraph.js 1.7.3", () => {
  it.each([false, true])("routed %s: the same state as LangGraph.js's own ParentCommand", async (routed) => {
    const expected = await nativeParent(routed).invoke(INPUT);
    expect(expected).toEqual({ log: ["p0", "c1", "after", "billing"], who: "c1" });
    expect((await handoffParent(false, routed).invoke(INPUT)).state).toEqual(expected);
  });

  it("runOnLangGraph runs the handoff to the mini engine's result", async () => {
    const onMini = await handoffParent().invoke(INPUT);
    const onLangGraph = await runOnLangGraph(handoffParent(), INPUT);
    expect({ state: onLangGraph.state, trace: onLangGraph.trace }).toEqual({ state: onMini.state, trace: onMini.trace });
    // The export runs the child inside the subgraph node, which hands LangGraph the handoff as its own Command.
    expect(await (await toLangGraph(handoffParent())).invoke(INPUT)).toEqual(onMini.state);
  });

  it("on a thread, a pause inside the child before the handoff resumes and hands off on both engines", async () => {
    const run = await onBothEngines(() => ({ graph: handoffParent(true), runs: [] }), INPUT, [() => new Command({ resume: "desk" })]);
    expect(run.langGraph.map(withoutNs)).toEqual(run.mini.map(withoutNs));
    expect(run.mini[1]).toMatchObject({ status: "done", state: { log: ["p0", "c1", "after", "billing"], who: "c1" } });
  });
});
