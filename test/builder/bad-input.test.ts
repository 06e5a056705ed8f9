/**
 * Every bad input to a declaration API is a coded library error that lists every problem: never a raw
 * TypeError, RangeError or stack overflow.
 */
import { describe, expect, it } from "vitest";
import {
  bindSpec,
  checkSpecSchema,
  compileGraph,
  END,
  GraphError,
  GraphValidationError,
  InvalidOptionError,
  START,
  StateGraph,
  stateGraph,
  validateTopology,
  type GraphProblem,
  type GraphSpec,
} from "../../src/index.js";

function thrown(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

const codes = (error: unknown) => (error as GraphValidationError).problems.map((p) => `${p.code}:${p.node}`);
const linear = () =>
  new StateGraph<{ n: number }>()
    .addNode("a", () => ({}))
    .addEdge(START, "a")
    .addEdge("a", END);

describe("builder calls with bad arguments", () => {
  it.each<[string, () => unknown, string, RegExp]>([
    [
      "a node that is not a function",
      () => new StateGraph().addNode("a", "nope" as never),
      "INVALID_ARGUMENT",
      /^StateGraph\.addNode: the node "a" must be a function/,
    ],
    [
      "lists on both sides of an edge",
      () => new StateGraph().addEdge(["a"] as never, ["b"] as never),
      "INVALID_ARGUMENT",
      /^StateGraph\.addEdge: a join leads to one node/,
    ],
    [
      "a router that is not a function",
      () => new StateGraph().addConditionalEdges("a" as never, 3 as never, {} as never),
      "INVALID_ARGUMENT",
      /^StateGraph\.addConditionalEdges: the router for "a"/,
    ],
    [
      "a path map that is not an object",
      () => new StateGraph().addConditionalEdges("a" as never, (() => "x") as never, null as never),
      "INVALID_ARGUMENT",
      /got null\.$/,
    ],
    ["options that are not an object", () => new StateGraph(3 as never), "INVALID_OPTION", /^new StateGraph: options must be an object/],
    [
      "stateGraph's options that are not an object",
      () => stateGraph()(3 as never),
      "INVALID_OPTION",
      /^stateGraph: options must be an object/,
    ],
    [
      "a stateGraph reducer that is not a function",
      () => stateGraph()({ reducers: { n: 1 } } as never),
      "INVALID_OPTION",
      /^stateGraph: the reducer for "n" must be a function/,
    ],
    [
      "a stateGraph orderedMerge field without a reducer",
      () => stateGraph()({ orderedMerge: ["n"] } as never),
      "INVALID_OPTION",
      /^stateGraph: orderedMerge lists "n", which has no reducer/,
    ],
    [
      "a reducer that is not a function",
      () => new StateGraph({ reducers: { n: 1 } } as never),
      "INVALID_OPTION",
      /the reducer for "n" must be a function/,
    ],
    ["a field listed twice", () => new StateGraph({ fields: ["n", "n"] } as never), "INVALID_OPTION", /fields lists "n" twice/],
    ["compile(null)", () => linear().compile(null as never), "INVALID_OPTION", /^StateGraph\.compile: options must be an object/],
    [
      "interruptBefore as a string",
      () => linear().compile({ interruptBefore: "a" } as never),
      "INVALID_OPTION",
      /^StateGraph\.compile: interruptBefore must be a list of node names/,
    ],
  ])("%s: InvalidOptionError %s", (_label, attempt, code, message) => {
    const error = thrown(attempt);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ code, name: "InvalidOptionError" });
    expect((error as Error).message).toMatch(message);
  });

  it("quotes at most about 200 characters of a 1 MB node name", () => {
    const name = "n".repeat(1_000_000);
    const error = thrown(() => new StateGraph().addNode(name as never, 1 as never)) as Error;
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain("(1,000,000 characters)");
  });
});

