/** The error raised when a graph cannot be exported to XState as it stands. */

/** The codes an {@link XStateExportError} can carry. */
export type XStateExportCode = "UNSUPPORTED_NAME" | "UNSUPPORTED_GRAPH";

/**
 * A graph cannot become an XState machine as it stands. `UNSUPPORTED_NAME`: a node name or route key
 * means something else to XState (a leading `#` is an id, a `*` in an event a wildcard), or clashes
 * with a state the export adds. `UNSUPPORTED_GRAPH`: the graph runs several
 * nodes at once (fan-outs, joins, routers that may return lists), and the machines are sequential.
 * `names` lists the offending names (or sources).
 *
 * @example
 * ```ts
 * try { toMachine(graph); } catch (error) {
 *   if (error instanceof XStateExportError) console.log(error.code, error.names); // "UNSUPPORTED_NAME", ["#fetch"]
 * }
 * ```
 */
export class XStateExportError extends Error {
  override readonly name = "XStateExportError";
  constructor(
    readonly code: XStateExportCode,
    message: string,
    readonly names: readonly string[],
  ) {
    super(message);
  }
}
