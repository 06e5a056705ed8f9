/**
 * Idiomatic code the compiler must accept (issue 18 §1): each case was once a false error.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  append,
  bindSpec,
  Command,
  defineGraph,
  END,
  route,
  START,
  StateGraph,
  subgraph,
  type CompiledGraph,
  type NodeContext,
  type RouterContext,
} from "../../src/index.js";

interface Job {
  status: "idle" | "running" | "done";
  priority: 1 | 2 | 3;
  refund: { status: "pending" | "paid"; amount: number } | null;
  result: { ok: true; value: number } | { ok: false; error: string } | null;
  tags: ("a" | "b")[];
  pair: readonly ["x" | "y", 0 | 1] | null;
  messages?: string[];
}

const jobs = new StateGraph<Job>({ reducers: { messages: append } });

describe("inline literals for literal-typed fields", () => {
  it("keeps string and numeric literals, nested literals, discriminated results and arrays of literals", () => {
    jobs.addNode("start", () => ({ status: "running" }));
    jobs.addNode("start", () => ({ priority: 2 }));
    jobs.addNode("start", () => ({ refund: { status: "pending", amount: 3 } }));
    jobs.addNode("start", (s) => ({ result: { ok: true, value: s.priority } }));
    jobs.addNode("start", () => ({ result: { ok: false, error: "no" } }));
    jobs.addNode("start", () => ({ tags: ["a", "b"] }));
    jobs.addNode("start", () => ({ pair: ["x", 1] }));
    jobs.addNode("start", async () => ({ status: "done" }));
  });

  it("still rejects a literal outside the field's type", () => {
    // @ts-expect-error - "stopped" is not a status
    jobs.addNode("start", () => ({ status: "stopped" }));
    // @ts-expect-error - 4 is not a priority
    jobs.addNode("start", () => ({ priority: 4 }));
    // @ts-expect-error - a successful result has a value, not an error
    jobs.addNode("start", () => ({ result: { ok: true, error: "no" } }));
    // @ts-expect-error - "c" is not a tag
    jobs.addNode("start", () => ({ tags: ["a", "c"] }));
    // @ts-expect-error - an optional field with a reducer still takes its own type
    jobs.addNode("start", () => ({ messages: "hello" }));
  });
});

describe("the node and router contexts", () => {
  it("types the second parameter without an annotation", () => {
    jobs.addNode("work", (s, ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<NodeContext>();
      ctx.writer({ progress: s.status });
      return { status: "done" };
    });
    jobs
      .addNode("work", () => ({}))
      .addConditionalEdges("work", (s, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<RouterContext>();
        return ctx.superstep > 3 || s.status === "done" ? "stop" : "again";
      }, { stop: END, again: "work" });
  });

  it("rejects what the contexts do not have", () => {
    // @ts-expect-error - a router cannot write stream events
    jobs.addNode("work", () => ({})).addConditionalEdges("work", (_s, ctx) => (ctx.writer ? "stop" : "stop"), { stop: END });
    // @ts-expect-error - a node has no third parameter
    jobs.addNode("work", (_s, _ctx, extra: number) => ({ priority: extra === 1 ? 1 : 2 }));
  });
});

describe("subgraphs", () => {
  it("maps a child of another state without annotating the mapping", () => {
    const child = new StateGraph<{ text: string; summary: string }>()
      .addNode("sum", (c) => ({ summary: c.text.slice(0, 3) }))
      .addEdge(START, "sum")
      .addEdge("sum", END)
      .compile();
    jobs.addNode("summary", subgraph(child, { input: (s) => ({ text: s.status, summary: "" }), output: (c) => ({ messages: [c.summary] }) }));
  });
});

enum Route {
  Go = "go",
  Stop = "stop",
}

describe("string-enum routers", () => {
  it("accepts a path map keyed by the enum's values", () => {
    const two = new StateGraph<Job>().addNode("a", () => ({})).addNode("b", () => ({}));
    two.addConditionalEdges("a", (s) => (s.status === "done" ? Route.Stop : Route.Go), { go: "b", stop: END });
    two.addConditionalEdges("a", (s): Route => (s.status === "done" ? Route.Stop : Route.Go), { [Route.Go]: "b", [Route.Stop]: END });
    route((s: Job) => (s.status === "done" ? Route.Stop : Route.Go), { go: "b", stop: END });
  });

  it("still rejects a key the enum router never returns, and a missing one", () => {
    const two = new StateGraph<Job>().addNode("a", () => ({})).addNode("b", () => ({}));
    // @ts-expect-error - the router never returns "later"
    two.addConditionalEdges("a", (s) => (s.status === "done" ? Route.Stop : Route.Go), { go: "b", stop: END, later: "a" });
    // @ts-expect-error - the router can return "stop", which the path map lacks
    two.addConditionalEdges("a", (s) => (s.status === "done" ? Route.Stop : Route.Go), { go: "b" });
  });
});

describe("defineGraph", () => {
  it("types the node and router contexts without annotations", () => {
    const graph = defineGraph<Job>()({
      reducers: { messages: append },
      nodes: {
        plan: (s, ctx) => {
          expectTypeOf(ctx).toEqualTypeOf<NodeContext>();
          return { status: s.status };
        },
        summarize: (s) => ({ messages: [s.status] }),
      },
      edges: [
        [START, "plan"],
        ["summarize", END],
      ],
      routes: { plan: route((s: Job, ctx: RouterContext) => (ctx.superstep > 1 ? [] : s.tags.map(() => "summarize" as const)), ["summarize"]) },
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Job, "plan" | "summarize">>();
  });

  it("accepts a node whose result is typed any (JSON.parse), as the builder does", () => {
    const graph = defineGraph<Job>()({ nodes: { parse: (s) => JSON.parse(s.status) }, edges: [[START, "parse"], ["parse", END]] });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Job, "parse">>();
  });
});

describe("bindSpec", () => {
  it("does not ask for routers when the spec has no routes", () => {
    const spec = { nodes: ["a"], edges: [{ from: START, to: "a" }, { from: "a", to: END }], routes: [] } as const;
    bindSpec(spec, { nodes: { a: (s: Job) => ({ status: s.status }) } });
  });

  it("accepts a node whose result is typed any (JSON.parse)", () => {
    const spec = { nodes: ["a"], edges: [{ from: START, to: "a" }, { from: "a", to: END }], routes: [] } as const;
    bindSpec(spec, { nodes: { a: (s: Job) => JSON.parse(s.status) } });
  });
});

describe("helpers over the builder", () => {
  it("a helper typed StateGraph<S, any, any, any> can add nodes and compile", () => {
    // biome-ignore lint/suspicious/noExplicitAny: `any` is how a helper opts out of the builder's type parameters
    const compileAny = (g: StateGraph<Job, any, any, any>) => g.compile();
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const addLogger = (g: StateGraph<Job, any, any, any>) => g.addNode("logger", (s) => ({ status: s.status }));
    const wired = new StateGraph<Job>().addNode("a", () => ({})).addEdge(START, "a").addEdge("a", END);
    expectTypeOf(compileAny(wired)).toEqualTypeOf<CompiledGraph<Job>>(); // any node names
    addLogger(wired);
  });

  it("the builder keeps its checks for concrete builders", () => {
    const one = new StateGraph<Job>().addNode("a", () => ({}));
    // @ts-expect-error - "a" is already declared
    one.addNode("a", () => ({}));
    // @ts-expect-error - "a" has no outgoing edge
    one.addEdge(START, "a").compile();
  });
});

describe("a state with fields named like a Command's members", () => {
  it("compiles nodes that return a Command, in the builder and defineGraph", () => {
    new StateGraph<{ resume: boolean; n: number }>().addNode("a", () => new Command({ update: { n: 1 } }));
    new StateGraph<{ goto: string[]; n: number }>().addNode("a", () => new Command({ update: { n: 1 } }));
    new StateGraph<{ resume?: string; n: number }>().addNode("a", () => new Command({ goto: "b" }), { ends: ["b"] });
    defineGraph<{ resume: boolean }>()({
      nodes: { a: () => new Command({ goto: "b" }), b: () => ({}) },
      edges: [[START, "a"], ["b", END]],
      ends: { a: ["b"] },
    });
    defineGraph<{ goto: string[]; n: number }>()({
      nodes: { a: () => new Command({ update: { n: 1 } }) },
      edges: [[START, "a"], ["a", END]],
    });
  });
});
