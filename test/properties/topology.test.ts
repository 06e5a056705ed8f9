/**
 * Topology: validation accepts exactly the well-formed specs in which every node is reachable from
 * START and START and every node can reach END, checked against a brute-force transitive closure;
 * every accepted spec passes `assertEveryNodeReachesEnd`, and its coverage plan takes every edge and
 * every route key along START→END paths.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { END, START, validateTopology, type GraphSpec } from "../../src/index.js";
import { arbitraryGraphSpec, assertEveryNodeReachesEnd, PropertyViolation } from "../../src/testing/index.js";
import { coveragePlan } from "../../src/coverage/plan.js";
import { propertyParams } from "./arbitraries.js";

/** Unique non-reserved visible names, known endpoints, one rule per source, non-empty maps with visible keys. */
function isWellFormed(spec: GraphSpec): boolean {
  const names = spec.nodes;
  const declared = new Set(names);
  if (declared.size !== names.length) return false;
  if (names.some((name) => typeof name !== "string" || name.trim() === "" || name === START || name === END)) return false;
  const rules = [...spec.edges.map((e) => e.from), ...spec.routes.map((r) => r.from)];
  if (new Set(rules).size !== rules.length) return false;
  const isSource = (name: string) => name === START || declared.has(name);
  const isTarget = (name: string) => name === END || declared.has(name);
  if (!spec.edges.every((e) => isSource(e.from) && isTarget(e.to))) return false;
  return spec.routes.every((route) => {
    const paths = Object.entries(route.paths);
    return isSource(route.from) && paths.length > 0 && paths.every(([key, to]) => key.trim() !== "" && isTarget(to));
  });
}

/** Warshall's algorithm over START, the nodes and END: reach[i][j] when a path leads from i to j. */
function transitiveClosure(spec: GraphSpec): { vertices: string[]; reaches: (from: string, to: string) => boolean } {
  const vertices = [START, ...spec.nodes, END];
  const index = (name: string) => vertices.indexOf(name);
  const reach = vertices.map((_, i) => vertices.map((__, j) => i === j));
  const link = (from: string, to: string) => {
    const row = reach[index(from)];
    if (row) row[index(to)] = true;
  };
  for (const edge of spec.edges) link(edge.from, edge.to);
  for (const route of spec.routes) for (const to of Object.values(route.paths)) link(route.from, to);
  for (let k = 0; k < vertices.length; k++) {
    for (let i = 0; i < vertices.length; i++) {
      for (let j = 0; j < vertices.length; j++) {
        if (reach[i]?.[k] && reach[k]?.[j]) (reach[i] as boolean[])[j] = true;
      }
    }
  }
  return { vertices, reaches: (from, to) => reach[index(from)]?.[index(to)] === true };
}

function everyNodeOnAPathFromStartToEnd(spec: GraphSpec): boolean {
  const { reaches } = transitiveClosure(spec);
  return [START, ...spec.nodes].every((node) => reaches(START, node) && reaches(node, END));
}

