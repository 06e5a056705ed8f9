/**
 * A state schema the examples carry without a runtime dependency: the state written once as a JSON
 * Schema (a small subset of draft 2020-12), offered as a Standard Schema whose `validate` checks a value
 * against that JSON Schema and whose `~standard.jsonSchema` returns it. The published examples can then
 * declare their state with a schema (`stateGraph(schema)`) and `npx tsg report` needs nothing more than
 * the package: zod, valibot and arktype stay optional. Only the keywords the examples use are read.
 */
import type { StandardJSONSchemaV1 } from "@standard-schema/spec";
import type { StandardSchemaV1 } from "../index.js";
import { isRecord } from "./_data.js";

/** The JSON types the subset knows. */
export type JsonType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

/** The JSON Schema subset: `type`, `enum`, `minimum`, `properties` + `required` + `additionalProperties: false`, `items`. */
export interface JsonSchemaSubset {
  readonly type?: JsonType | readonly JsonType[];
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly minimum?: number;
  readonly properties?: Readonly<Record<string, JsonSchemaSubset>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: false;
  readonly items?: JsonSchemaSubset;
  readonly description?: string;
}

/** A Standard Schema that also offers its JSON Schema (the Standard JSON Schema interface). */
export interface JsonSchemaState<T> extends StandardSchemaV1<T, T> {
  readonly "~standard": StandardSchemaV1.Props<T, T> & StandardJSONSchemaV1.Props<T, T>;
}

const TYPE_OF: Record<JsonType, (value: unknown) => boolean> = {
  object: isRecord,
  array: Array.isArray,
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
  null: (value) => value === null,
};

/** Every place `value` breaks `schema`, with its path (empty: it fits). */
export function jsonSchemaIssues(schema: JsonSchemaSubset, value: unknown, path: readonly PropertyKey[] = []): StandardSchemaV1.Issue[] {
  const types = schema.type === undefined ? [] : typeof schema.type === "string" ? [schema.type] : schema.type;
  if (types.length > 0 && !types.some((type) => TYPE_OF[type](value))) {
    return [{ path, message: `expected ${types.join(" or ")}` }];
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => option === value)) {
    return [{ path, message: `expected one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}` }];
  }
  if (schema.minimum !== undefined && typeof value === "number" && value < schema.minimum) {
    return [{ path, message: `expected a number ≥ ${schema.minimum}` }];
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    return value.flatMap((item, index) => jsonSchemaIssues(items, item, [...path, index]));
  }
  if (isRecord(value) && schema.properties !== undefined) {
    const { properties } = schema;
    const missing = (schema.required ?? []).filter((key) => !Object.hasOwn(value, key));
    const unknown = schema.additionalProperties === false ? Object.keys(value).filter((key) => !Object.hasOwn(properties, key)) : [];
    return [
      ...missing.map((key) => ({ path: [...path, key], message: "required" })),
      ...unknown.map((key) => ({ path: [...path, key], message: "not a field of this object" })),
      ...Object.entries(properties).flatMap(([key, property]) =>
        Object.hasOwn(value, key) ? jsonSchemaIssues(property, value[key], [...path, key]) : [],
      ),
    ];
  }
  return [];
}

/**
 * The Standard Schema of a state written as a JSON Schema. `T` is the TypeScript type the JSON Schema
 * describes: the examples' tests run every example through it and refuse a wrong value of each field,
 * which is what keeps the two in step. The value is returned as it is (no copy, no defaults).
 *
 * @example
 * ```ts
 * const Counter = jsonSchemaState<{ n: number }>("counter", {
 *   type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false,
 * });
 * Counter["~standard"].validate({ n: "1" }); // { issues: [{ path: ["n"], message: "expected integer" }] }
 * ```
 */
export function jsonSchemaState<T>(vendor: string, schema: JsonSchemaSubset): JsonSchemaState<T> {
  const fits = (value: unknown, issues: readonly StandardSchemaV1.Issue[]): value is T => issues.length === 0;
  const json = (): Record<string, unknown> => structuredClone({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema });
  return {
    "~standard": {
      version: 1,
      vendor,
      validate: (value: unknown) => {
        const issues = jsonSchemaIssues(schema, value);
        return fits(value, issues) ? { value } : { issues };
      },
      jsonSchema: { input: json, output: json },
    },
  };
}
