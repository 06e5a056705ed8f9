/**
 * `typed-state-graph/otel`: OpenTelemetry spans for runs, supersteps and node attempts. The only
 * module of the package that loads `@opentelemetry/api` (an optional peer dependency); the engine
 * exposes hooks (`RunObserver`) and knows nothing of OpenTelemetry.
 *
 * @module typed-state-graph/otel
 */

export { otelObserver, nodeSpanContext, type OtelObserverOptions } from "./observer.js";
export { SPAN_NAMES, SPAN_EVENTS, TSG_ATTRIBUTES } from "./attributes.js";
