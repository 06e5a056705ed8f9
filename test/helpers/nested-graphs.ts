/**
 * Graphs nested as subgraphs, for the tests of interrupts inside subgraphs: each level is
 * START → `L.a` → (the next level, or the innermost level's interrupting node(s)) → `L.b` → END, on a
 * shared state whose `log` appends. Every node counts its starts in `runs`, so a test can show that a
 * resumed child does not run its completed supersteps again.
 */
import { append, compileGraph, END, interrupt, START, subgraph, type CompiledGraph } from "../../src/index.js";
import type { GraphSpec } from "../../src/spec.js";

export type Nested = { log: string[]; answers: string[] };

export const nestedInput: Nested = { log: [], answers: [] };

/** How the innermost level asks: one node `L.ask`, or two parallel nodes `L.x` and `L.y` (a fan-out and a join). */
export type Asking = "one" | "parallel";

/** A graph of `depth` levels (1: no subgraph), level 1 outermost. */
export function nestedGraph(depth: number, runs: Map<string, number>, asking: Asking = "one"): CompiledGraph<Nested> {
  return nestedLevels(depth, runs, asking)[0] as CompiledGraph<Nested>;
}

/** Each level's compiled graph of {@link nestedGraph}, outermost first: level `L` is `[L - 1]`. */
export function nestedLevels(depth: number, runs: Map<string, number>, asking: Asking = "one"): CompiledGraph<Nested>[] {
  const levels: CompiledGraph<Nested>[] = [];
  for (let level = depth; level >= 1; level--) levels.unshift(levelGraph(level, runs, levels[0], asking));
  return levels;
}

function counted(runs: Map<string, number>, name: string, body: () => Partial<Nested>): () => Partial<Nested> {
  return () => {
    runs.set(name, (runs.get(name) ?? 0) + 1);
    return body();
  };
}

function asking(runs: Map<string, number>, name: string): () => Partial<Nested> {
  return counted(runs, name, () => {
    const answer = interrupt<string>({ question: name });
    return { log: [name], answers: [`${name}=${answer}`] };
  });
}

function levelGraph(
  level: number,
  runs: Map<string, number>,
  inner: CompiledGraph<Nested> | undefined,
  mode: Asking,
): CompiledGraph<Nested> {
  const a = `${level}.a`;
  const b = `${level}.b`;
  const middle = inner !== undefined ? [`${level}.sub`] : mode === "one" ? [`${level}.ask`] : [`${level}.x`, `${level}.y`];
  const nodes: Record<string, unknown> = {
    [a]: counted(runs, a, () => ({ log: [a] })),
    [b]: counted(runs, b, () => ({ log: [b] })),
  };
  for (const name of middle) nodes[name] = inner !== undefined ? subgraph(inner) : asking(runs, name);
  const spec: GraphSpec = {
    nodes: [a, ...middle, b],
    edges: [
      { from: START, to: a },
      ...(middle.length === 1
        ? [
            { from: a, to: middle[0] as string },
            { from: middle[0] as string, to: b },
          ]
        : []),
      { from: b, to: END },
    ],
    ...(middle.length > 1 ? { fanOuts: [{ from: a, to: middle }], joins: [{ from: middle, to: b }] } : {}),
    routes: [],
    reducers: [
      { field: "log", reducer: "append" },
      { field: "answers", reducer: "append" },
    ],
    fields: ["log", "answers"],
  };
  return compileGraph<Nested>({ spec, nodes: nodes as never, routers: {}, reducers: { log: append, answers: append } });
}
