/**
 * The report state as a schema: `buildReportGraph` declares its state with it, so every state a run
 * commits is checked (a reader's record, a draft, a review), and `tsg check --json`, `tsg inspect` and the
 * exporters read its JSON Schema. Written as a JSON Schema the example carries itself (no zod at run time:
 * `npx tsg report` needs nothing but the package).
 */
import { type JsonSchemaState, type JsonSchemaSubset, jsonSchemaState } from "../_json-schema-state.js";
import { CITIES, LANGUAGES } from "./data.js";
import { REVIEW_ISSUES } from "./review.js";
import type { REPORT_FIELDS, ReportState } from "./state.js";

const text: JsonSchemaSubset = { type: "string" };
const city: JsonSchemaSubset = { type: "string", enum: CITIES };
const temperature: JsonSchemaSubset = { type: "number" };

const draft: JsonSchemaSubset = {
  type: "object",
  properties: {
    rows: {
      type: "array",
      items: object({ city, temperature_c: temperature, temperature_f: { type: ["number", "null"] }, condition: text }),
    },
    notice: text,
  },
  required: ["rows", "notice"],
  additionalProperties: false,
};

function object(properties: Record<string, JsonSchemaSubset>): JsonSchemaSubset {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

const nullable = (schema: JsonSchemaSubset): JsonSchemaSubset => ({ ...schema, type: ["object", "null"] });

/** Each field of {@link ReportState}, as JSON Schema. */
const FIELDS = {
  cities: { type: "array", items: city, description: "One or two of Tokyo and Paris, in display order." },
  includeFahrenheit: { type: "boolean", description: "Show °F next to °C." },
  language: { type: "string", enum: LANGUAGES },
  readings: { type: "array", items: object({ city, temperature_c: temperature, condition: text, source: text }) },
  draft: nullable(draft),
  review: nullable(
    object({
      passed: { type: "boolean" },
      issues: { type: "array", items: { type: "string", enum: REVIEW_ISSUES } },
      checkedDraft: nullable(draft),
    }),
  ),
  revisions: { type: "integer", minimum: 0 },
  events: { type: "array", items: text },
  answer: { type: ["string", "null"] },
  status: { type: "string", enum: ["working", "completed", "needs_attention"] },
} satisfies Record<(typeof REPORT_FIELDS)[number], JsonSchemaSubset>;

/**
 * The report state's schema: a Standard Schema (`~standard.validate`) that also offers its JSON Schema
 * (`~standard.jsonSchema`), with no dependency. The graph refuses, with `INVALID_STATE`, a superstep
 * whose state it does not accept, and with `INVALID_INPUT` such an input.
 *
 * @example
 * ```ts
 * reportStateSchema["~standard"].validate(initialReportState()); // { value: … }
 * reportStateSchema["~standard"].validate({ ...initialReportState(), revisions: -1 }).issues; // [{ path: ["revisions"], … }]
 * ```
 */
export const reportStateSchema: JsonSchemaState<ReportState> = jsonSchemaState<ReportState>("typed-state-graph/examples", {
  ...object(FIELDS),
  description: "The state of one report run.",
});
