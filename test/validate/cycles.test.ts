/**
 * The loop rule at run time: every cycle crosses a bounded node. A cycle that crosses none is an
 * UNBOUNDED_CYCLE warning, or a problem of compile() for a graph declared with loops: "bounded".
 */
import { describe, expect, it } from "vitest";
import { append, Command, defineGraph, END, route, GraphValidationError, START, StateGraph, stateGraph } from "../../src/index.js";
import { unboundedCycles } from "../../src/validate/cycles.js";
import { counterGraph } from "../helpers/graphs.js";
import { reviseLoop } from "../helpers/loop-graphs.js";

type Log = { log: string[] };
const node = () => ({ log: ["x"] });

describe("unboundedCycles", () => {
  it("finds a routed cycle, a self-loop and a cycle through a Command goto; none once bounded", () => {
    expect(unboundedCycles(reviseLoop(1).spec)).toEqual([]);
    expect(unboundedCycles(counterGraph().spec)).toEqual([{ nodes: ["inc"] }]);
    const goto = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("a", node)
      .addNode("b", () => new Command({ goto: "a" }), { ends: ["a", END] })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    expect(unboundedCycles(goto.spec)).toEqual([{ nodes: ["a", "b"] }]);
  });

  it("a graph without a cycle has none", () => {
    const line = new StateGraph<Log>()
      .addNode("a", node)
      .addNode("b", node)
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    expect(unboundedCycles(line.spec)).toEqual([]);
  });

  it("an exit that leads back into the loop is a cycle past the bound", () => {
    const back = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("a", node)
      .addNode("b", node, { bound: { max: 1, exit: "a" } })
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "b" | "done" => "b", { b: "b", done: END })
      .addEdge("b", "a")
      .compile();
    // a → b is the loop the bound stops; once b is exhausted, a → (b's exit) a loops on its own.
    expect(unboundedCycles(back.spec)).toEqual([{ nodes: ["a"] }]);
  });

  it("an exit of an exit that leads back is a cycle past both bounds (x → b ⇒ c ⇒ x)", () => {
    const chain = new StateGraph<Log>({ reducers: { log: append } })
      .addNode("x", node)
      .addNode("b", node, { bound: { max: 0, exit: "c" } })
      .addNode("c", node, { bound: { max: 0, exit: "x" } })
      .addEdge(START, "x")
      .addConditionalEdges("x", (): "b" | "done" => "b", { b: "b", done: END })
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    // Once b and c are spent, x → b lands on c's exit, x itself: a loop no bound stops.
    expect(unboundedCycles(chain.spec)).toEqual([{ nodes: ["x"] }]);
  });

  it("reports a subgraph's cycle with its path", () => {
    const parent = new StateGraph<{ n: number; log: string[]; note: string | null; nested: { items: number[] } }>()
      .addNode("sub", counterGraph())
      .addEdge(START, "sub")
      .addEdge("sub", END)
      .compile();
    expect(unboundedCycles(parent.spec)).toEqual([{ nodes: ["sub/inc"] }]);
  });

  it("decides 100k nodes in a ring without exhausting the stack", () => {
    const nodes = Array.from({ length: 100_000 }, (_, i) => `n${i}`);
    const edges = nodes.map((from, i) => ({ from, to: nodes[(i + 1) % nodes.length] as string }));
    const [cycle] = unboundedCycles({ nodes, edges, routes: [], reducers: [] });
    expect(cycle?.nodes).toHaveLength(100_000);
  });
});

describe("compile() and the loop rule", () => {
  it("warns UNBOUNDED_CYCLE without the opt-in; existing graphs keep compiling", () => {
    const warnings = counterGraph().warnings;
    expect(warnings.map((w) => w.code)).toEqual(["UNBOUNDED_CYCLE"]);
    expect(warnings[0]?.message).toContain(`the node "inc" routes to itself crosses no bounded node`);
  });

  it('refuses an unbounded cycle with loops: "bounded", on the builder and defineGraph', () => {
    const builder = stateGraph<Log>()({ reducers: { log: append }, loops: "bounded" })
      .addNode("a", node)
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "again" | "done" => "done", { again: "a", done: END });
    const error = (() => {
      try {
        // @ts-expect-error - the compiler refuses it too (test/types/loops.test-d.ts); this checks the run-time refusal
        builder.compile();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as GraphValidationError).problems).toMatchObject([{ code: "UNBOUNDED_CYCLE", node: "a" }]);
    expect(() =>
      defineGraph<Log>()({
        reducers: { log: append },
        loops: "bounded",
        nodes: { a: node },
        edges: [[START, "a"]],
        routes: { a: route((): "again" | "done" => "done", { again: "a", done: END }) },
      }),
    ).toThrow(/UNBOUNDED_CYCLE/);
  });

  it('compiles a bounded loop with loops: "bounded", without a warning', () => {
    const bounded = stateGraph<Log>()({ reducers: { log: append }, loops: "bounded" })
      .addNode("a", node, { bound: { max: 3, exit: END } })
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "again" | "done" => "again", { again: "a", done: END })
      .compile();
    expect(bounded.warnings).toEqual([]);
  });

  it('refuses a loops value other than "bounded"', () => {
    expect(() => stateGraph<Log>()({ loops: "yes" as "bounded" })).toThrow(/loops must be "bounded"/);
  });
});
