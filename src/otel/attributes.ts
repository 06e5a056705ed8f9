/**
 * The names `typed-state-graph/otel` writes: span names, attribute keys and event names. Attributes of
 * the graph's own concepts carry the `tsg.` prefix; errors use the semantic conventions' `error.type`.
 */

/**
 * Span names: one per run, one per superstep, one per node attempt (`tsg.node <node>`).
 *
 * @example
 * ```ts
 * exporter.getFinishedSpans().filter((span) => span.name === SPAN_NAMES.superstep).length; // supersteps run
 * ```
 */
export const SPAN_NAMES = {
  run: "tsg.run",
  superstep: "tsg.superstep",
  /** Followed by a space and the node's name. */
  node: "tsg.node",
} as const;

/**
 * The attribute keys on the spans (see docs/observability.md for which span carries which).
 *
 * @example
 * ```ts
 * span.attributes[TSG_ATTRIBUTES.node]; // "model"
 * ```
 */
export const TSG_ATTRIBUTES = {
  specHash: "tsg.graph.spec_hash",
  graphName: "tsg.graph.name",
  engine: "tsg.engine",
  api: "tsg.api",
  threadId: "tsg.thread.id",
  resumed: "tsg.run.resumed",
  status: "tsg.run.status",
  supersteps: "tsg.run.supersteps",
  superstep: "tsg.superstep",
  nodes: "tsg.superstep.nodes",
  node: "tsg.node",
  attempt: "tsg.node.attempt",
  outcome: "tsg.node.outcome",
  parentNode: "tsg.parent.node",
  errorCode: "tsg.error.code",
  errorType: "error.type",
  routeFrom: "tsg.route.from",
  routeKey: "tsg.route.key",
  routeTo: "tsg.route.to",
  delay: "tsg.retry.delay_ms",
  interruptWhen: "tsg.interrupt.when",
  interruptNodes: "tsg.interrupt.nodes",
  checkpointId: "tsg.checkpoint.id",
  checkpointStep: "tsg.checkpoint.step",
  checkpointSource: "tsg.checkpoint.source",
} as const;

/**
 * Span event names: routes, retries and cache hits on the superstep span (START's route on the run
 * span); interrupts and checkpoint writes on the run span.
 *
 * @example
 * ```ts
 * run.events.filter((event) => event.name === SPAN_EVENTS.checkpoint).length; // checkpoints written
 * ```
 */
export const SPAN_EVENTS = {
  route: "tsg.route",
  retry: "tsg.retry",
  cacheHit: "tsg.cache_hit",
  interrupt: "tsg.interrupt",
  checkpoint: "tsg.checkpoint",
} as const;
