/**
 * A fast-check arbitrary of the values a JSON Schema (draft 2020-12) accepts, for the keywords a
 * schema library writes for plain data: types, `const`, `enum`, `anyOf`/`oneOf`, bounds of numbers,
 * strings and arrays, objects with `properties`/`required`. A keyword it cannot honour (`pattern`,
 * `format`, `$ref`, `allOf`, `multipleOf`…) is reported, not ignored: values that ignore it would not
 * fit the schema.
 */
import * as fc from "fast-check";

/** What the caller throws when a keyword cannot be honoured: the keyword, and where it is (a JSON Pointer, "" at the root). */
export type Undrawable = (keyword: string, at: string) => never;

/** Keywords that say nothing about which values fit. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
/** The keywords read here; any other (not an annotation) is {@link Undrawable}. */
const READ = new Set([
  "type",
  "const",
  "enum",
  "anyOf",
  "oneOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "additionalProperties",
]);
/** How long a drawn string or array may get when the schema sets no maximum. */
const DEFAULT_MAX = 8;

type Schema = Readonly<Record<string, unknown>>;

/**
 * The arbitrary of the values `schema` accepts; `undrawable` is called (and throws) for a keyword it
 * does not read.
 */
export function jsonSchemaArbitrary(schema: unknown, undrawable: Undrawable, at = ""): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue();
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undrawable(`a schema ${String(schema)}`, at);
  const s = schema as Schema;
  for (const keyword of Object.keys(s)) if (!READ.has(keyword) && !ANNOTATIONS.has(keyword)) undrawable(keyword, at);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? undrawable("enum: []", at) : fc.constantFrom(...(s.enum as unknown[]));
  const choices = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (choices !== undefined) {
    const keyword = Array.isArray(s.anyOf) ? "anyOf" : "oneOf";
    // `oneOf`'s "exactly one" holds for the disjoint alternatives schema libraries write (a union of
    // distinct types or literals); overlapping ones would need a filter.
    return fc.oneof(...choices.map((choice, index) => jsonSchemaArbitrary(choice, undrawable, `${at}/${keyword}/${index}`)));
  }
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as unknown[]) : undefined;
  if (types === undefined) return fc.jsonValue();
  return fc.oneof(...types.map((type) => ofType(type, s, undrawable, at)));
}

function ofType(type: unknown, s: Schema, undrawable: Undrawable, at: string): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer(integerBounds(s));
    case "number":
      return fc.double({ ...numberBounds(s), noNaN: true, noDefaultInfinity: true });
    case "string":
      return fc.string({ minLength: count(s.minLength, 0), maxLength: count(s.maxLength, count(s.minLength, 0) + DEFAULT_MAX) });
    case "array":
      return fc.array(s.items === undefined ? fc.jsonValue() : jsonSchemaArbitrary(s.items, undrawable, `${at}/items`), {
        minLength: count(s.minItems, 0),
        maxLength: count(s.maxItems, count(s.minItems, 0) + DEFAULT_MAX),
      });
    case "object":
      return objectOf(s, undrawable, at);
    default:
      return undrawable(`type: ${String(type)}`, at);
  }
}

function objectOf(s: Schema, undrawable: Undrawable, at: string): fc.Arbitrary<unknown> {
  const properties = (typeof s.properties === "object" && s.properties !== null ? s.properties : {}) as Schema;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const missing = required.find((name) => !Object.hasOwn(properties, name));
  // A required key the schema does not describe: any JSON value fits it.
  const described = missing === undefined ? properties : { ...properties, ...Object.fromEntries(required.map((name) => [name, true])) };
  const arbitraries = Object.fromEntries(
    Object.entries(described).map(([name, property]) => [name, jsonSchemaArbitrary(property, undrawable, `${at}/properties/${name}`)]),
  );
  // Extra keys (`additionalProperties` left open) are not drawn: a schema that allows them accepts values without them.
  return fc.record(arbitraries, { requiredKeys: required });
}

function count(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

function integerBounds(s: Schema): { min?: number; max?: number } {
  const bound = (inclusive: unknown, exclusive: unknown, step: 1 | -1): number | undefined => {
    if (typeof exclusive === "number") return step === 1 ? Math.floor(exclusive) + 1 : Math.ceil(exclusive) - 1;
    if (typeof inclusive === "number") return step === 1 ? Math.ceil(inclusive) : Math.floor(inclusive);
    return undefined;
  };
  const min = bound(s.minimum, s.exclusiveMinimum, 1);
  const max = bound(s.maximum, s.exclusiveMaximum, -1);
  return {
    ...(min === undefined ? {} : { min: Math.max(min, Number.MIN_SAFE_INTEGER) }),
    ...(max === undefined ? {} : { max: Math.min(max, Number.MAX_SAFE_INTEGER) }),
  };
}

function numberBounds(s: Schema): { min?: number; max?: number; minExcluded?: boolean; maxExcluded?: boolean } {
  const min = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : typeof s.minimum === "number" ? s.minimum : undefined;
  const max = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : typeof s.maximum === "number" ? s.maximum : undefined;
  return {
    ...(min === undefined ? {} : { min, minExcluded: typeof s.exclusiveMinimum === "number" }),
    ...(max === undefined ? {} : { max, maxExcluded: typeof s.exclusiveMaximum === "number" }),
  };
}
