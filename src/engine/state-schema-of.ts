/**
 * A compiled graph's state schema, read back: the validator (for code that checks a state the run did
 * not produce, such as one read from an older checkpoint) and its JSON Schema (for `tsg check --json`
 * and forms).
 */
import type { CompiledGraph } from "./compiled-graph.js";
import { stateJsonSchema } from "./compile-state-schema.js";
import { graphBrandOf } from "./graph-brand.js";
import type { StandardSchemaV1 } from "./state-schema.js";

/**
 * The Standard Schema a graph was declared with (`stateGraph(schema)`, `defineGraph(schema)`), or
 * `undefined` for a graph declared with a type only. Its `~standard.validate` is what the run calls.
 *
 * @example
 * ```ts
 * const schema = stateSchemaOf(graph);
 * const result = schema?.["~standard"].validate(checkpoint.state); // { value } or { issues }
 * ```
 */
export function stateSchemaOf(graph: CompiledGraph<object, string, object>): StandardSchemaV1 | undefined {
  // Through the brand: a graph compiled by another copy of the library (a module tsg loaded) shows it too.
  return graphBrandOf(graph)?.stateSchema;
}

/**
 * The JSON Schema (draft 2020-12) of a graph's state, from its state schema through the Standard JSON
 * Schema interface (`~standard.jsonSchema`: zod 4.6, arktype); `undefined` without a state schema, or
 * when its library offers no conversion (valibot without `@valibot/to-json-schema`).
 *
 * @example
 * ```ts
 * stateJsonSchemaOf(graph); // { type: "object", properties: { amount: { type: "number" }, … }, required: [ … ] }
 * ```
 */
export function stateJsonSchemaOf(graph: CompiledGraph<object, string, object>): Record<string, unknown> | undefined {
  return stateJsonSchema(stateSchemaOf(graph));
}