describe("validateTopology and compileGraph on values that are not specs", () => {
  it.each<[string, unknown, string[]]>([
    ["null", null, ["INVALID_SPEC:spec"]],
    ["{}", {}, ["INVALID_SPEC:spec.nodes", "INVALID_SPEC:spec.edges", "INVALID_SPEC:spec.routes"]],
    ["a spec without reducers", { nodes: [], edges: [], routes: [] }, ["INVALID_SPEC:spec.reducers"]],
  ])("validateTopology(%s) lists INVALID_SPEC problems", (_label, value, expected) => {
    expect(validateTopology(value as GraphSpec).map((p) => `${p.code}:${p.node}`)).toEqual(expected);
  });

  it("compileGraph with `edges` missing throws GraphValidationError naming the path", () => {
    const spec = { nodes: ["a"], routes: [], reducers: [] } as unknown as GraphSpec;
    const error = thrown(() => compileGraph({ spec, nodes: { a: () => ({}) }, routers: {}, reducers: {} }));
    expect(error).toBeInstanceOf(GraphValidationError);
    expect(codes(error)).toEqual(["INVALID_SPEC:spec.edges"]);
    expect((error as Error).message).toMatch(/^compileGraph: the graph has 1 problem:/);
  });

  it("compileGraph with a definition that is not one throws InvalidOptionError", () => {
    expect(thrown(() => compileGraph(null as never))).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/^compileGraph: expected \{ spec, nodes, routers, reducers \}/),
    });
    expect(thrown(() => compileGraph({ spec: linear().compile().spec } as never))).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/nodes, routers, reducers are not/),
    });
  });

  it("compileGraph reports a node, router or reducer without a function as MISSING_IMPLEMENTATION", () => {
    const spec: GraphSpec = {
      nodes: ["a"],
      edges: [],
      routes: [
        { from: START, router: "r", paths: { go: "a" } },
        { from: "a", router: "r", paths: { done: END } },
      ],
      reducers: [{ field: "log", reducer: "append" }],
    };
    const error = thrown(() => compileGraph({ spec, nodes: {}, routers: { a: () => "done" }, reducers: {} }));
    expect(codes(error)).toEqual(["MISSING_IMPLEMENTATION:a", "MISSING_IMPLEMENTATION:__start__", "MISSING_IMPLEMENTATION:log"]);
  });

  it("reports two reducers for one field", () => {
    const spec: GraphSpec = {
      nodes: ["a"],
      edges: [
        { from: START, to: "a" },
        { from: "a", to: END },
      ],
      routes: [],
      reducers: [
        { field: "log", reducer: "append" },
        { field: "log", reducer: "union" },
      ],
    };
    expect(validateTopology(spec).map((p) => `${p.code}:${p.node}`)).toEqual(["DUPLICATE_REDUCER:log"]);
  });
});

