/**
 * The loop rule at run time: every cycle of a graph crosses a bounded node (`{ bound: { max } }`), which
 * is "the graph minus its bounded nodes is acyclic". The cycles that break it are the strongly connected
 * parts of that rest (a node with an edge to itself included), found by Tarjan's algorithm, written as a
 * loop so a graph of 100k nodes does not exhaust the stack. The type-level mirror is builder/loops.ts.
 */
import { END, START, transitionPairs, type GraphSpec } from "../spec.js";

/** A cycle that crosses no bounded node: its nodes in declaration order, a subgraph's prefixed `parent/`. */
export interface UnboundedCycle {
  readonly nodes: readonly string[];
}

/**
 * Every cycle of `spec` (and of its subgraphs) that crosses no bounded node, in declaration order of
 * its first node. Edges are every rule's (edges, fan-outs, joins, routes, `Command` ends), plus, for a
 * bound with an exit, its node's predecessors to the exit (where the run goes instead of the node), or to
 * the first unbounded node of a chain of exits.
 *
 * @example
 * ```ts
 * unboundedCycles(reportGraph.spec); // [{ nodes: ["check_draft", "revise_draft"] }] until revise_draft is bounded
 * ```
 */
export function unboundedCycles(spec: GraphSpec, prefix = ""): UnboundedCycle[] {
  const bounded = new Map((spec.bounds ?? []).map((bound) => [bound.node, bound.exit] as const));
  const successors = new Map<string, string[]>(spec.nodes.map((node) => [node, []]));
  const pairs = transitionPairs(spec).filter(({ from, to }) => from !== START && to !== END);
  for (const { from, to } of pairs) {
    const landing = bounded.has(to) ? landingOf(to, bounded) : undefined;
    if (landing !== undefined && !bounded.has(from)) successors.get(from)?.push(landing);
    if (!bounded.has(from) && !bounded.has(to)) successors.get(from)?.push(to);
  }
  const cycles: UnboundedCycle[] = stronglyConnected(spec.nodes, successors)
    .filter((part) => part.length > 1 || (successors.get(part[0] as string) ?? []).includes(part[0] as string))
    .map((part) => ({ nodes: part.map((node) => `${prefix}${node}`) }));
  for (const [node, child] of Object.entries(spec.subgraphs ?? {})) cycles.push(...unboundedCycles(child, `${prefix}${node}/`));
  return cycles;
}

/**
 * Where a run lands when it is sent to the bounded node `node` after that node ran its `max` times:
 * its exit, or, when the exit is bounded too and may be spent as well, that exit's exit, and so on
 * (an exit of an exit: `x → b`, `b` exits to `c`, `c` exits to `x` loops through `x` alone). The first
 * unbounded node of the chain; `undefined` when the chain ends at END, at a bound without an exit
 * (LOOP_BOUND stops the run) or back at a node of the chain.
 */
function landingOf(node: string, bounded: ReadonlyMap<string, string | undefined>): string | undefined {
  const seen = new Set<string>();
  let at: string | undefined = node;
  while (at !== undefined && at !== END && bounded.has(at)) {
    if (seen.has(at)) return undefined;
    seen.add(at);
    at = bounded.get(at);
  }
  return at === END ? undefined : at;
}

/** The strongly connected parts of the graph, each in declaration order, the parts ordered by their first node. */
function stronglyConnected(nodes: readonly string[], successors: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map(nodes.map((node, index) => [node, index]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const parts: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    // Each frame: a node and the position of the next successor to visit.
    const frames: [string, number][] = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as [string, number];
      const [node, next] = frame;
      const targets = successors.get(node) ?? [];
      if (next < targets.length) {
        frame[1] = next + 1;
        const to = targets[next] as string;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          frames.push([to, 0]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(node) as number));
      if (low.get(node) !== index.get(node)) continue;
      const part: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        part.push(member);
        if (member === node) break;
      }
      parts.push(part.sort((a, b) => (order.get(a) as number) - (order.get(b) as number)));
    }
  }
  return parts.sort((a, b) => (order.get(a[0] as string) as number) - (order.get(b[0] as string) as number));
}

/**
 * What an unbounded cycle's warning or problem says: the nodes, why it matters and the fix.
 *
 * @example
 * ```ts
 * unboundedCycleMessage({ nodes: ["check", "revise"] }); // 'the cycle through "check", "revise" crosses no bounded node…'
 * ```
 */
export function unboundedCycleMessage(cycle: UnboundedCycle): string {
  const nodes = cycle.nodes.map((node) => `"${node}"`).join(", ");
  const through = cycle.nodes.length === 1 ? `the node ${nodes} routes to itself` : `the cycle through ${nodes}`;
  return (
    `${through} crosses no bounded node, so only recursionLimit stops it. ` +
    `Bound one of its nodes: addNode(name, fn, { bound: { max, exit } }) (the exit ends the loop where you choose).`
  );
}
