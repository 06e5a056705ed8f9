/** The error a live adapter raises when a provider's reply breaks the turn contract. */
import { GraphError } from "../../../index.js";

/** What was wrong with a provider's reply. */
export type ProviderResponseCode =
  /** The reply was cut short or filtered: its status is not `completed` (or the finish reason not `stop`/`tool_calls`). */
  | "INCOMPLETE_RESPONSE"
  /** A call's arguments are not a JSON object with finite numbers. */
  | "INVALID_TOOL_ARGUMENTS"
  /** No calls and no text: nothing to act on. */
  | "EMPTY_RESPONSE"
  /** The reply does not have the documented shape. */
  | "MALFORMED_RESPONSE"
  /** A streamed reply broke off (the connection dropped, or the stream ended) before the message was complete. */
  | "STREAM_INTERRUPTED";

// A record, not a list, so that a code missing here (or one too many) fails to compile.
/** The codes of a {@link ProviderResponseError}, as data (docs/reference/errors.md lists them). */
export const PROVIDER_RESPONSE_CODES = Object.keys({
  INCOMPLETE_RESPONSE: true,
  INVALID_TOOL_ARGUMENTS: true,
  EMPTY_RESPONSE: true,
  MALFORMED_RESPONSE: true,
  STREAM_INTERRUPTED: true,
} satisfies Record<ProviderResponseCode, true>) as readonly ProviderResponseCode[];

/**
 * A provider's reply cannot become a turn. The model node stores only `model_failed:ProviderResponseError`;
 * the message (which may quote the provider) stays out of state.
 *
 * @example
 * ```ts
 * new ProviderResponseError("EMPTY_RESPONSE", "ResponsesModel: the response has no tool calls and blank text.").code;
 * ```
 */
export class ProviderResponseError extends GraphError<ProviderResponseCode> {
  override readonly name = "ProviderResponseError";

  constructor(code: ProviderResponseCode, message: string, options?: { readonly cause?: unknown }) {
    super(code, message, options);
  }
}
