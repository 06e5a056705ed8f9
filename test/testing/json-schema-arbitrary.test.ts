/**
 * The answers generator: every value drawn from a schema's JSON Schema is one the schema accepts
 * (zod 4 and arktype, which both offer a JSON Schema), and a keyword it cannot honour is reported.
 */
import { type } from "arktype";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { StandardSchemaV1 } from "../../src/index.js";
import { jsonSchemaArbitrary } from "../../src/testing/_internals/json-schema-arbitrary.js";

const refuse = (keyword: string, at: string): never => {
  throw new Error(`undrawable ${keyword} at ${at}`);
};

function drawnFit(schema: StandardSchemaV1 & { "~standard": { jsonSchema?: { input(o: { target: string }): unknown } } }) {
  const json = schema["~standard"].jsonSchema?.input({ target: "draft-2020-12" });
  fc.assert(
    fc.property(jsonSchemaArbitrary(json, refuse), (value) => {
      const result = schema["~standard"].validate(value);
      expect(result).not.toBeInstanceOf(Promise);
      expect((result as StandardSchemaV1.Result<unknown>).issues).toBeUndefined();
    }),
    { numRuns: 200, seed: 11 },
  );
}

describe("jsonSchemaArbitrary draws values the schema accepts", () => {
  it.each([
    ["a boolean", z.boolean()],
    [
      "an object with optional, bounded and literal fields",
      z.object({ ok: z.boolean(), n: z.number().int().min(-3).max(9), note: z.string().min(1).max(5).optional(), kind: z.literal("x") }),
    ],
    ["exclusive bounds", z.object({ p: z.number().gt(0).lt(1), k: z.number().int().gt(2).lt(6) })],
    [
      "a union, an enum and nullable values",
      z.union([z.object({ tag: z.literal("a"), v: z.null() }), z.enum(["b", "c"]), z.string().nullable()]),
    ],
    [
      "arrays with bounds",
      z
        .array(z.object({ id: z.string() }))
        .min(1)
        .max(3),
    ],
  ])("zod 4: %s", (_name, schema) => drawnFit(schema));

  it("arktype", () => drawnFit(type({ approved: "boolean", "note?": "string", count: "0 <= number.integer <= 4" })));

  it("reports a keyword it cannot honour, with where it is", () => {
    expect(() => jsonSchemaArbitrary({ type: "object", properties: { code: { type: "string", format: "email" } } }, refuse)).toThrow(
      "undrawable format at /properties/code",
    );
    expect(() => jsonSchemaArbitrary({ allOf: [{ type: "string" }] }, refuse)).toThrow("undrawable allOf at ");
    expect(() => jsonSchemaArbitrary({ enum: [] }, refuse)).toThrow("undrawable enum: []");
  });
});
