/**
 * Whatever a caller passes, every public entry point either succeeds or throws (rejects with) a coded
 * library error: a GraphError with a string code and a message that starts with the API's name. Never
 * a raw TypeError, RangeError, SyntaxError or DataCloneError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GRAPH_PROBLEM_CODES } from "../../src/errors.js";
import {
  append,
  bindSpec,
  checkSpecSchema,
  compileGraph,
  defineGraph,
  END,
  GraphError,
  route,
  START,
  StateGraph,
  sum,
  validateTopology,
} from "../../src/index.js";
// Internals of the engine, no longer public, still held to the same rule.
import { cloneState, mergeUpdate } from "../../src/engine/index.js";

const keys = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    "__proto__",
    "toString",
    "constructor",
    "valueOf",
    "nodes",
    "edges",
    "routes",
    "from",
    "to",
    "paths",
    "reducers",
    "fields",
    "n",
    "log",
  ),
);

/** Anything a JavaScript caller (or JSON.parse) can hand over, including the awkward values. */
const anything = fc.anything({
  key: keys,
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
});

const name = fc.oneof(fc.constantFrom("a", "b", START, END, "", "toString"), fc.string({ maxLength: 4 }), anything);
/** Values shaped roughly like specs, so validation is exercised past its first check. */
const specLike = fc.record(
  {
    nodes: fc.oneof(fc.array(name, { maxLength: 4 }), anything),
    edges: fc.oneof(fc.array(fc.record({ from: name, to: name }, { requiredKeys: [] }), { maxLength: 4 }), anything),
    routes: fc.oneof(
      fc.array(
        fc.record({ from: name, paths: fc.dictionary(keys, name, { maxKeys: 3 }), sends: anything }, { requiredKeys: ["from", "paths"] }),
        { maxLength: 2 },
      ),
      anything,
    ),
    fanOuts: fc.array(fc.record({ from: name, to: fc.array(name, { maxLength: 3 }) }), { maxLength: 2 }),
    joins: fc.array(fc.record({ from: fc.array(name, { maxLength: 3 }), to: name }), { maxLength: 2 }),
    reducers: fc.array(fc.record({ field: name, reducer: fc.oneof(fc.constantFrom("append", "sum", "custom"), anything) }), {
      maxLength: 2,
    }),
    fields: fc.oneof(fc.array(name, { maxLength: 3 }), anything),
    subgraphs: anything,
  },
  { requiredKeys: [] },
);
const specOrAnything = fc.oneof(specLike, anything);

/** Runs `attempt` and says what came out: success, a coded library error, or the escaped value itself. */
async function outcome(attempt: () => unknown): Promise<"ok" | "coded" | unknown> {
  try {
    await attempt();
    return "ok";
  } catch (error) {
    if (error instanceof GraphError && typeof error.code === "string" && error.code !== "" && typeof error.message === "string")
      return "coded";
    return error;
  }
}

const expectCoded = async (attempt: () => unknown) => {
  const result = await outcome(attempt);
  if (result !== "ok" && result !== "coded") throw new Error(`escaped: ${String(result instanceof Error ? result.stack : result)}`);
};

const node = () => ({});
const valid = {
  nodes: ["a"],
  edges: [
    { from: START, to: "a" },
    { from: "a", to: END },
  ],
  routes: [],
};