describe("topology", () => {
  test.prop([arbitraryGraphSpec({ kind: "well-formed" })], propertyParams(300))(
    "a well-formed spec is accepted exactly when every node lies on a path from START to END",
    (spec) => {
      const problems = validateTopology(spec);
      expect(problems.length === 0, JSON.stringify(problems.map((p) => p.code))).toBe(everyNodeOnAPathFromStartToEnd(spec));
    },
  );

  test.prop([arbitraryGraphSpec({ kind: "any" })], propertyParams(300))(
    "any spec, malformed ones included, is accepted exactly when it is well-formed and every node lies on a path from START to END",
    (spec) => {
      const accepted = validateTopology(spec).length === 0;
      expect(accepted).toBe(isWellFormed(spec) && everyNodeOnAPathFromStartToEnd(spec));
    },
  );

  test.prop([arbitraryGraphSpec({ kind: "any" })], propertyParams(200))("in every accepted spec every node reaches END", (spec) => {
    fc.pre(validateTopology(spec).length === 0);
    assertEveryNodeReachesEnd(spec);
  });

  test.prop([arbitraryGraphSpec({ kind: "valid", maxNodes: 8 })], propertyParams(200))(
    'arbitraryGraphSpec({ kind: "valid" }) generates only specs validation accepts',
    (spec) => {
      expect(validateTopology(spec)).toEqual([]);
    },
  );

  test.prop([arbitraryGraphSpec({ kind: "valid", maxNodes: 8 })], propertyParams(200))(
    "the coverage plan takes every fixed edge and every route key, on paths from START to END",
    (spec) => {
      const plan = coveragePlan({ spec });
      // The spec's transitions, read here from the spec itself: "from\0to" for edges, "from\0key\0to" for route keys.
      const expected = new Set([
        ...spec.edges.map((e) => `${e.from}\0${e.to}`),
        ...spec.routes.flatMap((r) => Object.entries(r.paths).map(([key, to]) => `${r.from}\0${key}\0${to}`)),
      ]);
      const taken = new Set<string>();
      for (const path of plan.paths) {
        const steps = path.transitions;
        expect(steps[0]?.from, path.name).toBe(START);
        expect(steps.at(-1)?.to, path.name).toBe(END);
        steps.forEach((t, i) => {
          if (i > 0) expect(t.from, `${path.name}: transition ${i} starts where the previous one ended`).toBe(steps[i - 1]?.to);
          const id = t.kind === "route" ? `${t.from}\0${t.key}\0${t.to}` : `${t.from}\0${t.to}`;
          expect(expected.has(id), `${path.name} takes ${t.label}, which the spec does not have`).toBe(true);
          taken.add(id);
        });
        expect(path.trace).toEqual(steps.slice(1).map((t) => t.from));
      }
      expect([...expected].filter((id) => !taken.has(id))).toEqual([]);
      expect(plan.covered).toBe(plan.total);
    },
  );

  it("the generated specs include accepted, rejected, malformed, cyclic and dead-end graphs", () => {
    const specs = fc.sample(arbitraryGraphSpec(), { numRuns: 500, seed: 7 });
    const count = (predicate: (spec: GraphSpec) => boolean) => specs.filter(predicate).length;
    const hasCycle = (spec: GraphSpec) => {
      const { reaches } = transitiveClosure(spec);
      return spec.nodes.some((node) =>
        [...spec.edges, ...spec.routes.flatMap((r) => Object.values(r.paths).map((to) => ({ from: r.from, to })))].some(
          (e) => e.to === node && reaches(node, e.from),
        ),
      );
    };
    const hasDeadEnd = (spec: GraphSpec) => spec.nodes.some((node) => ![...spec.edges, ...spec.routes].some((rule) => rule.from === node));
    expect(count((s) => validateTopology(s).length === 0)).toBeGreaterThan(50);
    expect(count((s) => isWellFormed(s) && validateTopology(s).length > 0)).toBeGreaterThan(50);
    expect(count((s) => !isWellFormed(s))).toBeGreaterThan(50);
    expect(count((s) => validateTopology(s).length === 0 && hasCycle(s))).toBeGreaterThan(20);
    expect(count((s) => isWellFormed(s) && hasDeadEnd(s))).toBeGreaterThan(20);
    expect(count((s) => validateTopology(s).some((p) => p.code === "UNREACHABLE_NODE"))).toBeGreaterThan(20);
  });

  it("assertEveryNodeReachesEnd names the sources with no path to END", () => {
    const spec: GraphSpec = {
      nodes: ["loop", "other"],
      edges: [
        { from: START, to: "loop" },
        { from: "loop", to: "other" },
        { from: "other", to: "loop" },
      ],
      routes: [],
      reducers: [],
    };
    expect(() => assertEveryNodeReachesEnd(spec)).toThrow(
      'assertEveryNodeReachesEnd: 3 of 3 sources (START and the nodes) have no path to END: START, "loop", "other". ' +
        "Give each an edge or a route key that leads toward END.",
    );
    expect(() => assertEveryNodeReachesEnd({ spec: { ...spec, routes: [], edges: [{ from: START, to: END }] } })).toThrow(/2 of 3 sources/);
    expect(() => assertEveryNodeReachesEnd(spec)).toThrow(expect.objectContaining({ name: "PropertyViolation", code: "END_UNREACHABLE" }));
    expect(() => assertEveryNodeReachesEnd(spec)).toThrow(PropertyViolation);
  });
});
