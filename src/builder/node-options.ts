/** The declarative forms' way to `addNode`'s third argument. */
import type { NodeOptions, NodePolicy } from "../engine/index.js";

/** `addNode`'s options for a declared node: its policy, and the ends it declares (where its Command may go). */
export function nodeOptions(policy: NodePolicy<never> | undefined, ends: readonly string[] | undefined): NodeOptions<never> | undefined {
  return ends === undefined ? policy : { ...policy, ends };
}
