/**
 * A compiled graph's spec, saved as JSON and bound again to the same implementations, gives an
 * equivalent graph: the same traces, results and errors (issue 11's round trip).
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { append, bindSpec, compileGraph, GraphExecutionError, type CompiledGraph, type GraphSpec } from "../../src/index.js";
import { arbitraryGraphSpec } from "../../src/testing/index.js";

interface Counter {
  n: number;
  log: string[];
}

const runs = Math.min(Number(process.env.PROPERTY_RUNS ?? 60), 500);

/** Deterministic implementations for any spec: each node counts and logs; each router picks by the count. */
function implementationsOf(spec: GraphSpec) {
  const nodes = Object.fromEntries(spec.nodes.map((name, index) => [name, (s: Counter) => ({ n: s.n + index + 1, log: [name] })]));
  const routers = Object.fromEntries(
    spec.routes.map((route) => {
      const keys = Object.keys(route.paths);
      return [route.from, (s: Counter) => keys[s.n % keys.length]];
    }),
  );
  return { nodes, routers, reducers: { log: append } };
}

async function outcome(graph: CompiledGraph<Counter>, input: Counter) {
  try {
    const { state, trace, routes } = await graph.invoke(input, { maxSteps: 12 });
    return { state, trace, routes };
  } catch (error) {
    if (!(error instanceof GraphExecutionError)) throw error;
    return { code: error.code, node: error.node, state: error.state, trace: error.trace };
  }
}

test.prop([arbitraryGraphSpec({ kind: "valid", maxNodes: 6 }), fc.integer({ min: 0, max: 20 })], { numRuns: runs })(
  "bindSpec(JSON of compiled.spec) runs exactly like the compiled graph",
  async (generated, n) => {
    const spec: GraphSpec = { ...generated, reducers: [{ field: "log", reducer: "append" }] };
    const implementations = implementationsOf(spec);
    const original = compileGraph<Counter>({ spec, ...implementations });
    const saved = JSON.parse(JSON.stringify(original.spec)) as unknown;
    const bound = bindSpec(saved, implementations) as unknown as CompiledGraph<Counter>;
    expect(bound.spec).toEqual(original.spec);
    const input = { n, log: [] };
    expect(await outcome(bound, input)).toEqual(await outcome(original, input));
  },
);
