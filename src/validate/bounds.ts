/**
 * The topology rules of loop bounds (`addNode(name, fn, { bound: { max, exit } })`): each names a
 * declared node, once, and its exit is a declared node or END other than the node itself.
 */
import { quote } from "../_describe.js";
import type { GraphProblemCode } from "../errors.js";
import { END, START, type GraphSpec } from "../spec.js";

type Report = (code: GraphProblemCode, node: string, message: string) => void;

/**
 * Reports every bad bound, and returns the pairs (bounded node → exit) of the sound ones: the run can
 * reach the exit through the bound, so reachability and the paths to END count them.
 *
 * @example
 * ```ts
 * boundProblems({ ...spec, bounds: [{ node: "revise", max: 2, exit: "hold" }] }, new Set(spec.nodes), report); // [["revise", "hold"]]
 * ```
 */
export function boundProblems(spec: Pick<GraphSpec, "bounds">, declared: ReadonlySet<string>, report: Report): [string, string][] {
  const pairs: [string, string][] = [];
  const bounded = new Set<string>();
  for (const { node, max, exit } of spec.bounds ?? []) {
    const where = `addNode(${quote(node)}, fn, { bound: { max: ${max}${exit === undefined ? "" : `, exit: ${quote(exit)}`} } })`;
    if (!declared.has(node)) {
      report("UNKNOWN_NODE", node, `${where}: ${quote(node)} is not a declared node. Bound a declared node, or fix the name.`);
      continue;
    }
    if (bounded.has(node)) {
      report("INVALID_BOUND", node, `${where}: ${quote(node)} is bounded twice. Declare one bound per node.`);
      continue;
    }
    bounded.add(node);
    if (exit === undefined) continue;
    if (exit === node || exit === START || (exit !== END && !declared.has(exit))) {
      const why = exit === node ? "is the node itself" : "is not a declared node or END";
      report(
        "INVALID_BOUND",
        node,
        `${where}: the exit ${quote(exit)} ${why}. Name the node (or END) the run goes to once the bound is reached.`,
      );
      continue;
    }
    pairs.push([node, exit]);
  }
  return pairs;
}
