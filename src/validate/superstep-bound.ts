/**
 * The most supersteps a run of a graph can take, when every cycle crosses a bounded node: the default
 * `recursionLimit` is computed from it (engine/kernel/recursion-limit.ts), `tsg check` prints it.
 *
 * Why it holds: every task of a superstep after the first comes from a node of the superstep before it
 * (an edge, a route key or a Send, a `Command` goto among the node's `ends`, a join whose last source
 * just ran, or the exit of a bound that refused a node). So a run of K supersteps has a chain of K
 * nodes, each a successor of the one before. A bounded node runs at most `max` times per run, so it
 * stands at most `max` times in the chain; between two of its bounded nodes the chain crosses the rest
 * of the graph, which is acyclic (that is what "every cycle crosses a bounded node" means), so at most
 * its longest path. Node executions are not bounded this way: a superstep can run any number of Sends.
 */
import { END, START, transitionPairs, type GraphSpec } from "../spec.js";

/**
 * The most supersteps any run of `spec` can take, or `undefined` when a cycle crosses no bounded node
 * (then only `recursionLimit` stops a run), counting as crossed only a bounded node the run cannot
 * skip through its exits. A subgraph runs inside one superstep of its parent, so its
 * own cycles do not count here (its runs have their own bound). Capped at `Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * ```ts
 * // START → draft → check ⇄ revise (revise bounded: { max: 2, exit: "hold" }), check → END, hold → END
 * superstepBound(graph.spec); // 9, an upper bound: the longest run takes 7 (draft, check, revise, check, revise, check, hold)
 * ```
 */
export function superstepBound(spec: GraphSpec): number | undefined {
  const bounds = new Map((spec.bounds ?? []).map((bound) => [bound.node, bound] as const));
  const successors = successorsWithExits(spec);
  // The longest path through the unbounded nodes from each of them: none when they form a cycle.
  const rest = spec.nodes.filter((node) => !bounds.has(node));
  const longest = longestPaths(rest, (node) => (successors.get(node) ?? []).filter((to) => !bounds.has(to)));
  if (longest === undefined) return undefined;
  const longestFrom = (froms: readonly string[]): number => Math.max(0, ...froms.map((node) => longest.get(node) ?? 0));

  const entries = successors.get(START) ?? [];
  let total = longestFrom(entries);
  for (const node of reachable(entries, successors)) {
    const bound = bounds.get(node);
    if (bound === undefined) continue;
    // Each visit of a bounded node: the node itself, then at most the longest path of the rest after it.
    total += bound.max * (1 + longestFrom(successors.get(node) ?? []));
  }
  return Math.min(total, Number.MAX_SAFE_INTEGER);
}

/**
 * Each source's possible next nodes (END left out): its rule's destinations, its `Command` ends, and,
 * for a destination with a bound that has an exit, that exit, and the exit's exit when it is bounded
 * too (where the run goes once the bounds are reached: the kernel may redirect a task more than once).
 */
function successorsWithExits(spec: GraphSpec): Map<string, string[]> {
  const exits = new Map((spec.bounds ?? []).flatMap((bound) => (bound.exit === undefined ? [] : [[bound.node, bound.exit] as const])));
  const successors = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    if (to === END) return;
    const list = successors.get(from);
    if (list === undefined) successors.set(from, [to]);
    else if (!list.includes(to)) list.push(to);
  };
  for (const { from, to } of transitionPairs(spec)) {
    const chain = new Set<string>();
    for (let next: string | undefined = to; next !== undefined && !chain.has(next); next = exits.get(next)) {
      chain.add(next);
      add(from, next);
    }
  }
  return successors;
}

/**
 * The length in nodes of the longest path starting at each node (Kahn's order, no recursion), or
 * `undefined` when the nodes form a cycle.
 */
function longestPaths(nodes: readonly string[], next: (node: string) => readonly string[]): Map<string, number> | undefined {
  const inside = new Set(nodes);
  const predecessors = new Map<string, string[]>(nodes.map((node) => [node, []]));
  const outDegree = new Map<string, number>();
  for (const node of nodes) {
    const targets = next(node).filter((to) => inside.has(to));
    outDegree.set(node, targets.length);
    for (const to of targets) predecessors.get(to)?.push(node);
  }
  // From the sinks backwards: a node's length is known once all its successors' are.
  const longest = new Map<string, number>();
  const ready = nodes.filter((node) => outDegree.get(node) === 0);
  for (const node of ready) longest.set(node, 1);
  for (let index = 0; index < ready.length; index += 1) {
    const node = ready[index] as string;
    const length = longest.get(node) as number;
    for (const from of predecessors.get(node) ?? []) {
      longest.set(from, Math.max(longest.get(from) ?? 1, length + 1));
      const left = (outDegree.get(from) as number) - 1;
      outDegree.set(from, left);
      if (left === 0) ready.push(from);
    }
  }
  return ready.length === nodes.length ? longest : undefined;
}

/** The nodes reachable from `entries`, the entries included. */
function reachable(entries: readonly string[], successors: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set(entries);
  const queue = [...entries];
  for (let index = 0; index < queue.length; index += 1) {
    for (const to of successors.get(queue[index] as string) ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}
