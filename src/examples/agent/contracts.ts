/**
 * The contracts between the model and the application. A model only *proposes*: every turn is
 * checked here before the graph acts on it, whatever produced it (a test double or a provider).
 */
import { GraphError } from "../../index.js";
import { copyData, isJsonObject, isRecord, type JsonObject } from "../_data.js";

// The JSON value types live with the examples' shared data helpers (the state schemas read them too).
export { isJsonObject, isJsonValue, type JsonObject, type JsonValue } from "../_data.js";

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

/**
 * Why a turn, a call or a tool request broke its contract, as the run's state records it: the `<Kind>` in
 * `state.error` (`invalid_tool_request:UnknownTool`), PascalCase like the names of the other errors a
 * node can store there (`TypeError`, `ProviderResponseError`).
 */
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

/** The code of each {@link ViolationKind}, as data: one code per broken contract (docs/reference/errors.md lists them). */
export const CONTRACT_VIOLATION_CODES = Object.freeze({
  /** A model returned something that is not exactly one of an answer or tool calls. */
  InvalidTurn: "INVALID_TURN",
  /** A model answered with blank text. */
  BlankAnswer: "BLANK_ANSWER",
  /** A proposed call is not `{ callId, name, arguments }` with non-blank strings and JSON arguments. */
  InvalidToolCall: "INVALID_TOOL_CALL",
  /** Two calls of one turn share an id. */
  DuplicateCallId: "DUPLICATE_CALL_ID",
  /** A call reuses the id of a call from an earlier turn. */
  ReusedCallId: "REUSED_CALL_ID",
  /** A call names a tool the loop does not have. */
  UnknownTool: "UNKNOWN_TOOL",
  /** A call's arguments have other keys than the tool's parameters. */
  WrongKeys: "WRONG_ARGUMENT_KEYS",
  /** `get_teaching_weather` was asked for a city the teaching records do not cover. */
  UnsupportedCity: "UNSUPPORTED_CITY",
  /** `celsius_to_fahrenheit` was given a temperature that is not a number. */
  InvalidTemperature: "INVALID_TEMPERATURE",
  /** `celsius_to_fahrenheit` was given an infinite temperature. */
  NonFiniteTemperature: "NON_FINITE_TEMPERATURE",
  /** A tool returned something other than a plain JSON object (or one without the fields its reader needs). */
  InvalidResult: "INVALID_TOOL_RESULT",
} as const satisfies Record<ViolationKind, string>);

/** The codes a {@link ContractViolation} can carry. */
export type ContractViolationCode = (typeof CONTRACT_VIOLATION_CODES)[ViolationKind];

/**
 * A contract was broken. `code` names the broken contract (`UNKNOWN_TOOL`); `kind` is the same fault
 * as the run's state records it (`UnknownTool`), safe to store; `message` explains the fix and is kept
 * out of state like any other exception text.
 *
 * @example
 * ```ts
 * try { validateModelTurn({ finalAnswer: " ", providerItems: [] }); } catch (e) {
 *   (e as ContractViolation).code; // "BLANK_ANSWER"
 *   (e as ContractViolation).kind; // "BlankAnswer"
 * }
 * ```
 */
export class ContractViolation extends GraphError<ContractViolationCode> {
  override readonly name = "ContractViolation";
  readonly kind: ViolationKind;

  constructor(kind: ViolationKind, message: string) {
    super(CONTRACT_VIOLATION_CODES[kind], message);
    this.kind = kind;
  }
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
