import { describe, expect, it } from "vitest";
import {
  ContractViolation,
  fahrenheit,
  NOTICES,
  teachingTools,
  TEACHING_RECORDS,
  toolDefinitions,
  validateToolBatch,
  type ToolCall,
} from "../../../src/examples/agent/index.js";
import { convertCall, weatherCall } from "./_helpers.js";

function kindOf(calls: ToolCall[]): string | undefined {
  try {
    validateToolBatch(calls);
    return undefined;
  } catch (error) {
    if (error instanceof ContractViolation) return error.kind;
    throw error;
  }
}

describe("the teaching data", () => {
  it("is the report's: Tokyo 18.0 °C cloudy, Paris 12.0 °C light rain, from a fixed teaching record", () => {
    expect(TEACHING_RECORDS).toEqual({
      Tokyo: { city: "Tokyo", temperature_c: 18, condition: "cloudy", source: "fixed teaching record" },
      Paris: { city: "Paris", temperature_c: 12, condition: "light rain", source: "fixed teaching record" },
    });
    expect(NOTICES).toEqual({ en: "Fixed teaching data, not live weather.", "zh-CN": "固定教学数据，不是实时天气。" });
  });

  it.each([
    [18, 64.4],
    [12, 53.6],
    [22, 71.6],
    [-40, -40],
  ])("fahrenheit(%d) is %d, rounded to one decimal", (c, f) => {
    expect(fahrenheit(c)).toBe(f);
  });

  it.each([[Infinity], [-Infinity], [Number.NaN]])("fahrenheit rejects the non-finite %d", (c) => {
    expect(() => fahrenheit(c)).toThrow(/^fahrenheit: /);
  });
});

describe("tool definitions", () => {
  it("describe exactly the two tools, each with a strict schema", () => {
    const definitions = toolDefinitions();
    expect(definitions.map((d) => d.name)).toEqual(["get_teaching_weather", "celsius_to_fahrenheit"]);
    for (const { parameters } of definitions) {
      expect(parameters.type).toBe("object");
      expect(parameters.additionalProperties).toBe(false);
      expect([...parameters.required].sort()).toEqual(Object.keys(parameters.properties).sort());
    }
    expect(definitions[0]?.parameters.properties).toEqual({ city: { type: "string", enum: ["Tokyo", "Paris"] } });
    expect(definitions[1]?.parameters.properties["temperature_c"]).toMatchObject({ type: "number" });
  });
});

describe("tool handlers", () => {
  it("get_teaching_weather returns a fresh copy of the city's teaching record", async () => {
    const record = await teachingTools["get_teaching_weather"]?.run({ city: "Paris" });
    expect(record).toEqual(TEACHING_RECORDS.Paris);
    expect(record).not.toBe(TEACHING_RECORDS.Paris);
  });

  it("celsius_to_fahrenheit returns { temperature_f }", async () => {
    expect(await teachingTools["celsius_to_fahrenheit"]?.run({ temperature_c: 18 })).toEqual({ temperature_f: 64.4 });
  });
});

describe("validateToolBatch", () => {
  it("accepts a batch of valid calls", () => {
    expect(kindOf([weatherCall("a", "Tokyo"), weatherCall("b", "Paris"), convertCall("c", -3.5)])).toBeUndefined();
  });

  it.each([
    ["an unknown tool", [{ callId: "a", name: "get_live_weather", arguments: { city: "Tokyo" } }], "UnknownTool"],
    ["a tool name inherited from Object.prototype", [{ callId: "a", name: "toString", arguments: {} }], "UnknownTool"],
    ["an extra key", [{ callId: "a", name: "get_teaching_weather", arguments: { city: "Tokyo", units: "metric" } }], "WrongKeys"],
    ["a missing key", [{ callId: "a", name: "get_teaching_weather", arguments: {} }], "WrongKeys"],
    ["a misspelled key", [{ callId: "a", name: "celsius_to_fahrenheit", arguments: { temperature: 18 } }], "WrongKeys"],
    ["an unsupported city", [weatherCall("a", "London")], "UnsupportedCity"],
    ["a city in the wrong case", [weatherCall("a", "tokyo")], "UnsupportedCity"],
    ["a numeric string temperature", [convertCall("a", "18")], "InvalidTemperature"],
    ["a boolean temperature", [convertCall("a", true)], "InvalidTemperature"],
    ["an infinite temperature", [convertCall("a", Infinity)], "NonFiniteTemperature"],
    ["a NaN temperature", [convertCall("a", Number.NaN)], "NonFiniteTemperature"],
  ])("rejects %s", (_label, calls, kind) => {
    expect(kindOf(calls as ToolCall[])).toBe(kind);
  });

  it("checks every call, not only the first", () => {
    expect(kindOf([weatherCall("a"), convertCall("b", "warm")])).toBe("InvalidTemperature");
  });
});
