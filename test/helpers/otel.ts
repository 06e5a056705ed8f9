/**
 * OpenTelemetry for tests: a tracer whose spans land in an in-memory exporter, the finished spans as
 * an indented tree (one line per span, its events under it), and an AsyncLocalStorage context manager
 * (what `@opentelemetry/context-async-hooks` provides in production) for the tests that need one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { context, ROOT_CONTEXT, type Context, type ContextManager } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";

/** A tracer and the spans it finished. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer("test"), exporter, spans: () => exporter.getFinishedSpans() };
}

/** How a span reads in a tree line: its name and the attributes that identify it. */
function describeSpan(span: ReadableSpan): string {
  const a = span.attributes;
  const parts = [span.name];
  if (a["tsg.superstep"] !== undefined && a["tsg.node"] === undefined) parts.push(String(a["tsg.superstep"]));
  if (a["tsg.node.attempt"] !== undefined) parts.push(`#${a["tsg.node.attempt"]}`);
  if (a["tsg.node.outcome"] !== undefined) parts.push(String(a["tsg.node.outcome"]));
  if (a["tsg.run.status"] !== undefined) parts.push(String(a["tsg.run.status"]));
  if (a["tsg.error.code"] !== undefined) parts.push(`[${a["tsg.error.code"]}]`);
  return parts.join(" ");
}

function describeEvent(event: ReadableSpan["events"][number]): string {
  const a = event.attributes ?? {};
  if (event.name === "tsg.route") return `· route ${a["tsg.route.from"]} -${a["tsg.route.key"]}-> ${a["tsg.route.to"]}`;
  if (event.name === "tsg.retry") return `· retry ${a["tsg.node"]} after #${a["tsg.node.attempt"]}`;
  if (event.name === "tsg.interrupt") return `· interrupt ${a["tsg.interrupt.when"]} ${String(a["tsg.interrupt.nodes"])}`;
  if (event.name === "tsg.checkpoint") return `· checkpoint ${a["tsg.checkpoint.step"]} ${a["tsg.checkpoint.source"]}`;
  return `· ${event.name}`;
}

/**
 * The spans as a tree: children under their parent, in start order (siblings that started at the same
 * instant by name), then the span's events (exceptions left out), which come after its children.
 */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const time = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
  const lines: string[] = [];
  const visit = (parent: string | undefined, depth: number): void => {
    const children = [...(byParent.get(parent) ?? [])].sort((x, y) => time(x) - time(y) || x.name.localeCompare(y.name));
    for (const span of children) {
      const indent = "  ".repeat(depth);
      lines.push(indent + describeSpan(span));
      visit(span.spanContext().spanId, depth + 1);
      for (const event of span.events) if (event.name !== "exception") lines.push(`${indent}  ${describeEvent(event)}`);
    }
  };
  visit(undefined, 0);
  return lines;
}

/** A context manager on AsyncLocalStorage: `context.with` then holds across awaits. */
export class AsyncLocalContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(active, () => fn.apply(thisArg, args));
  }
  bind<T>(active: Context, target: T): T {
    if (typeof target !== "function") return target;
    const run = (...args: unknown[]): unknown => this.with(active, target as (...a: unknown[]) => unknown, undefined, ...args);
    return run as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

/** Registers an AsyncLocalStorage context manager for the duration of `body`. */
export async function withContextManager<T>(body: () => Promise<T>): Promise<T> {
  const manager = new AsyncLocalContextManager();
  context.setGlobalContextManager(manager);
  try {
    return await body();
  } finally {
    context.disable();
  }
}