describe("bindSpec on bad input", () => {
  const spec = {
    nodes: ["a"],
    edges: [
      { from: START, to: "a" },
      { from: "a", to: END },
    ],
    routes: [],
  };

  it.each<[string, unknown, RegExp]>([
    ["null", null, /^bindSpec: implementations must be an object/],
    ["nodes missing", {}, /^bindSpec: implementations\.nodes must be an object/],
    ["routers as a list", { nodes: { a: () => ({}) }, routers: [] }, /^bindSpec: implementations\.routers must be an object/],
  ])("implementations %s: InvalidOptionError INVALID_ARGUMENT", (_label, implementations, message) => {
    const error = thrown(() => bindSpec(spec as unknown, implementations as never));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(message) });
  });

  it("rejects two reducers for one field", () => {
    const twice = {
      ...spec,
      reducers: [
        { field: "log", reducer: "append" },
        { field: "log", reducer: "union" },
      ],
    };
    expect(codes(thrown(() => bindSpec(twice as unknown, { nodes: { a: () => ({}) } })))).toEqual(["DUPLICATE_REDUCER:log"]);
  });

  it("never resolves a node, router or reducer named after an Object.prototype member to the inherited function", () => {
    const named = {
      nodes: ["toString", "constructor"],
      edges: [
        { from: START, to: "toString" },
        { from: "constructor", to: END },
      ],
      routes: [{ from: "toString", paths: { next: "constructor" } }],
      reducers: [{ field: "valueOf", reducer: "custom" }],
    };
    expect(codes(thrown(() => bindSpec(named as unknown, { nodes: {} })))).toEqual([
      "MISSING_IMPLEMENTATION:toString",
      "MISSING_IMPLEMENTATION:constructor",
      "MISSING_IMPLEMENTATION:toString",
      "MISSING_IMPLEMENTATION:valueOf",
    ]);
  });

  it("keeps the message readable with thousands of problems (an undeclared fan-out to 10,000 targets)", () => {
    const targets = Array.from({ length: 10_000 }, (_, i) => `missing_${i}`);
    const wide = { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [], fanOuts: [{ from: "a", to: targets }] };
    const error = thrown(() => bindSpec(wide as unknown, { nodes: { a: () => ({}) } })) as GraphValidationError;
    expect(error.problems.length).toBeGreaterThanOrEqual(10_000);
    expect(error.message.length).toBeLessThan(50_000);
    expect(error.message).toMatch(/… and [\d,]+ more \(error\.problems lists every one\)\.$/);
    expect(error.problems[0]?.message.length).toBeLessThan(600);
  });

  it("refuses subgraphs nested without end (a spec that contains itself)", () => {
    const looped: Record<string, unknown> = { ...spec };
    looped["subgraphs"] = { a: looped };
    const error = thrown(() => bindSpec(looped as unknown, { nodes: { a: () => ({}) } }));
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as GraphValidationError).problems.at(-1)?.message).toMatch(/nests subgraphs more than 64 levels deep/);
  });

  it("refuses subgraphs nested 10,000 deep on every path, with a path cut to a readable length", () => {
    const level = (subgraphs?: unknown) => ({ ...spec, ...(subgraphs === undefined ? {} : { subgraphs: { a: subgraphs } }) });
    let deep: unknown = level();
    for (let depth = 0; depth < 10_000; depth++) deep = level(deep);
    const checks: readonly (readonly [string, () => unknown])[] = [
      ["checkSpecSchema", () => checkSpecSchema(deep)],
      ["validateTopology", () => validateTopology(deep as GraphSpec)],
      ["bindSpec", () => (thrown(() => bindSpec(deep as unknown, { nodes: { a: () => ({}) } })) as GraphValidationError).problems],
      [
        "compileGraph",
        () =>
          (
            thrown(() =>
              compileGraph({ spec: deep as GraphSpec, nodes: { a: () => ({}) }, routers: {}, reducers: {} }),
            ) as GraphValidationError
          ).problems,
      ],
    ];
    for (const [api, check] of checks) {
      const problems = check() as readonly GraphProblem[];
      const deepest = problems.find((p) => p.message.includes("nests subgraphs more than 64 levels deep"));
      expect(deepest, api).toMatchObject({ code: "INVALID_SPEC" });
      expect(deepest?.message.length, api).toBeLessThan(300);
      expect(deepest?.node.length, api).toBeLessThan(200);
      expect(deepest?.node, api).toMatch(/^spec\.subgraphs\.a\..*….*\.subgraphs$/);
    }
  });

  it("turns a spec whose getter throws into an INVALID_SPEC problem", () => {
    const hostile = {
      ...spec,
      get routes(): never {
        throw new Error("no routes for you");
      },
    };
    const error = thrown(() => bindSpec(hostile as unknown, { nodes: { a: () => ({}) } }));
    expect(codes(error)).toEqual(["INVALID_SPEC:spec"]);
    expect((error as Error).message).toContain("no routes for you");
  });
});