describe("every bad input is a coded library error", () => {
  it("validateTopology and checkSpecSchema return problems with known codes, and never throw", () => {
    fc.assert(
      fc.property(specOrAnything, (spec) => {
        for (const problems of [validateTopology(spec as never), checkSpecSchema(spec)]) {
          for (const problem of problems) expect(GRAPH_PROBLEM_CODES).toContain(problem.code);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("bindSpec, whatever the spec and the implementations", async () => {
    const implementations = fc.oneof(
      fc.constant({ nodes: { a: node, b: node } }),
      fc.record({ nodes: fc.oneof(fc.constant({ a: node }), anything), routers: anything }, { requiredKeys: [] }),
      anything,
    );
    await fc.assert(
      fc.asyncProperty(specOrAnything, implementations, async (spec, impl) => expectCoded(() => bindSpec(spec, impl as never))),
      { numRuns: 400 },
    );
  });

  it("the builder, whatever its calls receive", async () => {
    const call = fc.oneof(
      fc.tuple(fc.constant("addNode" as const), name, fc.oneof(fc.constant(node), anything)),
      fc.tuple(
        fc.constant("addEdge" as const),
        fc.oneof(name, fc.array(name, { maxLength: 2 })),
        fc.oneof(name, fc.array(name, { maxLength: 2 })),
      ),
      fc.tuple(
        fc.constant("addConditionalEdges" as const),
        name,
        fc.oneof(
          fc.constant(() => "a"),
          anything,
        ),
        anything,
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant({}), fc.constant({ reducers: { n: sum } }), anything),
        fc.array(call, { maxLength: 5 }),
        fc.oneof(fc.constant({}), anything),
        async (options, calls, compileOptions) =>
          expectCoded(() => {
            let builder = new StateGraph(options as never) as unknown as Record<string, (...args: unknown[]) => unknown>;
            for (const [method, ...args] of calls) builder = builder[method]?.(...args) as typeof builder;
            (builder["compile"] as (o: unknown) => unknown)(compileOptions);
          }),
      ),
      { numRuns: 300 },
    );
  });

  it("compileGraph, defineGraph and route", async () => {
    await fc.assert(
      fc.asyncProperty(specOrAnything, anything, anything, async (spec, options, other) => {
        await expectCoded(() => compileGraph({ spec, nodes: { a: node }, routers: {}, reducers: {} } as never, options as never));
        await expectCoded(() => compileGraph(other as never));
        await expectCoded(() => defineGraph()(other as never));
        await expectCoded(() => route(other as never, options as never));
      }),
      { numRuns: 300 },
    );
  });

  it("cloneState and mergeUpdate, whatever the values", async () => {
    await fc.assert(
      fc.asyncProperty(
        anything,
        fc.dictionary(keys, anything, { maxKeys: 3 }),
        fc.dictionary(keys, anything, { maxKeys: 3 }),
        async (value, state, update) => {
          await expectCoded(() => cloneState(value));
          await expectCoded(() =>
            mergeUpdate(
              state,
              update,
              new Map([
                ["n", sum as never],
                ["log", append as never],
              ]),
            ),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("invoke, whatever the input, the node's update and the router's key", async () => {
    await fc.assert(
      fc.asyncProperty(anything, anything, anything, async (input, update, key) => {
        const graph = bindSpec(
          {
            ...valid,
            nodes: ["a", "b"],
            edges: [
              { from: START, to: "a" },
              { from: "b", to: END },
            ],
            routes: [{ from: "a", paths: { go: "b", done: END } }],
            reducers: [{ field: "log", reducer: "append" }],
          } as unknown,
          {
            nodes: { a: () => update, b: node },
            routers: { a: () => key },
          },
        );
        await expectCoded(() => graph.invoke(input as never));
        await expectCoded(() => graph.invoke({ log: [] }));
        // A key the path map lacks (a BigInt, an object, a Symbol…) is UNKNOWN_ROUTE_KEY, whatever it is.
        const routed = bindSpec(
          { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", paths: { done: END } }] } as unknown,
          { nodes: { a: node }, routers: { a: () => key } },
        );
        const expected =
          key === "done" || (Array.isArray(key) && Array.from(key as unknown[]).every((k) => k === "done")) ? "ok" : "UNKNOWN_ROUTE_KEY";
        const error = await routed.invoke({}).then(
          () => "ok",
          (e: unknown) => (e as GraphError).code,
        );
        expect(error).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("a node or router that throws a value that is not an Error", async () => {
    const throwing = fc.oneof(
      anything,
      fc.constant(Object.create(null)),
      fc.constant({
        toString: () => {
          throw new Error("no");
        },
      }),
    );
    await fc.assert(
      fc.asyncProperty(throwing, fc.boolean(), async (thrown, inRouter) => {
        const fail = () => {
          throw thrown;
        };
        const graph = bindSpec(
          { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", paths: { done: END } }] } as unknown,
          {
            nodes: { a: inRouter ? node : fail },
            routers: { a: inRouter ? fail : () => "done" },
          },
        );
        const error = await graph.invoke({}).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(GraphError);
        expect(error).toMatchObject({ code: inRouter ? "ROUTER_FAILED" : "NODE_FAILED", cause: thrown });
      }),
      { numRuns: 200 },
    );
  });
});
