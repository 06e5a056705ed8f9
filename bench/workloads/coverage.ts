/**
 * Coverage plans on random valid graphs: how long `coveragePlan` takes to find START→END paths that
 * take every transition, for N = 100 and 1000 nodes. The graphs come from a seeded generator, so every
 * run of the benchmark plans the same graphs.
 */
import { coveragePlan, transitionsOf } from "../../src/coverage/index.js";
import { compileGraph, END, START, type CompiledGraph, type GraphSpec, type RouteSpec } from "../../src/index.js";
import { verify, type VerifiedWorkload } from "../_workload.js";

/** The contender name for a graph of `n` nodes. */
export const coverageName = (n: number): string => `coveragePlan (linear), N=${n}`;

/**
 * A random valid graph of `n` nodes: each node keeps an exit to the next one (the last to END), so all
 * nodes are reachable and reach END; about half of them route instead, with 1–2 extra keys leading
 * anywhere (back-edges, self-loops, jumps, END).
 */
export function randomGraph(n: number, seed: number): CompiledGraph {
  const random = mulberry32(seed);
  const names = Array.from({ length: n }, (_, k) => `n${k}`);
  const anyTarget = (): string => names[Math.floor(random() * (n + 1))] ?? END;
  const edges = [{ from: START, to: names[0] ?? END }];
  const routes: RouteSpec[] = [];
  names.forEach((from, k) => {
    const next = names[k + 1] ?? END;
    if (random() < 0.5) {
      edges.push({ from, to: next });
      return;
    }
    const paths: Record<string, string> = { next };
    const extra = 1 + Math.floor(random() * 2);
    for (let key = 0; key < extra; key++) paths[`k${key}`] = anyTarget();
    routes.push({ from, router: "router", paths });
  });
  const spec: GraphSpec = { nodes: names, edges, routes, reducers: [] };
  const nothing = () => undefined;
  const routers = Object.fromEntries(routes.map((r) => [r.from, () => "next"]));
  return compileGraph({ spec, nodes: Object.fromEntries(names.map((name) => [name, nothing])), routers, reducers: {} });
}

/** One contender per size; the smallest size is the baseline, so the ratios show how the plan scales. */
export async function coverageWorkload(sizes: readonly number[]): Promise<VerifiedWorkload> {
  const contenders = [];
  const skipped = [];
  for (const n of sizes) {
    const graph = randomGraph(n, 9 + n);
    const total = transitionsOf(graph).length;
    const verified = await verify({ covered: total, total }, [
      {
        name: coverageName(n),
        steps: total,
        run: async () => {
          const { covered, total: all } = coveragePlan(graph);
          return { covered, total: all };
        },
      },
    ]);
    contenders.push(...verified.contenders);
    skipped.push(...verified.skipped);
  }
  const title = `coverage plan on random graphs (N = ${sizes.join(", ")}; per step = per transition)`;
  return { title, baseline: coverageName(Math.min(...sizes)), contenders, skipped };
}

/** A small seeded PRNG (public domain), so the graphs are the same on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
