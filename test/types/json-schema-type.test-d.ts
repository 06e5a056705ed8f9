/**
 * JsonSchemaType reads the type a JSON Schema literal of the examples' subset describes, and
 * jsonSchemaState<T, typeof schema> compiles only when the schema describes exactly T.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { JsonObject, JsonValue } from "../../src/examples/_data.js";
import { jsonSchemaState } from "../../src/examples/_json-schema-state.js";
import type { JsonSchemaType, SameShape } from "../../src/examples/_json-schema-type.js";
import type { AgentState } from "../../src/examples/agent/index.js";

const counter = {
  type: "object",
  properties: { n: { type: "integer" }, tag: { type: ["string", "null"] }, kind: { type: "string", enum: ["a", "b"] } },
  required: ["n", "kind"],
  additionalProperties: false,
} as const;

describe("JsonSchemaType", () => {
  it("reads types, enums, required and optional properties, arrays, anyOf and JSON objects", () => {
    expectTypeOf<JsonSchemaType<typeof counter>>().toEqualTypeOf<{ n: number; kind: "a" | "b"; tag?: string | null }>();
    expectTypeOf<JsonSchemaType<{ type: "array"; items: { type: "boolean" } }>>().toEqualTypeOf<boolean[]>();
    expectTypeOf<JsonSchemaType<{ anyOf: [{ type: "string" }, { type: "null" }] }>>().toEqualTypeOf<string | null>();
    expectTypeOf<JsonSchemaType<{ type: "object" }>>().toEqualTypeOf<JsonObject>();
    expectTypeOf<JsonSchemaType<{ description: "x" }>>().toEqualTypeOf<JsonValue>();
  });

  it("SameShape ignores readonly and tells optional from required", () => {
    expectTypeOf<SameShape<{ n: number }, { readonly n: number }>>().toEqualTypeOf<true>();
    expectTypeOf<SameShape<{ n: number }, { n?: number }>>().toEqualTypeOf<false>();
  });
});

describe("jsonSchemaState<T, S>", () => {
  it("compiles when the schema describes T, and not when it describes another type", () => {
    jsonSchemaState<{ n: number; kind: "a" | "b"; tag?: string | null }, typeof counter>("v", counter);
    // @ts-expect-error: `tag` is optional in the schema (not in `required`)
    jsonSchemaState<{ n: number; kind: "a" | "b"; tag: string | null }, typeof counter>("v", counter);
    // @ts-expect-error: the schema's `kind` is "a" | "b", not any string
    jsonSchemaState<{ n: number; kind: string; tag?: string | null }, typeof counter>("v", counter);
  });

  it("without the schema's literal type, nothing is read (the report's form)", () => {
    jsonSchemaState<AgentState>("v", { type: "object" });
  });
});
