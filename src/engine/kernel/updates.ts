/**
 * The kernel's rule for an edit between supersteps (`updateState`, a DBOS resume with an update):
 * which node the update counts as, and whether counting it so computes that node's routes again.
 */

/** What {@link updateSource} decided. */
export type UpdateSource =
  | { readonly kind: "node"; readonly node: string }
  /** Nothing ran yet (and no `asNode`): the pending work stays as it is. */
  | { readonly kind: "none" }
  /** The last superstep ran several nodes: which one the update comes from is ambiguous (`AMBIGUOUS_UPDATE`). */
  | { readonly kind: "ambiguous"; readonly nodes: readonly string[] };

/**
 * Which node an update counts as: `asNode` when given; else the node the last superstep ran (START for
 * a run's input); several are ambiguous.
 *
 * @example
 * ```ts
 * updateSource(undefined, ["review"]); // { kind: "node", node: "review" }
 * updateSource(undefined, ["a", "b"]); // { kind: "ambiguous", nodes: ["a", "b"] }
 * ```
 */
export function updateSource(asNode: string | undefined, last: readonly string[]): UpdateSource {
  if (asNode !== undefined) return { kind: "node", node: asNode };
  const nodes = [...new Set(last)];
  if (nodes.length > 1) return { kind: "ambiguous", nodes };
  const [node] = nodes;
  return node === undefined ? { kind: "none" } : { kind: "node", node };
}

/**
 * Whether an update counted as `node` replaces the routes `node` took in the last superstep (it was the
 * only node that ran: its router reads the updated state instead), rather than adding its successors
 * to the pending work.
 *
 * @example
 * ```ts
 * reroutes(["review"], "review"); // true
 * reroutes(["draft"], "review"); // false
 * ```
 */
export function reroutes(last: readonly string[], node: string): boolean {
  const nodes = new Set(last);
  return nodes.size === 1 && nodes.has(node);
}
