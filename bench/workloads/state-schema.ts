/**
 * What a state schema costs (issue 39): the report graph compiled from the same spec and the same node
 * functions, once without a state schema and once with the report state declared in each of zod 4,
 * valibot and arktype, and in the example's own JSON Schema (`reportStateSchema`), so that every superstep's merged state is validated (7 checks a run: the input
 * and 6 supersteps). The ratio to the graph without a schema is the schema's cost, taken in the same
 * rounds. The schemas describe `ReportState` exactly; the verification step checks that each run ends
 * in the mini engine's final state, so a schema that transforms or drops a field cannot be timed.
 */
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";
import { append, compileGraph, type CompiledGraph, type StandardSchemaV1 } from "../../src/index.js";
import {
  buildReportGraph,
  createReportNodes,
  initialReportState,
  reportStateSchema,
  type City,
  type Language,
  type ReportState,
  type ReportStatus,
  type ReviewIssue,
} from "../../src/examples/report/index.js";
import { verify, type VerifiedWorkload } from "../_workload.js";
import { MAX_STEPS, STEPS } from "./report.js";

/** Contender names, as the tables print them. */
export const STATE_SCHEMA = {
  plain: "report graph, no state schema",
  zod: "report graph, zod 4 state schema",
  valibot: "report graph, valibot state schema",
  arktype: "report graph, arktype state schema",
  example: "report graph, the example's own JSON-Schema state (reportStateSchema)",
} as const;

// The example's unions as tuples (its CITIES and friends are typed as arrays, which an enum schema cannot take).
const CITIES = ["Tokyo", "Paris"] as const satisfies readonly City[];
const LANGUAGES = ["en", "zh-CN"] as const satisfies readonly Language[];
const STATUSES = ["working", "completed", "needs_attention"] as const satisfies readonly ReportStatus[];
const REVIEW_ISSUES = [
  "invalid_draft_shape",
  "rows_do_not_match_records_and_units",
  "missing_fixed_data_notice",
] as const satisfies readonly ReviewIssue[];

const zodRow = z.object({
  city: z.enum(CITIES),
  temperature_c: z.number(),
  temperature_f: z.number().nullable(),
  condition: z.string(),
});
const zodDraft = z.object({ rows: z.array(zodRow), notice: z.string() });
/** `ReportState` in zod 4. */
export const zodReportState = z.object({
  cities: z.array(z.enum(CITIES)),
  includeFahrenheit: z.boolean(),
  language: z.enum(LANGUAGES),
  readings: z.array(z.object({ city: z.enum(CITIES), temperature_c: z.number(), condition: z.string(), source: z.string() })),
  draft: zodDraft.nullable(),
  review: z.object({ passed: z.boolean(), issues: z.array(z.enum(REVIEW_ISSUES)), checkedDraft: zodDraft.nullable() }).nullable(),
  revisions: z.number().int().nonnegative(),
  events: z.array(z.string()),
  answer: z.string().nullable(),
  status: z.enum(STATUSES),
});

const valibotRow = v.object({
  city: v.picklist(CITIES),
  temperature_c: v.number(),
  temperature_f: v.nullable(v.number()),
  condition: v.string(),
});
const valibotDraft = v.object({ rows: v.array(valibotRow), notice: v.string() });
/** `ReportState` in valibot. */
export const valibotReportState = v.object({
  cities: v.array(v.picklist(CITIES)),
  includeFahrenheit: v.boolean(),
  language: v.picklist(LANGUAGES),
  readings: v.array(v.object({ city: v.picklist(CITIES), temperature_c: v.number(), condition: v.string(), source: v.string() })),
  draft: v.nullable(valibotDraft),
  review: v.nullable(v.object({ passed: v.boolean(), issues: v.array(v.picklist(REVIEW_ISSUES)), checkedDraft: v.nullable(valibotDraft) })),
  revisions: v.pipe(v.number(), v.integer(), v.minValue(0)),
  events: v.array(v.string()),
  answer: v.nullable(v.string()),
  status: v.picklist(STATUSES),
});

const arktypeDraft = type({
  rows: type({ city: "'Tokyo' | 'Paris'", temperature_c: "number", temperature_f: "number | null", condition: "string" }).array(),
  notice: "string",
});
/** `ReportState` in arktype. */
export const arktypeReportState = type({
  cities: "('Tokyo' | 'Paris')[]",
  includeFahrenheit: "boolean",
  language: "'en' | 'zh-CN'",
  readings: type({ city: "'Tokyo' | 'Paris'", temperature_c: "number", condition: "string", source: "string" }).array(),
  draft: arktypeDraft.or("null"),
  review: type({
    passed: "boolean",
    issues: "('invalid_draft_shape' | 'rows_do_not_match_records_and_units' | 'missing_fixed_data_notice')[]",
    checkedDraft: arktypeDraft.or("null"),
  }).or("null"),
  revisions: "number.integer >= 0",
  events: "string[]",
  answer: "string | null",
  status: "'working' | 'completed' | 'needs_attention'",
});

/**
 * The report graph from the example's own spec and nodes, with `stateSchema` or without one. `compile` is
 * another build's `compileGraph` when a driver compares two builds (bench/paired-chain.ts).
 */
export function reportGraphWith(stateSchema?: StandardSchemaV1, compile: typeof compileGraph = compileGraph): CompiledGraph<ReportState> {
  const nodes = createReportNodes();
  const { routeAfterCheck, ...steps } = nodes;
  return compile<ReportState>({
    spec: buildReportGraph().spec,
    nodes: steps,
    routers: { check_draft: routeAfterCheck },
    reducers: { events: append },
    ...(stateSchema === undefined ? {} : { stateSchema }),
  });
}

/**
 * The report graph without a state schema, with each library's and with the example's own, verified against the example's own
 * graph (same final state), timed in the same rounds; the ratios are to the graph without a schema.
 */
export async function stateSchemaWorkload(): Promise<VerifiedWorkload> {
  const input = initialReportState();
  const expected = (await buildReportGraph().invoke(input, { maxSteps: MAX_STEPS })).state;
  const contender = (name: string, schema?: StandardSchemaV1) => {
    const graph = reportGraphWith(schema);
    return {
      name,
      steps: STEPS,
      baseline: STATE_SCHEMA.plain,
      run: async () => (await graph.invoke(input, { maxSteps: MAX_STEPS })).state,
    };
  };
  const verified = await verify<ReportState>(expected, [
    contender(STATE_SCHEMA.plain),
    contender(STATE_SCHEMA.zod, zodReportState),
    contender(STATE_SCHEMA.valibot, valibotReportState),
    contender(STATE_SCHEMA.arktype, arktypeReportState),
    contender(STATE_SCHEMA.example, reportStateSchema),
  ]);
  return {
    title: "report graph with a state schema validating every superstep (7 checks a run)",
    baseline: STATE_SCHEMA.plain,
    ...verified,
  };
}
