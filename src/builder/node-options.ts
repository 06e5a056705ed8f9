/** The declarative forms' way to `addNode`'s third argument. */
import type { LoopBound, NodeOptions, NodePolicy } from "../engine/index.js";

/** `addNode`'s options for a declared node: its policy, the ends it declares (where its Command may go), its loop bound and whether it is deferred. */
export function nodeOptions(
  policy: NodePolicy<never> | undefined,
  ends: readonly string[] | undefined,
  bound?: LoopBound | undefined,
  defer = false,
): NodeOptions<never> | undefined {
  if (ends === undefined && bound === undefined && !defer) return policy;
  return { ...policy, ...(ends === undefined ? {} : { ends }), ...(bound === undefined ? {} : { bound }), ...(defer ? { defer } : {}) };
}
