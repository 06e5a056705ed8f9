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

/** Whether a value fits a schema: {@link jsonSchemaIssues} returns no issue for it, without building any. */
export type JsonSchemaFit = (value: unknown) => boolean;

/**
 * `schema` compiled once into a predicate that answers what `jsonSchemaIssues(schema, value).length === 0`
 * answers, keyword by keyword in the same order, without the issue lists, paths and copies that walk
 * builds: a state that fits (every state of a correct run) is checked at a fraction of the cost, and only
 * a refused one pays for its issues.
 *
 * @example
 * ```ts
 * const fits = compileJsonSchemaFit({ type: "array", items: { type: "string" } });
 * fits(["a"]); // true
 * fits(["a", 1]); // false: jsonSchemaIssues says where
 * ```
 */
export function compileJsonSchemaFit(schema: JsonSchemaSubset): JsonSchemaFit {
  if (schema.anyOf !== undefined) return anyOf(schema.anyOf.map(compileJsonSchemaFit)); // none: accepts nothing
  const checks: JsonSchemaFit[] = [];
  const types = (schema.type === undefined ? [] : typeof schema.type === "string" ? [schema.type] : schema.type).map(
    (type) => TYPE_OF[type],
  );
  if (types.length > 0) checks.push(anyOf(types));
  if (schema.enum !== undefined) checks.push(anyOf(schema.enum.map((option) => (value: unknown) => option === value)));
  // Neither a type nor an enum: any JSON value.
  if (types.length === 0 && schema.enum === undefined) checks.push(isJsonValue);
  const minimum = schema.minimum;
  // `!(value < minimum)`: NaN passes, as in jsonSchemaIssues.
  if (minimum !== undefined) checks.push((value) => typeof value !== "number" || !(value < minimum));
  // As in jsonSchemaIssues: an array is checked by `items` alone; a record by its properties, or, without
  // any, as a JSON object.
  const items = schema.items === undefined ? undefined : compileJsonSchemaFit(schema.items);
  const properties = schema.properties === undefined ? undefined : compileProperties(schema);
  checks.push((value) => {
    if (Array.isArray(value)) {
      if (items !== undefined) for (const item of value) if (!items(item)) return false;
      return true;
    }
    if (!isRecord(value)) return true;
    return properties === undefined ? isJsonObject(value) : properties(value);
  });
  return allOf(checks);
}

/** The `properties`, `required` and `additionalProperties: false` of an object schema, compiled. */
function compileProperties(schema: JsonSchemaSubset): (value: Record<string, unknown>) => boolean {
  const required = new Set(schema.required);
  const properties = Object.entries(schema.properties ?? {}).map(
    ([key, property]) => ({ key, fits: compileJsonSchemaFit(property), required: required.delete(key) }) as const,
  );
  const requiredOnly = [...required]; // required keys without a property schema
  const known = schema.additionalProperties === false ? new Set(Object.keys(schema.properties ?? {})) : undefined;
  return (value) => {
    for (const { key, fits, required } of properties) {
      if (Object.hasOwn(value, key) ? !fits(value[key]) : required) return false;
    }
    for (const key of requiredOnly) if (!Object.hasOwn(value, key)) return false;
    // for…in, not Object.keys: no array built; an inherited key is skipped as Object.keys skips it.
    if (known !== undefined) for (const key in value) if (!known.has(key) && Object.hasOwn(value, key)) return false;
    return true;
  };
}

function anyOf(checks: readonly JsonSchemaFit[]): JsonSchemaFit {
  const [only] = checks;
  if (checks.length === 1 && only !== undefined) return only;
  return (value) => {
    for (const check of checks) if (check(value)) return true;
    return false;
  };
}

function allOf(checks: readonly JsonSchemaFit[]): JsonSchemaFit {
  const [only] = checks;
  if (checks.length === 1 && only !== undefined) return only;
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
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
  // Compiled once per schema: every state a run commits is validated, so the fitting case must be cheap.
  const fitsSchema = compileJsonSchemaFit(schema);
  const fits = (value: unknown): value is T => fitsSchema(value);
  const json = (): Record<string, unknown> => structuredClone({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema });
  return {
    "~standard": {
      version: 1,
      vendor,
      validate: (value: unknown) => (fits(value) ? { value } : { issues: jsonSchemaIssues(schema, value) }),
      jsonSchema: { input: json, output: json },
    },
  };
}
