/**
 * A node that returns a list of Commands: each is checked as if the node returned it alone (its goto
 * against the node's ends, its update against the state, no resume), in `addNode` and `defineGraph`,
 * sync and async; a list holding a plain update is refused, with the node named.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, Command, defineGraph, END, Send, START, StateGraph, type CompiledGraph } from "../../src/index.js";

interface Desk {
  topic: string;
  log: string[];
}
const base = () => new StateGraph<Desk>({ reducers: { log: append } });

describe("a node's list of Commands", () => {
  it("compiles for Commands within the node's ends: names, a Send, END, an update only; async too", () => {
    const graph = base()
      .addNode(
        "triage",
        () => [new Command({ update: { topic: "refund" }, goto: "billing" }), new Command({ update: { log: ["triage"] }, goto: ["support", END] })],
        { ends: ["billing", "support", END] },
      )
      .addNode("billing", async () => [new Command({ update: { log: ["b"] } }), new Command({ goto: new Send("support", { topic: "x", log: [] }) })], {
        ends: ["support"],
      })
      .addNode("support", () => ({ log: ["s"] }))
      .addEdge(START, "triage")
      .addEdge("support", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Desk, "triage" | "billing" | "support">>();
  });

  it("does not compile for a goto outside the ends in any of the Commands", () => {
    base()
      // @ts-expect-error - "page" is not one of triage's ends, in the second Command
      .addNode("triage", () => [new Command({ goto: "queue" }), new Command({ goto: "page" })], { ends: ["queue"] });
    base()
      // @ts-expect-error - a Send to a node outside the ends
      .addNode("triage", () => [new Command({ goto: new Send("page", {}) })], { ends: ["queue"] });
  });

  it("does not compile for an update with a field the state lacks, or a resume, in any of the Commands", () => {
    base().addNode(
      "triage",
      // @ts-expect-error - "priority" is not a field of Desk
      () => [new Command({ update: { log: ["x"] } }), new Command({ update: { priority: 1 } })],
    );
    // @ts-expect-error - resume answers an interrupt; a node's Command does not take one
    base().addNode("triage", () => [new Command({ resume: "yes" })]);
    // Beside a Command without resume, the list's element type absorbs it (`Command<string>` is a
    // `Command<unknown>`): the run refuses it (RESUME_IN_NODE, test/engine/command-list.test.ts).
    base().addNode("triage", () => [new Command({ update: { log: ["x"] } }), new Command({ resume: "yes" })]);
  });

  it("does not compile for a list holding a plain update", () => {
    // @ts-expect-error - every member of the list is a Command
    base().addNode("triage", () => [new Command({ update: { log: ["x"] } }), { log: ["y"] }]);
  });

  it("defineGraph takes a node returning a list of Commands, checked against its ends", () => {
    defineGraph<Desk>()({
      nodes: { a: () => [new Command({ update: { topic: "t" }, goto: "b" }), new Command({ goto: "b" })], b: () => ({ log: ["b"] }) },
      ends: { a: ["b"] },
      edges: [
        [START, "a"],
        ["b", END],
      ],
      reducers: { log: append },
    });
    defineGraph<Desk>()({
      // @ts-expect-error - "c" is not one of a's ends
      nodes: { a: () => [new Command({ goto: "c" })], b: () => ({ log: ["b"] }) },
      ends: { a: ["b"] },
      edges: [
        [START, "a"],
        ["b", END],
      ],
      reducers: { log: append },
    });
  });

  it("a router may send a node a Command as its input (LangGraph.js's Send of a Command); a wrong plain payload is still refused", () => {
    base()
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send("b", new Command({ goto: new Send("b", { topic: "t", log: [] }) }))], ["b"])
      .addEdge("b", END)
      .compile();
    base()
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => [new Send("b", { topic: 1 })], ["b"])
      // @ts-expect-error - the payload's topic is not a string
      .addEdge("b", END);
  });
});
