/**
 * The model call's span, with the OpenTelemetry GenAI semantic-convention attributes the API returns
 * (model, token usage, finish reasons). Only when the adapter was given a tracer: `@opentelemetry/api`
 * is then loaded on demand, so the adapters never need it otherwise.
 */
import type { Attributes, Tracer } from "@opentelemetry/api";
import type { NodeContext } from "../../../index.js";

/** What the reply told about itself, in GenAI terms. */
export interface GenAiReply {
  readonly id?: string | undefined;
  readonly model?: string | undefined;
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly finishReasons?: readonly string[] | undefined;
}

/** What the request asks, in GenAI terms. */
export interface GenAiRequest {
  readonly provider: string;
  readonly model: string;
  readonly maxTokens: number;
  readonly stream: boolean;
}

/** Records what a reply says about itself on the call's span. */
export type RecordReply = (reply: GenAiReply) => void;

const ignoreReply: RecordReply = () => undefined;

/**
 * Runs `call` inside a `chat <model>` client span, a child of the node's attempt span (through
 * `nodeSpanContext`), when `tracer` is given; otherwise just runs it.
 */
export async function withGenAiSpan<T>(
  tracer: Tracer | undefined,
  context: NodeContext | undefined,
  request: GenAiRequest,
  call: (record: RecordReply) => Promise<T>,
): Promise<T> {
  if (tracer === undefined) return call(ignoreReply);
  const [api, otel] = await Promise.all([import("@opentelemetry/api"), import("../../../otel/index.js")]);
  const parent = context === undefined ? api.context.active() : otel.nodeSpanContext(context);
  const span = tracer.startSpan(
    `chat ${request.model}`,
    {
      kind: api.SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": request.provider,
        "gen_ai.request.model": request.model,
        "gen_ai.request.max_tokens": request.maxTokens,
        "gen_ai.request.stream": request.stream,
      },
    },
    parent,
  );
  const record: RecordReply = (reply) => span.setAttributes(replyAttributes(reply));
  try {
    return await api.context.with(api.trace.setSpan(parent, span), () => call(record));
  } catch (error) {
    const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
    span.setAttribute("error.type", typeof code === "string" ? code : error instanceof Error ? error.name : typeof error);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

function replyAttributes(reply: GenAiReply): Attributes {
  const attributes: Attributes = {};
  if (reply.id !== undefined) attributes["gen_ai.response.id"] = reply.id;
  if (reply.model !== undefined) attributes["gen_ai.response.model"] = reply.model;
  if (reply.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = reply.inputTokens;
  if (reply.outputTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = reply.outputTokens;
  if (reply.finishReasons !== undefined) attributes["gen_ai.response.finish_reasons"] = [...reply.finishReasons];
  return attributes;
}

/** A number field of a record, or undefined. */
export function numberAt(record: unknown, key: string): number | undefined {
  const value = typeof record === "object" && record !== null ? (record as Record<string, unknown>)[key] : undefined;
  return typeof value === "number" ? value : undefined;
}

/** A string field of a record, or undefined. */
export function stringAt(record: unknown, key: string): string | undefined {
  const value = typeof record === "object" && record !== null ? (record as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
}
