/** The error raised when a graph cannot be exported to XState as it stands. */
import { GraphError } from "../errors.js";

/** The codes an {@link XStateExportError} can carry, as data (docs/concepts.md's table is checked against it). */
export const XSTATE_EXPORT_CODES = ["UNSUPPORTED_NAME", "UNSUPPORTED_GRAPH", "SEVERAL_NEXT_NODES", "UNSUPPORTED_INTERRUPT"] as const;
/** The codes an {@link XStateExportError} can carry. */
export type XStateExportCode = (typeof XSTATE_EXPORT_CODES)[number];

/**
 * A graph cannot become an XState machine as it stands. `UNSUPPORTED_NAME`: a node name or route key
 * means something else to XState (a leading `#` is an id, a `*` in an event a wildcard), or clashes
 * with a state the export adds. `UNSUPPORTED_GRAPH`: the graph declares rules that run several nodes
 * at once (fan-outs, joins, routers that may return lists, Command ends), and the machine with one
 * state per node (or the coverage model) is sequential. `SEVERAL_NEXT_NODES`: in such a machine, a
 * graph that declares none of those rules started several nodes (or none, or a `Send`) at run time: a
 * router returned a list.
 * `UNSUPPORTED_INTERRUPT`: the graph was compiled with `interruptBefore`/`interruptAfter`, and the
 * machines have no waiting state to pause in: they would run straight through the interrupts.
 * `names` lists the offending names (or sources).
 *
 * @example
 * ```ts
 * try { toMachine(graph); } catch (error) {
 *   if (error instanceof XStateExportError) console.log(error.code, error.names); // "UNSUPPORTED_NAME", ["#fetch"]
 * }
 * ```
 */
export class XStateExportError extends GraphError<XStateExportCode> {
  override readonly name = "XStateExportError";
  readonly names: readonly string[];

  constructor(code: XStateExportCode, message: string, names: readonly string[]) {
    super(code, message);
    this.names = names;
  }
}
