/**
 * The JSON Schema subset the examples' state schemas are written in: `anyOf` (the agent's messages),
 * objects without `properties` as JSON objects (tool arguments, provider items), and a schema without a
 * type as any JSON value.
 */
import { describe, expect, it } from "vitest";
import { jsonSchemaIssues, type JsonSchemaSubset } from "../../src/examples/_json-schema-state.js";

const message: JsonSchemaSubset = {
  anyOf: [
    { type: "object", properties: { role: { enum: ["user"] }, content: { type: "string" } }, required: ["role", "content"] },
    {
      type: "object",
      properties: { role: { enum: ["tool"] }, callId: { type: "string" }, content: { type: "object" } },
      required: ["role", "callId", "content"],
    },
  ],
};

describe("jsonSchemaIssues: anyOf", () => {
  it("accepts a value any branch accepts", () => {
    expect(jsonSchemaIssues(message, { role: "user", content: "q" })).toEqual([]);
    expect(jsonSchemaIssues(message, { role: "tool", callId: "c", content: {} })).toEqual([]);
  });

  it("otherwise reports the issues of the closest branch, with their paths", () => {
    expect(jsonSchemaIssues(message, { role: "tool", content: {} }, ["messages", 1])).toEqual([
      { path: ["messages", 1, "callId"], message: "required" },
    ]);
    expect(jsonSchemaIssues(message, { role: "user", content: 1 })).toEqual([{ path: ["content"], message: "expected string" }]);
  });

  it("an empty anyOf accepts nothing", () => {
    expect(jsonSchemaIssues({ anyOf: [] }, 1)).toHaveLength(1);
  });
});

describe("jsonSchemaIssues: JSON values", () => {
  it("an object without properties is any JSON object: finite numbers, plain objects and arrays inside", () => {
    const schema: JsonSchemaSubset = { type: "object" };
    expect(jsonSchemaIssues(schema, { a: [1, { b: null }] })).toEqual([]);
    for (const value of [{ t: Number.NaN }, { d: new Date(0) }, { u: undefined }, { f: [Number.POSITIVE_INFINITY] }]) {
      expect(jsonSchemaIssues(schema, value)).toEqual([
        { path: [], message: "expected a JSON object (finite numbers, plain objects and arrays)" },
      ]);
    }
  });

  it("a schema without a type is any JSON value", () => {
    expect(jsonSchemaIssues({}, [1, "a", null, { b: true }])).toEqual([]);
    expect(jsonSchemaIssues({ description: "anything" }, [Number.NaN])).toEqual([
      { path: [], message: "expected a JSON value (finite numbers, plain objects and arrays)" },
    ]);
  });
});
