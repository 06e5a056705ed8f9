/**
 * What `compile()` reads of a graph's state schema, once per graph: whether it is a Standard Schema
 * that validates synchronously (the kernel checks states between two supersteps, where nothing may be
 * awaited), and which fields it declares (from its JSON Schema, where the library offers one through
 * `~standard.jsonSchema`), so an unknown field is refused at run time as with `fields`.
 */
import type { GraphProblem } from "../errors.js";
import { START } from "../spec.js";
import { quote } from "../_describe.js";
import { type FieldChecks, isStandardSchema, stateCheckOf, type StateCheck } from "./kernel/state-check.js";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "./state-schema.js";

/** The JSON Schema version the library asks a schema for. */
export const JSON_SCHEMA_TARGET = "draft-2020-12";

/** What is wrong with a definition's `stateSchema` (`INVALID_STATE_SCHEMA`), or nothing. */
export function stateSchemaProblems(schema: unknown): GraphProblem[] {
  const wrong = schemaFault(schema, {});
  return wrong === undefined ? [] : [problem(`the state schema ${wrong}`)];
}

/**
 * What is wrong with a definition's `fieldSchemas` (`INVALID_STATE_SCHEMA`): a value that is not a
 * Standard Schema, one that validates asynchronously, or one for a field the graph does not declare
 * (when it knows its fields).
 */
export function fieldSchemaProblems(
  schemas: Readonly<Record<string, unknown>> | undefined,
  fields: readonly string[] | undefined,
): GraphProblem[] {
  if (schemas === undefined) return [];
  if (typeof schemas !== "object" || schemas === null || Array.isArray(schemas))
    return [problem("fieldSchemas must be an object of Standard Schemas by field name, such as { amount: z.number() }.")];
  const declared = fields === undefined ? undefined : new Set(fields);
  return Object.entries(schemas).flatMap(([field, schema]) => {
    if (declared !== undefined && !declared.has(field))
      return [problem(`fieldSchemas names ${quote(field)}, which is not a field of the state. Name declared fields only.`)];
    const wrong = schemaFault(schema, undefined);
    return wrong === undefined ? [] : [problem(`the schema of field ${quote(field)} ${wrong}`)];
  });
}

/** Why `schema` cannot check a state (or a field), as the end of a sentence; `undefined` when it can. */
function schemaFault(schema: unknown, probeValue: unknown): string | undefined {
  if (schema === undefined) return undefined;
  if (!isStandardSchema(schema))
    return "is not a Standard Schema (an object with `~standard.validate`). Pass a zod 4, valibot or arktype schema, or any Standard Schema 1.x.";
  let probe: unknown;
  try {
    probe = schema["~standard"].validate(probeValue);
  } catch {
    // A schema that throws on the probe says nothing about being asynchronous; a run reports what it throws.
    return undefined;
  }
  if (!(probe instanceof Promise)) return undefined;
  probe.catch(() => undefined);
  return "validates asynchronously (its `validate` returned a Promise); the run checks the state between supersteps, synchronously. Remove async refinements and transforms from it, and check those values in a node.";
}

function problem(message: string): GraphProblem {
  return { code: "INVALID_STATE_SCHEMA", node: START, message };
}

/** The run-time checks of the field schemas `fieldSchemaProblems` accepted; `undefined` for none. */
export function compiledFieldChecks(schemas: Readonly<Record<string, StandardSchemaV1>> | undefined): FieldChecks | undefined {
  const entries = Object.entries(schemas ?? {}).filter(([, schema]) => schema !== undefined);
  return entries.length === 0 ? undefined : new Map(entries.map(([field, schema]) => [field, stateCheckOf(schema)]));
}

/** The run-time check of a schema `stateSchemaProblems` accepted. */
export function compiledStateCheck(schema: StandardSchemaV1 | undefined): StateCheck | undefined {
  return schema === undefined ? undefined : stateCheckOf(schema);
}

/**
 * The state schema's JSON Schema (of its output: the state a checkpoint holds), through the Standard
 * JSON Schema interface; `undefined` when the library offers none or cannot convert this schema.
 *
 * @example
 * ```ts
 * stateJsonSchema(z.object({ n: z.number() })); // { type: "object", properties: { n: { type: "number" } }, … }
 * ```
 */
export function stateJsonSchema(schema: StandardSchemaV1 | undefined): Record<string, unknown> | undefined {
  const converter = (schema?.["~standard"] as Partial<StandardJSONSchemaV1.Props> | undefined)?.jsonSchema;
  if (typeof converter?.output !== "function") return undefined;
  try {
    return converter.output({ target: JSON_SCHEMA_TARGET });
  } catch {
    return undefined;
  }
}

/**
 * The fields a state schema declares, read from its JSON Schema's `properties`; `undefined` when it has
 * no JSON Schema, is not an object schema, or lets other keys through (`additionalProperties` other than
 * `false`: a loose object asked for them).
 */
export function schemaFields(schema: StandardSchemaV1 | undefined): string[] | undefined {
  const json = stateJsonSchema(schema);
  if (json === undefined || json.type !== "object") return undefined;
  const { properties, additionalProperties, patternProperties } = json;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return undefined;
  if ((additionalProperties !== undefined && additionalProperties !== false) || patternProperties !== undefined) return undefined;
  return Object.keys(properties);
}
