/**
 * The OpenTelemetry observer: a span per run, per superstep and per node attempt, with span events for
 * routes, retries, cache hits, interrupts and checkpoint writes. Parents are passed explicitly (the run
 * span under the active context or the subgraph node's attempt span, supersteps under the run, attempts
 * under their superstep), so the tree is right without a context manager. Each attempt also runs inside
 * `context.with(attemptContext)`, so with a context manager registered (`AsyncLocalStorageContextManager`
 * from `@opentelemetry/context-async-hooks`) a node's own spans nest under its attempt by themselves;
 * without one, a node passes `nodeSpanContext(context)` as the parent.
 */
import { context as otelContext, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { NodeContext, ObservedRunStart, RunObservation, RunObserver } from "../index.js";
import { SPAN_EVENTS, SPAN_NAMES, TSG_ATTRIBUTES as A } from "./attributes.js";

/** Options of {@link otelObserver}. */
export interface OtelObserverOptions {
  /** Where spans go. Default: `trace.getTracer("typed-state-graph")`, the global provider's tracer. */
  readonly tracer?: Tracer;
  /** The graph's name: the run span is `tsg.run <name>` and carries `tsg.graph.name`. Default: none (the spec hash names the graph). */
  readonly graphName?: string;
}

/** The context of each node attempt an observer opened a span for, by the node context the node received. */
const attemptContexts = new WeakMap<NodeContext, Context>();

/**
 * An observer that records OpenTelemetry spans: `invoke(input, { observer: otelObserver({ tracer }) })`.
 * A run whose span is not recording (no SDK registered, or sampled out) is not observed further, so
 * tracing that is off costs one no-op span per run.
 *
 * @example
 * ```ts
 * import { otelObserver } from "typed-state-graph/otel";
 * const observer = otelObserver({ tracer: provider.getTracer("orders"), graphName: "report" });
 * await graph.invoke(initialReportState(), { observer });
 * ```
 */
export function otelObserver(options: OtelObserverOptions = {}): RunObserver {
  const tracer = options.tracer ?? trace.getTracer("typed-state-graph");
  const graphName = options.graphName;
  return {
    run(start) {
      const parentNode = start.parent;
      const parent = (parentNode === undefined ? undefined : attemptContexts.get(parentNode)) ?? otelContext.active();
      // A subgraph's run is named after the node that runs it; the top run after the graph.
      const name = parentNode !== undefined ? parentNode.node : graphName;
      const span = tracer.startSpan(
        name === undefined ? SPAN_NAMES.run : `${SPAN_NAMES.run} ${name}`,
        { attributes: runAttributes(start, graphName) },
        parent,
      );
      if (!span.isRecording()) {
        span.end();
        return undefined;
      }
      return new OtelRunObservation(tracer, span, trace.setSpan(parent, span));
    },
  };
}

/**
 * The OpenTelemetry context of a node's current attempt (its span), to parent a node's own spans
 * without a context manager; outside an observed attempt, the active context.
 *
 * @example
 * ```ts
 * builder.addNode("fetch", async (s, context) => {
 *   const span = tracer.startSpan("GET /weather", {}, nodeSpanContext(context));
 *   try { return { weather: await getWeather(s.city, context.signal) }; } finally { span.end(); }
 * });
 * ```
 */
export function nodeSpanContext(context: NodeContext): Context {
  return attemptContexts.get(context) ?? otelContext.active();
}

function runAttributes(start: ObservedRunStart, graphName: string | undefined): Attributes {
  const attributes: Attributes = {
    [A.specHash]: start.specHash,
    [A.engine]: start.engine,
    [A.api]: start.api,
    [A.resumed]: start.resumed,
  };
  if (graphName !== undefined && start.parent === undefined) attributes[A.graphName] = graphName;
  if (start.threadId !== undefined) attributes[A.threadId] = start.threadId;
  if (start.parent !== undefined) attributes[A.parentNode] = start.parent.node;
  return attributes;
}

/** One run's spans: the run span, the open superstep span, and the attempts under it. */
class OtelRunObservation implements RunObservation {
  readonly #tracer: Tracer;
  readonly #run: Span;
  readonly #runContext: Context;
  #superstep: Span | undefined;
  #superstepContext: Context | undefined;

  constructor(tracer: Tracer, run: Span, runContext: Context) {
    this.#tracer = tracer;
    this.#run = run;
    this.#runContext = runContext;
  }

  superstepStart(superstep: number, nodes: readonly string[]): void {
    const span = this.#tracer.startSpan(
      SPAN_NAMES.superstep,
      { attributes: { [A.superstep]: superstep, [A.nodes]: [...nodes] } },
      this.#runContext,
    );
    this.#superstep = span;
    this.#superstepContext = trace.setSpan(this.#runContext, span);
  }

  superstepEnd(_superstep: number, error: unknown): void {
    const span = this.#superstep;
    if (span === undefined) return;
    this.#superstep = undefined;
    this.#superstepContext = undefined;
    if (error !== undefined) failed(span, error);
    span.end();
  }

  attempt<T>(context: NodeContext, attempt: () => T | Promise<T>): T | Promise<T> {
    const parent = this.#superstepContext ?? this.#runContext;
    const span = this.#tracer.startSpan(
      `${SPAN_NAMES.node} ${context.node}`,
      { attributes: { [A.node]: context.node, [A.attempt]: context.attempt, [A.superstep]: context.superstep } },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    attemptContexts.set(context, spanContext);
    let result: T | Promise<T>;
    try {
      result = otelContext.with(spanContext, attempt);
    } catch (error) {
      endAttempt(span, error);
      throw error;
    }
    if (!(result instanceof Promise)) {
      endAttempt(span, undefined);
      return result;
    }
    return result.then(
      (value) => {
        endAttempt(span, undefined);
        return value;
      },
      (error: unknown) => {
        endAttempt(span, error);
        throw error;
      },
    );
  }

  retry(retry: { readonly node: string; readonly attempt: number; readonly delay: number }): void {
    this.#eventSpan().addEvent(SPAN_EVENTS.retry, { [A.node]: retry.node, [A.attempt]: retry.attempt, [A.delay]: retry.delay });
  }

  cacheHit(context: NodeContext): void {
    this.#eventSpan().addEvent(SPAN_EVENTS.cacheHit, { [A.node]: context.node });
  }

  route(route: { readonly from: string; readonly key: string; readonly to: string }): void {
    this.#eventSpan().addEvent(SPAN_EVENTS.route, { [A.routeFrom]: route.from, [A.routeKey]: route.key, [A.routeTo]: route.to });
  }

  interrupt(interrupt: { readonly when: string; readonly nodes: readonly string[] }): void {
    this.#run.addEvent(SPAN_EVENTS.interrupt, { [A.interruptWhen]: interrupt.when, [A.interruptNodes]: [...interrupt.nodes] });
  }

  checkpoint(checkpoint: { readonly id: string; readonly step: number; readonly source: string }): void {
    this.#run.addEvent(SPAN_EVENTS.checkpoint, {
      [A.checkpointId]: checkpoint.id,
      [A.checkpointStep]: checkpoint.step,
      [A.checkpointSource]: checkpoint.source,
    });
  }

  runEnd(end: { readonly status: string; readonly supersteps: number; readonly error?: unknown }): void {
    // A run that ends while a superstep is open (a stream abandoned mid-superstep) closes it first.
    this.#superstep?.end();
    this.#superstep = undefined;
    this.#run.setAttributes({ [A.status]: end.status, [A.supersteps]: end.supersteps });
    if (end.status === "failed") failed(this.#run, end.error);
    this.#run.end();
  }

  /** Where an event of the running superstep goes: its span, or the run's before the first superstep. */
  #eventSpan(): Span {
    return this.#superstep ?? this.#run;
  }
}

function endAttempt(span: Span, error: unknown): void {
  span.setAttribute(A.outcome, error === undefined ? "ok" : "error");
  if (error !== undefined) failed(span, error);
  span.end();
}

/** Marks a span failed: status ERROR with the message, `error.type` (the error's code when it has one), the exception as an event. */
function failed(span: Span, error: unknown): void {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined) span.setAttribute(A.errorCode, code);
  span.setAttribute(A.errorType, code ?? (error instanceof Error ? error.name : typeof error));
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}
