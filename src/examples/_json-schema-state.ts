/**
 * A state schema the examples carry without a runtime dependency: the state written once as a JSON
 * Schema (a small subset of draft 2020-12), offered as a Standard Schema whose `validate` checks a value
 * against that JSON Schema and whose `~standard.jsonSchema` returns it. The published examples can then
 * declare their state with a schema (`stateGraph(schema)`) and `npx tsg report` needs nothing more than
 * the package: zod, valibot and arktype stay optional. Only the keywords the examples use are read.
 */
import type { StandardJSONSchemaV1 } from "@standard-schema/spec";
import type { StandardSchemaV1 } from "../index.js";
import { isJsonObject, isJsonValue, isRecord } from "./_data.js";
import type { JsonSchemaType, SameShape } from "./_json-schema-type.js";

/** The JSON types the subset knows. */
export type JsonType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

/**
 * The JSON Schema subset: `type`, `enum`, `minimum`, `properties` + `required` + `additionalProperties: false`,
 * `items`, `anyOf`. Values are JSON: an object without `properties` is any JSON object, a schema with
 * none of `type`, `enum` and `anyOf` any JSON value (finite numbers, no `undefined`, no class instances).
 */
export interface JsonSchemaSubset {
  readonly anyOf?: readonly JsonSchemaSubset[];
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
  if (schema.anyOf !== undefined) return closestBranchIssues(schema.anyOf, value, path);
  const types = schema.type === undefined ? [] : typeof schema.type === "string" ? [schema.type] : schema.type;
  if (types.length > 0 && !types.some((type) => TYPE_OF[type](value))) {
    return [{ path, message: `expected ${types.join(" or ")}` }];
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => option === value)) {
    return [{ path, message: `expected one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}` }];
  }
  if (types.length === 0 && schema.enum === undefined && !isJsonValue(value)) {
    return [{ path, message: "expected a JSON value (finite numbers, plain objects and arrays)" }];
  }
  if (schema.minimum !== undefined && typeof value === "number" && value < schema.minimum) {
    return [{ path, message: `expected a number ≥ ${schema.minimum}` }];
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    return value.flatMap((item, index) => jsonSchemaIssues(items, item, [...path, index]));
  }
  if (isRecord(value) && schema.properties === undefined) {
    return isJsonObject(value) ? [] : [{ path, message: "expected a JSON object (finite numbers, plain objects and arrays)" }];
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
 * A value fits `anyOf` when it fits one branch; otherwise the issues of the branch it comes closest to
 * (the fewest issues, the first on a tie), so a message of the wrong shape is told what its own kind lacks.
 */
function closestBranchIssues(
  branches: readonly JsonSchemaSubset[],
  value: unknown,
  path: readonly PropertyKey[],
): StandardSchemaV1.Issue[] {
  let closest: StandardSchemaV1.Issue[] | undefined;
  for (const branch of branches) {
    const issues = jsonSchemaIssues(branch, value, path);
    if (issues.length === 0) return issues;
    if (closest === undefined || issues.length < closest.length) closest = issues;
  }
  return closest ?? [{ path, message: "expected one of no branches (an empty anyOf accepts nothing)" }];
}

/**
 * `unknown` when the schema literal `S` describes exactly `T` (or `S` is not a literal: nothing to read),
 * else a property no schema has, so that the call does not compile and the error names the type found.
 */
export type DescribesState<T, S> = JsonSchemaSubset extends S
  ? unknown
  : SameShape<T, JsonSchemaType<S>> extends true
    ? unknown
    : { readonly "the schema describes another type than the state": JsonSchemaType<S> };

/**
 * The Standard Schema of a state written as a JSON Schema. `T` is the TypeScript type the JSON Schema
 * describes. Pass the schema's literal type as `S` (a schema written `as const`) and the call compiles
 * only if the schema describes exactly `T` ({@link JsonSchemaType}): the interface and the schema cannot
 * drift apart. Without `S` the examples' tests keep the two in step (every example's run fits, a wrong
 * value of each field is refused). The value is returned as it is (no copy, no defaults).
 *
 * @example
 * ```ts
 * const Counter = jsonSchemaState<{ n: number }>("counter", {
 *   type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false,
 * });
 * Counter["~standard"].validate({ n: "1" }); // { issues: [{ path: ["n"], message: "expected integer" }] }
 * ```
 */
export function jsonSchemaState<T, S extends JsonSchemaSubset = JsonSchemaSubset>(
  vendor: string,
  described: S & DescribesState<T, S>,
): JsonSchemaState<T> {
  const schema: JsonSchemaSubset = described;
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
