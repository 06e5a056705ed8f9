/**
 * `Command.PARENT` (issue 38 §2): a node of a subgraph hands off to a node of its parent graph, as on
 * LangGraph.js 1.7.3 (test/langgraph/command-parent.test.ts runs the same graphs there). The parent
 * merges the handoff's update through its reducers and goes to its goto, beside the subgraph node's own
 * edge or route; the child's run ends at that superstep, so its other writes never reach the parent.
 */
import { describe, expect, it } from "vitest";
import { append, Command, GraphExecutionError, START, END, StateGraph } from "../../src/index.js";
import { handingChild, handoffParent } from "./_handoff.js";

describe("Command.PARENT: a subgraph's node hands off to its parent", () => {
  it("merges the update through the parent's reducers and runs the goto beside the node's own edge", async () => {
    const { state, trace, steps } = await handoffParent().invoke({ log: [], who: "none" });
    // c0's and c2's writes stay in the child; after (sub's edge) and billing (the goto) run together.
    expect(state).toEqual({ log: ["p0", "c1", "after", "billing"], who: "c1" });
    expect(trace).toEqual(["p0", "sub", "after", "billing"]);
    expect(steps[1]?.update).toEqual({ log: ["c1"], who: "c1" });
  });

  it("a route from the subgraph node still runs, on the state with the handoff's update", async () => {
    const { state } = await handoffParent(false, true).invoke({ log: [], who: "none" });
    expect(state.log).toEqual(["p0", "c1", "after", "billing"]);
  });

  it("streams the handoff as the subgraph node's update; the child's handoff superstep yields nothing", async () => {
    const chunks: unknown[] = [];
    for await (const chunk of handoffParent().stream({ log: [], who: "none" }, { subgraphs: true })) chunks.push(chunk);
    const nodes = chunks.map((chunk) => {
      const [namespace, step] = chunk as [string[], { node: string }];
      return `${namespace.length === 0 ? "" : "child:"}${step.node}`;
    });
    expect(nodes).toEqual(["p0", "child:c0", "sub", "after", "billing"]);
  });

  it("a graph run on its own has no parent to hand off to: NO_PARENT_GRAPH, naming the node and the fix", async () => {
    const error = await handingChild()
      .invoke({ log: [], who: "none" })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "NO_PARENT_GRAPH", node: "c1", trace: ["c0"], state: { log: ["c0"], who: "none" } });
    expect((error as Error).message).toMatch(
      /^invoke: node "c1" returned a Command with graph: Command.PARENT \(goto "billing"\).*addNode/,
    );
  });

  it("a goto the subgraph node does not declare in its ends is the parent's UNDECLARED_GOTO", async () => {
    const parent = new StateGraph<{ log: string[]; who: string }>({ reducers: { log: append } })
      .addNode("billing", () => ({ log: ["billing"] }))
      .addNode("sub", handingChild(), { ends: ["other"] })
      .addNode("other", () => ({ log: ["other"] }))
      .addEdge(START, "billing")
      .addEdge("billing", "sub")
      .addEdge("sub", END)
      .addEdge("other", END)
      .compile();
    await expect(parent.invoke({ log: [], who: "none" })).rejects.toMatchObject({ code: "UNDECLARED_GOTO", node: "sub" });
  });

  it("a Command's graph is Command.PARENT's value (LangGraph.js's), or undefined for its own graph", () => {
    expect(new Command({ graph: Command.PARENT, goto: "x" }).graph).toBe("__parent__");
    expect(new Command({ goto: "x" }).graph).toBeUndefined();
  });
});
