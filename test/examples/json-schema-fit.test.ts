/**
 * The examples' JSON-Schema state checks a fitting state with a predicate compiled once per schema
 * (`compileJsonSchemaFit`) and builds issues only for a refused one: the predicate must accept exactly
 * the values `jsonSchemaIssues` finds nothing wrong with, on the report state's own schema (real states,
 * each with one value replaced) and on arbitrary schemas of the subset, `anyOf` and schemas with no type
 * (any JSON value) included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileJsonSchemaFit, type JsonSchemaSubset, type JsonType, jsonSchemaIssues } from "../../src/examples/_json-schema-state.js";
import { buildReportGraph, initialReportState, reportStateSchema } from "../../src/examples/report/index.js";

const TYPES: readonly JsonType[] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** Values near what the schemas describe: JSON values, with numbers that break `integer`, `minimum` and finiteness. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<unknown>(null, true, false, "a", "b", 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, undefined),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** The keywords of one schema of the subset that hold no schema; with none, it accepts any JSON value. */
const leafKeywords = {
  type: fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { maxLength: 3 })),
  enum: fc.array(fc.constantFrom<string | number | boolean | null>("a", "b", 0, 1.5, true, null), { maxLength: 3 }),
  minimum: fc.constantFrom(-1, 0, 1),
  required: fc.uniqueArray(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
  additionalProperties: fc.constant(false as const),
};

/** Schemas of the subset (`anyOf` included), over the keys and values {@link value} draws, at most 3 deep. */
const schema: fc.Arbitrary<JsonSchemaSubset> = fc.letrec<{ schema: JsonSchemaSubset }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthSize: "small" },
    fc.record(leafKeywords, { requiredKeys: [] }),
    fc.record(
      {
        ...leafKeywords,
        properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("schema"), { maxKeys: 3 }),
        items: tie("schema"),
      },
      { requiredKeys: [] },
    ),
    fc.record({ anyOf: fc.array(tie("schema"), { maxLength: 3 }) }),
  ),
})).schema;

const fitsAsIssuesSay = (subset: JsonSchemaSubset, candidate: unknown): boolean =>
  compileJsonSchemaFit(subset)(candidate) === (jsonSchemaIssues(subset, candidate).length === 0);

describe("compileJsonSchemaFit", () => {
  it("accepts exactly what jsonSchemaIssues finds nothing wrong with, on arbitrary schemas of the subset", () => {
    fc.assert(
      fc.property(schema, value, (subset, candidate) => fitsAsIssuesSay(subset, candidate)),
      { numRuns: 3000 },
    );
  });

  it("agrees with jsonSchemaIssues on the report state: every committed state, and each with one value replaced", async () => {
    const report = reportStateSchema["~standard"].jsonSchema.output({ target: "draft-2020-12" }) as JsonSchemaSubset;
    const { steps } = await buildReportGraph({ maxRevisions: 1 }).invoke(initialReportState(), { maxSteps: 30 });
    const states = steps.map((step) => step.state as unknown as Record<string, unknown>);
    for (const state of states) expect(compileJsonSchemaFit(report)(state)).toBe(true);
    const replaced = fc
      .tuple(fc.constantFrom(...states), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), value)
      .map(([state, turns, replacement]) => replaceAt(state, turns, replacement));
    fc.assert(
      fc.property(replaced, (candidate) => fitsAsIssuesSay(report, candidate)),
      { numRuns: 3000 },
    );
  });

  it("leaves the report state's validate answering as before: the state itself when it fits, every issue when not", () => {
    const validate = reportStateSchema["~standard"].validate;
    const state = initialReportState();
    expect(validate(state)).toEqual({ value: state });
    expect(validate({ ...state, revisions: -1, language: "fr" })).toEqual({
      issues: [
        { path: ["language"], message: 'expected one of "en", "zh-CN"' },
        { path: ["revisions"], message: "expected a number ≥ 0" },
      ],
    });
  });
});

/** `root` with the value found by walking `turns` (each an index into the keys there) replaced by `replacement`. */
function replaceAt(root: unknown, turns: readonly number[], replacement: unknown): unknown {
  const [turn, ...rest] = turns;
  if (turn === undefined || typeof root !== "object" || root === null) return replacement;
  const keys = Object.keys(root);
  if (keys.length === 0) return replacement;
  const at = turn % keys.length;
  if (Array.isArray(root)) return root.map((item: unknown, index) => (index === at ? replaceAt(item, rest, replacement) : item));
  return Object.fromEntries(
    Object.entries(root).map(([key, item], index) => [key, index === at ? replaceAt(item, rest, replacement) : item]),
  );
}
