/** The request a report run starts from, validated before any node runs. */
import { GraphError } from "../../index.js";
import { describe } from "./_describe.js";
import { CITIES, isCity, isLanguage, LANGUAGES } from "./data.js";
import type { City, Language, ReportState } from "./state.js";

/** What a reader of the travel page asks for. Every field is optional; see {@link DEFAULT_REPORT_REQUEST}. */
export interface ReportRequest {
  /** One or two of Tokyo and Paris, no repeats, in display order. */
  readonly cities?: readonly City[];
  /** Show °F next to °C. */
  readonly includeFahrenheit?: boolean;
  readonly language?: Language;
}

/** The default request: both cities (Tokyo, then Paris), Fahrenheit on, English. */
export const DEFAULT_REPORT_REQUEST = Object.freeze({
  cities: Object.freeze(["Tokyo", "Paris"] as const),
  includeFahrenheit: true,
  language: "en",
} satisfies Required<ReportRequest>);

/** The codes of a {@link ReportRequestError}, as data (docs/reference/errors.md lists them). */
export const REPORT_REQUEST_CODES = ["INVALID_REQUEST", "UNKNOWN_REQUEST_FIELD"] as const;
/**
 * `INVALID_REQUEST`: the request is not an object, or a field's value is not one it accepts (`field`
 * says which); `UNKNOWN_REQUEST_FIELD`: the request has a field a request does not have.
 */
export type ReportRequestCode = (typeof REPORT_REQUEST_CODES)[number];

/**
 * A request was rejected before the run started. `field` names the request field at fault.
 *
 * @example
 * ```ts
 * try { initialReportState({ cities: ["Rome"] }); } catch (e) {
 *   if (e instanceof ReportRequestError) console.log(e.code, e.field); // "INVALID_REQUEST" "cities"
 * }
 * ```
 */
export class ReportRequestError extends GraphError<ReportRequestCode> {
  override readonly name = "ReportRequestError";
  readonly field: keyof ReportRequest | "request";

  constructor(field: keyof ReportRequest | "request", message: string, code: ReportRequestCode = "INVALID_REQUEST") {
    super(code, message);
    this.field = field;
  }
}

/**
 * Validates a request and returns the initial state of a run: nothing collected, no draft, no review.
 *
 * @throws ReportRequestError naming the field: cities must be one or two of Tokyo and Paris without
 * repeats, includeFahrenheit a boolean, language `en` or `zh-CN`; unknown fields are rejected too.
 * @example
 * ```ts
 * const state = initialReportState({ cities: ["Paris"], includeFahrenheit: false, language: "zh-CN" });
 * await buildReportGraph().invoke(state);
 * ```
 */
export function initialReportState(request: ReportRequest = {}): ReportState {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new ReportRequestError(
      "request",
      `initialReportState: the request must be an object { cities, includeFahrenheit, language }; got ${describe(request)}.`,
    );
  }
  const unknown = Object.keys(request).filter((key) => !(key in DEFAULT_REPORT_REQUEST));
  if (unknown.length > 0) {
    throw new ReportRequestError(
      "request",
      `initialReportState: unknown request field ${unknown.map((k) => `"${k}"`).join(", ")}; a request has cities, includeFahrenheit and language.`,
      "UNKNOWN_REQUEST_FIELD",
    );
  }
  return {
    // Only an omitted field takes its default: a null is a mistake worth reporting.
    cities: checkCities(request.cities === undefined ? DEFAULT_REPORT_REQUEST.cities : request.cities),
    includeFahrenheit: checkIncludeFahrenheit(
      request.includeFahrenheit === undefined ? DEFAULT_REPORT_REQUEST.includeFahrenheit : request.includeFahrenheit,
    ),
    language: checkLanguage(request.language === undefined ? DEFAULT_REPORT_REQUEST.language : request.language),
    readings: [],
    draft: null,
    review: null,
    revisions: 0,
    events: [],
    answer: null,
    status: "working",
  };
}

function checkCities(cities: unknown): City[] {
  const allowed = CITIES.join(" and ");
  if (!Array.isArray(cities) || cities.length < 1 || cities.length > 2) {
    throw new ReportRequestError("cities", `initialReportState: cities must list one or two of ${allowed}; got ${describe(cities)}.`);
  }
  const checked: City[] = [];
  for (const city of cities as unknown[]) {
    if (!isCity(city)) {
      throw new ReportRequestError(
        "cities",
        `initialReportState: cities contains ${describe(city)}; the teaching records cover only ${allowed}.`,
      );
    }
    if (checked.includes(city)) {
      throw new ReportRequestError("cities", `initialReportState: cities lists ${describe(city)} twice; list each city once.`);
    }
    checked.push(city);
  }
  return checked;
}

function checkIncludeFahrenheit(value: unknown): boolean {
  if (typeof value !== "boolean") {
    throw new ReportRequestError(
      "includeFahrenheit",
      `initialReportState: includeFahrenheit must be true or false; got ${describe(value)}.`,
    );
  }
  return value;
}

function checkLanguage(value: unknown): Language {
  if (!isLanguage(value)) {
    throw new ReportRequestError(
      "language",
      `initialReportState: language must be one of ${LANGUAGES.map((l) => `"${l}"`).join(", ")}; got ${describe(value)}.`,
    );
  }
  return value;
}
