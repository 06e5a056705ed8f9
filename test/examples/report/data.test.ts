import { describe, expect, it } from "vitest";
import {
  checkReading,
  fahrenheit,
  NOTICES,
  readTeachingRecord,
  roundToTenth,
  TEACHING_RECORDS,
} from "../../../src/examples/report/index.js";

describe("fahrenheit", () => {
  it.each([
    [18, 64.4],
    [12, 53.6],
    [22, 71.6],
    [-40, -40],
    [0, 32],
    [100, 212],
    [37, 98.6],
    [36.6, 97.9],
    [-3.5, 25.7],
    [0.125, 32.2],
  ])("converts %s °C to %s °F, rounded to a tenth", (celsius, expected) => {
    expect(fahrenheit(celsius)).toBe(expected);
  });

  it("rounds an exact tie to even, as Python's round does (21.25 °C is exactly 70.25 °F)", () => {
    expect(fahrenheit(21.25)).toBe(70.2);
  });

  it("never returns negative zero", () => {
    expect(Object.is(fahrenheit(-17.8), 0)).toBe(true);
  });

  it.each([
    ["18"],
    [true],
    [false],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [null],
    [undefined],
    [18n],
    [{}],
  ])("rejects %s: only finite numbers convert", (value) => {
    expect(() => fahrenheit(value as number)).toThrow(/^fahrenheit: celsius must be a finite number/);
  });
});

describe("roundToTenth", () => {
  it.each([
    [0.25, 0.2],
    [0.75, 0.8],
    [-0.25, -0.2],
    [1.45, 1.4],
    [0.35, 0.3],
    [64.45, 64.5],
    [2.5, 2.5],
  ])("rounds %s to %s by its exact binary value, ties to even", (value, expected) => {
    expect(roundToTenth(value)).toBe(expected);
  });
});

describe("teaching data", () => {
  it("holds the fixed records for Tokyo and Paris", () => {
    expect(TEACHING_RECORDS).toEqual({
      Tokyo: { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" },
      Paris: { city: "Paris", temperature_c: 12, condition: "light rain", source: "fixed teaching record" },
    });
  });

  it("hands out copies, so a caller cannot change the records", () => {
    const record = readTeachingRecord("Tokyo") as { temperature_c: number };
    record.temperature_c = 99;
    expect(readTeachingRecord("Tokyo").temperature_c).toBe(18);
  });

  it("requires the exact notice sentence for each language", () => {
    expect(NOTICES).toEqual({ en: "Fixed teaching data, not live weather.", "zh-CN": "固定教学数据，不是实时天气。" });
  });
});

describe("checkReading", () => {
  const good = { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" };

  it("accepts a well-formed record and returns a copy", () => {
    const checked = checkReading("Tokyo", good);
    expect(checked).toEqual(good);
    expect(checked).not.toBe(good);
  });

  it.each([
    ["an extra key", { ...good, humidity: 40 }, /exactly city, temperature_c, condition and source/],
    ["a missing key", { city: "Tokyo", temperature_c: 18, condition: "cloudy" }, /exactly city, temperature_c, condition and source/],
    ["another city", { ...good, city: "Paris" }, /names the city "Paris"/],
    ["a string temperature", { ...good, temperature_c: "18" }, /temperature_c "18"; it must be a finite number/],
    ["a boolean temperature", { ...good, temperature_c: true }, /temperature_c boolean true/],
    ["a NaN temperature", { ...good, temperature_c: Number.NaN }, /temperature_c number NaN/],
    ["an infinite temperature", { ...good, temperature_c: Number.POSITIVE_INFINITY }, /temperature_c number Infinity/],
    ["a negative infinite temperature", { ...good, temperature_c: Number.NEGATIVE_INFINITY }, /temperature_c number -Infinity/],
    ["a blank condition", { ...good, condition: "   " }, /blank condition/],
    ["a non-string condition", { ...good, condition: 3 }, /blank condition/],
    ["a blank source", { ...good, source: "" }, /blank source/],
    ["null", null, /must be an object/],
    ["an array", [good], /must be an object/],
  ])("rejects %s, naming the city and the problem", (_label, record, message) => {
    expect(() => checkReading("Tokyo", record)).toThrow(message);
    expect(() => checkReading("Tokyo", record)).toThrow(/^collect: the record for "Tokyo"/);
  });
});
