/**
 * The contracts between the model and the application. A model only *proposes*: every turn is
 * checked here before the graph acts on it, whatever produced it (a test double or a provider).
 */
import { copyData, isRecord } from "../_data.js";

/** A JSON value with finite numbers only: what survives `JSON.stringify` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object with finite numbers only. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A request to run one tool, as the model proposed it. */
export interface ToolCall {
  /** Correlates the call with its observation; unique within a run. */
  readonly callId: string;
  readonly name: string;
  readonly arguments: JsonObject;
}

/** A turn that answers the user. */
export interface AnswerTurn {
  readonly finalAnswer: string;
  readonly toolCalls?: undefined;
  /** The provider's complete output items for this turn, replayed on the next request. */
  readonly providerItems: readonly JsonObject[];
}

/** A turn that asks the application to run tools. */
export interface ToolCallTurn {
  readonly finalAnswer?: undefined;
  readonly toolCalls: readonly ToolCall[];
  /** The provider's complete output items for this turn, replayed on the next request. */
  readonly providerItems: readonly JsonObject[];
}

/** What a model returns: exactly one of an answer or tool calls. */
export type ModelTurn = AnswerTurn | ToolCallTurn;

/** Why a turn, a call or a tool request broke its contract; it becomes the `<Kind>` in `state.error`. */
export type ViolationKind =
  | "InvalidTurn"
  | "BlankAnswer"
  | "InvalidToolCall"
  | "DuplicateCallId"
  | "ReusedCallId"
  | "UnknownTool"
  | "WrongKeys"
  | "UnsupportedCity"
  | "InvalidTemperature"
  | "NonFiniteTemperature"
  | "InvalidResult";

/**
 * A contract was broken. `kind` is safe to store in state; `message` explains the fix and is kept
 * out of state like any other exception text.
 *
 * @example
 * ```ts
 * try { validateModelTurn({ finalAnswer: " ", providerItems: [] }); } catch (e) { (e as ContractViolation).kind; } // "BlankAnswer"
 * ```
 */
export class ContractViolation extends Error {
  override readonly name = "ContractViolation";
  constructor(
    readonly kind: ViolationKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether a value is JSON with finite numbers only (no `undefined`, functions, class instances or `NaN`).
 *
 * @example
 * ```ts
 * isJsonValue({ city: "Tokyo", tags: [1, 2] }); // true
 * isJsonValue({ t: Number.NaN }); // false
 * ```
 */
export function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === "boolean" || typeof value === "string") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isJsonObject(value);
}

/**
 * Whether a value is a plain JSON object with finite numbers only.
 *
 * @example
 * ```ts
 * isJsonObject({ city: "Tokyo" }); // true
 * isJsonObject(["Tokyo"]); // false
 * ```
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return isRecord(value) && Object.values(value).every(isJsonValue);
}

function isNonBlank(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Checks one proposed call and returns a detached copy holding only its three fields.
 *
 * @example
 * ```ts
 * validateToolCall({ callId: "weather-1", name: "get_teaching_weather", arguments: { city: "Tokyo" } });
 * ```
 */
export function validateToolCall(value: unknown): ToolCall {
  if (!isRecord(value)) {
    throw new ContractViolation("InvalidToolCall", "validateToolCall: a tool call must be an object { callId, name, arguments }.");
  }
  const { callId, name, arguments: args } = value;
  if (!isNonBlank(callId) || !isNonBlank(name)) {
    throw new ContractViolation("InvalidToolCall", "validateToolCall: callId and name must be non-blank strings.");
  }
  if (!isJsonObject(args)) {
    throw new ContractViolation(
      "InvalidToolCall",
      `validateToolCall: the arguments of "${callId}" must be a plain object that serializes to JSON with finite numbers only.`,
    );
  }
  return { callId, name, arguments: copyData(args) };
}

/**
 * Checks a model's turn: exactly one of a non-blank answer or a non-empty list of valid calls with
 * ids unique in the turn, plus the provider items. Returns a detached copy.
 *
 * @example
 * ```ts
 * validateModelTurn({ finalAnswer: "Tokyo: 18.0°C, cloudy.", providerItems: [] });
 * ```
 */
export function validateModelTurn(value: unknown): ModelTurn {
  if (!isRecord(value)) {
    throw new ContractViolation(
      "InvalidTurn",
      "validateModelTurn: a turn must be an object { finalAnswer } or { toolCalls }, with providerItems.",
    );
  }
  const { finalAnswer, toolCalls, providerItems } = value;
  if (!Array.isArray(providerItems) || !providerItems.every(isJsonObject)) {
    throw new ContractViolation(
      "InvalidTurn",
      "validateModelTurn: providerItems must be an array of JSON objects (use [] when there are none).",
    );
  }
  const items = copyData(providerItems);
  if ((finalAnswer === undefined) === (toolCalls === undefined)) {
    throw new ContractViolation("InvalidTurn", "validateModelTurn: a turn carries exactly one of finalAnswer or toolCalls.");
  }
  if (finalAnswer !== undefined) {
    if (!isNonBlank(finalAnswer)) throw new ContractViolation("BlankAnswer", "validateModelTurn: finalAnswer must be non-blank text.");
    return { finalAnswer, providerItems: items };
  }
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
    throw new ContractViolation("InvalidTurn", "validateModelTurn: toolCalls must be a non-empty array; answer with finalAnswer instead.");
  }
  const calls = toolCalls.map(validateToolCall);
  const ids = calls.map((call) => call.callId);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) {
    throw new ContractViolation(
      "DuplicateCallId",
      `validateModelTurn: the call id "${repeated}" appears twice in one turn; give each call its own id.`,
    );
  }
  return { toolCalls: calls, providerItems: items };
}

const SAFE_KIND = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * The part of a failure that may enter state: a violation's kind or the error's class name, never
 * its message (which may hold private text such as a path, a key or a provider's reply).
 *
 * @example
 * ```ts
 * failureKind(new TypeError("secret detail")); // "TypeError"
 * ```
 */
export function failureKind(error: unknown): string {
  if (error instanceof ContractViolation) return error.kind;
  if (!(error instanceof Error)) return "NonErrorThrown";
  // Many libraries leave `name` as "Error" and only the class name tells the failures apart.
  const candidates = [error.name, error.constructor.name];
  return candidates.find((name) => name !== "Error" && SAFE_KIND.test(name)) ?? "Error";
}
