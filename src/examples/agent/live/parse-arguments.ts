/** Tool-call arguments arrive as JSON text; both adapters hold them to the same contract. */
import { isJsonObject, type JsonObject } from "../contracts.js";
import { ProviderResponseError } from "./provider-error.js";

/**
 * Parses a call's argument text into a JSON object with finite numbers only (`1e999` parses to
 * `Infinity`, so parsing alone is not enough). Throws {@link ProviderResponseError} `INVALID_TOOL_ARGUMENTS`.
 *
 * @example
 * ```ts
 * parseToolArguments("ResponsesModel", "weather-1", '{"city":"Tokyo"}'); // { city: "Tokyo" }
 * ```
 */
export function parseToolArguments(api: string, callId: string, text: unknown): JsonObject {
  let parsed: unknown;
  try {
    parsed = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!isJsonObject(parsed)) {
    throw new ProviderResponseError(
      "INVALID_TOOL_ARGUMENTS",
      `${api}: the arguments of call "${callId}" are not a JSON object with finite numbers.`,
    );
  }
  return parsed;
}
