/**
 * The report's data: the teaching records, the required notices, the unit conversion and the
 * contract a record must meet before the workflow trusts it.
 */
import { isRecord } from "../_data.js";
import { describe } from "./_describe.js";
import type { City, Language, Reading } from "./state.js";

/** The cities a request may name, in their default order. */
export const CITIES: readonly City[] = ["Tokyo", "Paris"];

/** The page languages, each with its own required notice. */
export const LANGUAGES: readonly Language[] = ["en", "zh-CN"];

/**
 * Whether a value is one of {@link CITIES}.
 *
 * @example
 * ```ts
 * isCity("Tokyo"); // true
 * isCity("Rome"); // false
 * ```
 */
export function isCity(value: unknown): value is City {
  return (CITIES as readonly unknown[]).includes(value);
}

/**
 * Whether a value is one of {@link LANGUAGES}.
 *
 * @example
 * ```ts
 * isLanguage("zh-CN"); // true
 * ```
 */
export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The source every teaching record names. */
export const TEACHING_SOURCE = "fixed teaching record";

/** The fixed teaching records: deliberately not live weather. */
export const TEACHING_RECORDS: Readonly<Record<City, Reading>> = Object.freeze({
  Tokyo: Object.freeze({ city: "Tokyo", temperature_c: 18.0, condition: "cloudy", source: TEACHING_SOURCE }),
  Paris: Object.freeze({ city: "Paris", temperature_c: 12.0, condition: "light rain", source: TEACHING_SOURCE }),
});

/** The sentence every published brief must carry, by language. */
export const NOTICES: Readonly<Record<Language, string>> = Object.freeze({
  en: "Fixed teaching data, not live weather.",
  "zh-CN": "固定教学数据，不是实时天气。",
});

/**
 * The default reader: returns a fresh copy of the city's teaching record.
 *
 * @example
 * ```ts
 * readTeachingRecord("Paris"); // { city: "Paris", temperature_c: 12, condition: "light rain", source: "fixed teaching record" }
 * ```
 */
export function readTeachingRecord(city: City): Reading {
  return { ...TEACHING_RECORDS[city] };
}

/**
 * Celsius to Fahrenheit, `round(c × 9/5 + 32, 1)`. Rounds like Python's `round`, the tutorial's
 * reference: to the nearest tenth by the exact binary value, ties (x.25, x.75) to even.
 *
 * @throws TypeError when `celsius` is not a finite number (booleans, strings, NaN and ±Infinity included).
 * @example
 * ```ts
 * fahrenheit(18); // 64.4
 * fahrenheit(22); // 71.6
 * ```
 */
export function fahrenheit(celsius: number): number {
  if (!isFiniteNumber(celsius)) {
    throw new TypeError(`fahrenheit: celsius must be a finite number; got ${describe(celsius)}.`);
  }
  return roundToTenth((celsius * 9) / 5 + 32);
}

/**
 * Rounds to one decimal place as Python's `round(x, 1)` does, so `-0` never appears.
 *
 * @example
 * ```ts
 * roundToTenth(64.44); // 64.4
 * roundToTenth(0.25); // 0.2 (a tie: to even)
 * ```
 */
export function roundToTenth(value: number): number {
  const quadrupled = value * 4;
  // Only x.25 and x.75 are exact ties at one decimal; every other value rounds the same in both languages.
  const isTie = Number.isInteger(quadrupled) && quadrupled % 2 !== 0;
  let rounded: number;
  if (isTie) {
    const lower = Math.floor(value * 10);
    rounded = (lower % 2 === 0 ? lower : lower + 1) / 10;
  } else {
    // toFixed rounds the exact binary value, which is what Python does (Math.round(x * 10) does not).
    rounded = Number(value.toFixed(1));
  }
  return rounded === 0 ? 0 : rounded;
}

/**
 * Formats a temperature for a brief: one decimal, `18` → `"18.0"`.
 *
 * @example
 * ```ts
 * formatTenths(18); // "18.0"
 * ```
 */
export function formatTenths(value: number): string {
  return roundToTenth(value).toFixed(1);
}

const READING_KEYS = ["city", "condition", "source", "temperature_c"] as const;

/**
 * Checks what a reader returned for `city` and returns a clean copy, or throws naming the problem.
 * A record has exactly the keys city, temperature_c, condition and source; the city is the one
 * asked for; the temperature is a finite number; condition and source are non-blank strings.
 *
 * @example
 * ```ts
 * checkReading("Tokyo", { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" });
 * checkReading("Tokyo", { city: "Paris", ... }); // throws: collect: the record for "Tokyo" names the city "Paris" …
 * ```
 */
export function checkReading(city: City, record: unknown): Reading {
  const problem = `collect: the record for "${city}"`;
  if (!isRecord(record)) {
    throw new TypeError(`${problem} must be an object { city, temperature_c, condition, source }; got ${describe(record)}.`);
  }
  const keys = Object.keys(record).sort();
  if (keys.length !== READING_KEYS.length || keys.some((key, i) => key !== READING_KEYS[i])) {
    throw new TypeError(
      `${problem} has the keys ${keys.join(", ") || "(none)"}; it must have exactly city, temperature_c, condition and source.`,
    );
  }
  if (record["city"] !== city) {
    throw new TypeError(
      `${problem} names the city ${describe(record["city"])}; a reader must return the record of the city it was asked for.`,
    );
  }
  const temperature = record["temperature_c"];
  if (!isFiniteNumber(temperature)) {
    throw new TypeError(`${problem} has temperature_c ${describe(temperature)}; it must be a finite number of °C.`);
  }
  const condition = record["condition"];
  const source = record["source"];
  if (!isNonBlankString(condition))
    throw new TypeError(`${problem} has a blank condition (${describe(condition)}); describe the weather, e.g. "cloudy".`);
  if (!isNonBlankString(source))
    throw new TypeError(`${problem} has a blank source (${describe(source)}); name where the record comes from.`);
  return { city, temperature_c: temperature, condition, source };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isNonBlankString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}
