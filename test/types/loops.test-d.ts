/**
 * The type-level cycle check of `loops: "bounded"` (issue 41 §1): a cycle that crosses no bounded node
 * is a compile error at `compile()` naming its nodes, where the builder's types see the cycle (fixed
 * edges, fan-outs and joins, route destinations, a node's `ends`, a bound's exit). Without the opt-in,
 * nothing changes: such a cycle is a run-time warning only.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ExitRecord, UnboundedCycleNodes, UnboundedCycleProblems } from "../../src/builder/cycles.js";
import { append, Command, END, START, StateGraph, stateGraph, type CompiledGraph } from "../../src/index.js";

interface S {
  count: number;
  log: string[];
}
const bounded = () => stateGraph<S>()({ reducers: { log: append }, loops: "bounded" });
const again = (s: S): "again" | "done" => (s.count > 3 ? "done" : "again");

describe('loops: "bounded" at compile time', () => {
  it("refuses a self-loop that crosses no bounded node, naming the node", () => {
    const loop = bounded().addNode("a", () => ({})).addEdge(START, "a").addConditionalEdges("a", again, { again: "a", done: END });
    // @ts-expect-error - compile(): loops: "bounded", but the cycle through "a" crosses no bounded node
    loop.compile();
  });

  it("compiles the same loop once its node is bounded, with or without an exit", () => {
    const withExit = bounded()
      .addNode("a", () => ({}), { bound: { max: 3, exit: END } })
      .addEdge(START, "a")
      .addConditionalEdges("a", again, { again: "a", done: END })
      .compile();
    const withoutExit = bounded()
      .addNode("a", () => ({}), { bound: { max: 0 } })
      .addEdge(START, "a")
      .addConditionalEdges("a", again, { again: "a", done: END })
      .compile();
    expectTypeOf(withExit).toEqualTypeOf<CompiledGraph<S, "a">>();
    expectTypeOf(withoutExit).toEqualTypeOf<CompiledGraph<S, "a">>();
  });

  it("refuses a longer cycle, and accepts it when any one of its nodes is bounded", () => {
    const cycle = bounded()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addConditionalEdges("c", again, { again: "a", done: END });
    // @ts-expect-error - "a", "b" and "c" are on a cycle that crosses no bounded node
    cycle.compile();
    const boundedB = bounded()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}), { bound: { max: 2, exit: END } })
      .addNode("c", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addConditionalEdges("c", again, { again: "a", done: END })
      .compile();
    expectTypeOf(boundedB).toEqualTypeOf<CompiledGraph<S, "a" | "b" | "c">>();
  });

  it("names the nodes on the unbounded cycle only, not those before or after it", () => {
    type E =
      | readonly [typeof START, "in"]
      | readonly ["in", "a"]
      | readonly ["a", "b"]
      | readonly ["b", "a" | "out"]
      | readonly ["out", typeof END]
      | readonly ["loop", "loop" | "in"]
      | readonly ["loop"];
    expectTypeOf<UnboundedCycleNodes<"in" | "a" | "b" | "out" | "loop", E>>().toEqualTypeOf<"a" | "b">();
    expectTypeOf<UnboundedCycleProblems<"in" | "a" | "b" | "out", E>>().toEqualTypeOf<never>();
    expectTypeOf<UnboundedCycleProblems<"a", readonly ["typed-state-graph: loops: bounded"] | readonly ["a", "a"]>>().toEqualTypeOf<
      'loops: "bounded", but the cycle through "a" crosses no bounded node, so only recursionLimit stops it; bound one of its nodes: addNode(name, fn, { bound: { max, exit } })'
    >();
  });

  it("follows a fan-out and a join into a cycle", () => {
    const fanned = bounded()
      .addNode("plan", () => ({}))
      .addNode("left", () => ({}))
      .addNode("right", () => ({}))
      .addNode("merge", () => ({}))
      .addEdge(START, "plan")
      .addEdge("plan", ["left", "right"])
      .addEdge(["left", "right"], "merge")
      .addConditionalEdges("merge", again, { again: "plan", done: END });
    // @ts-expect-error - plan, left, right and merge are on a cycle that crosses no bounded node
    fanned.compile();
  });

  it("follows a Command's declared ends into a cycle", () => {
    const supervised = bounded()
      .addNode("supervisor", (s) => new Command({ goto: s.count > 3 ? END : "worker" }), { ends: ["worker", END] })
      .addNode("worker", () => ({ count: 1 }))
      .addEdge(START, "supervisor")
      .addEdge("worker", "supervisor");
    // @ts-expect-error - supervisor and worker are on a cycle through the supervisor's ends
    supervised.compile();
    const boundedSupervisor = bounded()
      .addNode("supervisor", (s) => new Command({ goto: s.count > 3 ? END : "worker" }), {
        ends: ["worker", END],
        bound: { max: 5, exit: END },
      })
      .addNode("worker", () => ({ count: 1 }))
      .addEdge(START, "supervisor")
      .addEdge("worker", "supervisor")
      .compile();
    expectTypeOf(boundedSupervisor).toEqualTypeOf<CompiledGraph<S, "supervisor" | "worker">>();
  });

  it("follows a cycle through a subgraph node, as through any node", () => {
    const child = stateGraph<S>()({ reducers: { log: append } })
      .addNode("step", () => ({ count: 1 }))
      .addEdge(START, "step")
      .addEdge("step", END)
      .compile();
    const throughChild = bounded()
      .addNode("child", child)
      .addEdge(START, "child")
      .addConditionalEdges("child", again, { again: "child", done: END });
    // @ts-expect-error - compile(): loops: "bounded", but the cycle through "child" crosses no bounded node
    throughChild.compile();
    const boundedChild = bounded()
      .addNode("child", child, { bound: { max: 2, exit: END } })
      .addEdge(START, "child")
      .addConditionalEdges("child", again, { again: "child", done: END })
      .compile();
    expectTypeOf(boundedChild).toEqualTypeOf<CompiledGraph<S, "child">>();
  });

  it("follows a spent bound's exit, and a chain of exits, back into a loop (as the run-time check)", () => {
    const back = bounded()
      .addNode("a", () => ({}))
      .addNode("b", () => ({}), { bound: { max: 1, exit: "a" } })
      .addEdge(START, "a")
      .addConditionalEdges("a", again, { again: "b", done: END })
      .addEdge("b", "a");
    // @ts-expect-error - once b is spent, a → b lands on a: a loop through "a" that no bound stops
    back.compile();
    const chain = bounded()
      .addNode("x", () => ({}))
      .addNode("b", () => ({}), { bound: { max: 0, exit: "c" } })
      .addNode("c", () => ({}), { bound: { max: 0, exit: "x" } })
      .addEdge(START, "x")
      .addConditionalEdges("x", again, { again: "b", done: END })
      .addEdge("b", END)
      .addEdge("c", END);
    // @ts-expect-error - x → b ⇒ c ⇒ x: once b and c are spent, x loops on its own
    chain.compile();
    type E =
      | readonly ["typed-state-graph: loops: bounded"]
      | readonly [typeof START, "x"]
      | readonly ["x", "b" | typeof END]
      | readonly ["b"]
      | readonly ["c"]
      | ExitRecord<"b", "c">
      | ExitRecord<"c", "x">;
    expectTypeOf<UnboundedCycleNodes<"x" | "b" | "c", E>>().toEqualTypeOf<"x">();
  });

  it("stays silent where the chain of exits ends at END, at a bound without an exit, or off the loop", () => {
    const toEnd = bounded()
      .addNode("x", () => ({}))
      .addNode("b", () => ({}), { bound: { max: 0, exit: "c" } })
      .addNode("c", () => ({}), { bound: { max: 0, exit: END } })
      .addEdge(START, "x")
      .addConditionalEdges("x", again, { again: "b", done: END })
      .addEdge("b", "x")
      .addEdge("c", END)
      .compile();
    const stopped = bounded()
      .addNode("x", () => ({}))
      .addNode("b", () => ({}), { bound: { max: 0, exit: "c" } })
      .addNode("c", () => ({}), { bound: { max: 0 } })
      .addEdge(START, "x")
      .addConditionalEdges("x", again, { again: "b", done: END })
      .addEdge("b", "x")
      .addEdge("c", "x")
      .compile();
    const held = bounded()
      .addNode("revise", () => ({}), { bound: { max: 2, exit: "hold" } })
      .addNode("write", () => ({}))
      .addNode("hold", () => ({}))
      .addEdge(START, "write")
      .addConditionalEdges("write", again, { again: "revise", done: END })
      .addEdge("revise", "write")
      .addEdge("hold", END)
      .compile();
    expectTypeOf(toEnd).toEqualTypeOf<CompiledGraph<S, "x" | "b" | "c">>();
    expectTypeOf(stopped).toEqualTypeOf<CompiledGraph<S, "x" | "b" | "c">>();
    expectTypeOf(held).toEqualTypeOf<CompiledGraph<S, "revise" | "write" | "hold">>();
  });

  it("compiles a graph with no cycle", () => {
    const line = bounded().addNode("a", () => ({})).addNode("b", () => ({})).addEdge(START, "a").addEdge("a", "b").addEdge("b", END).compile();
    expectTypeOf(line).toEqualTypeOf<CompiledGraph<S, "a" | "b">>();
  });

  it("is off without the opt-in: an unbounded loop compiles (compile() warns UNBOUNDED_CYCLE at run time)", () => {
    const plain = stateGraph<S>()({ reducers: { log: append } })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addConditionalEdges("a", again, { again: "a", done: END })
      .compile();
    const unreduced = new StateGraph<S>().addNode("a", () => ({})).addEdge(START, "a").addConditionalEdges("a", again, { again: "a", done: END }).compile();
    expectTypeOf(plain).toEqualTypeOf<CompiledGraph<S, "a">>();
    expectTypeOf(unreduced).toEqualTypeOf<CompiledGraph<S, "a">>();
  });

  it("keeps the opt-in through a helper generic over the builder's edges", () => {
    const withLoop = <N extends string, E, R extends string>(builder: StateGraph<S, N, E, R>) =>
      builder.addNode("retry", () => ({})).addEdge(START, "retry").addConditionalEdges("retry", again, { again: "retry", done: END });
    const helped = withLoop(bounded());
    // @ts-expect-error - the helper's loop crosses no bounded node, and the builder it was given opted in
    helped.compile();
    const opted = bounded().addNode("a", () => ({}));
    type Opted = typeof opted extends StateGraph<S, infer N, infer E, infer R, {}, infer _W> ? [N, E, R] : never;
    expectTypeOf<Opted[1]>().toEqualTypeOf<readonly ["typed-state-graph: loops: bounded"]>();
  });
});
