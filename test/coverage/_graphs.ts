/** Graphs and checks the coverage tests share. */
import { fc } from "@fast-check/vitest";
import type { CoveragePath } from "../../src/coverage/index.js";
import { compileGraph, END, START, type CompiledGraph, type GraphSpec } from "../../src/index.js";

/** A spec of nodes n0…n(k-1): each node has an exit toward the next (so it reaches END), plus extras. */
export function sequentialSpec(
  nodeCount: number,
  choose: (options: { node: number; extras: number }) => { fixed: boolean; targets: number[] },
): GraphSpec {
  const nodes = Array.from({ length: nodeCount }, (_, i) => `n${i}`);
  const name = (index: number): string => (index >= nodeCount ? END : (nodes[index] as string));
  const edges = [{ from: START, to: "n0" }];
  const routes: { from: string; router: string; paths: Record<string, string> }[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const { fixed, targets } = choose({ node: i, extras: 2 });
    if (fixed) edges.push({ from: name(i), to: name(i + 1) });
    else
      routes.push({
        from: name(i),
        router: "router",
        paths: Object.fromEntries([["on", name(i + 1)], ...targets.map((t, k) => [`k${k}`, name(t)])]),
      });
  }
  return { nodes, edges, routes, reducers: [] };
}

/** Compiles a spec with nodes that change nothing and routers that always go on. */
export function compileSpec(spec: GraphSpec): CompiledGraph {
  return compileGraph({
    spec,
    nodes: Object.fromEntries(spec.nodes.map((node) => [node, () => undefined])),
    routers: Object.fromEntries(spec.routes.map((route) => [route.from, () => "on"])),
    reducers: {},
  });
}

/** Small random sequential specs: self-loops, back-edges, several keys to one node, exits to END. */
export const smallSpec = fc.integer({ min: 1, max: 7 }).chain((nodeCount) =>
  fc
    .array(fc.record({ fixed: fc.boolean(), targets: fc.array(fc.integer({ min: 0, max: nodeCount }), { maxLength: 3 }) }), {
      minLength: nodeCount,
      maxLength: nodeCount,
    })
    .map((rules) => sequentialSpec(nodeCount, ({ node }) => rules[node] as { fixed: boolean; targets: number[] })),
);

/** A random graph of `nodeCount` nodes with about two exits each, from a seed. */
export function bigSpec(nodeCount: number, seed: number): GraphSpec {
  let state = seed;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return sequentialSpec(nodeCount, () =>
    random() < 0.3
      ? { fixed: true, targets: [] }
      : { fixed: false, targets: Array.from({ length: 1 + Math.floor(random() * 2) }, () => Math.floor(random() * (nodeCount + 1))) },
  );
}

/** Whether a path follows the spec from START to END, its trace and routes agreeing with its transitions. */
export function isWalkOf(spec: GraphSpec, path: CoveragePath): boolean {
  let at: string = START;
  for (const t of path.transitions) {
    if (t.from !== at) return false;
    const declared =
      t.kind === "edge"
        ? spec.edges.some((e) => e.from === t.from && e.to === t.to)
        : t.kind === "goto"
          ? (spec.ends ?? []).some((e) => e.from === t.from && e.to.includes(t.to))
          : spec.routes.some((r) => r.from === t.from && r.paths[t.key] === t.to);
    if (!declared) return false;
    at = t.to;
  }
  const trace = path.transitions.slice(1).map((t) => t.from);
  const keys = path.transitions.flatMap((t) => (t.kind === "route" ? [`${t.from}:${t.key}`] : []));
  return (
    at === END && trace.join("|") === path.trace.join("|") && keys.join("|") === path.routes.map((r) => `${r.from}:${r.key}`).join("|")
  );
}
