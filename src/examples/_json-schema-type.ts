/**
 * The TypeScript type a JSON Schema of the examples' subset describes, read from the schema literal
 * (`as const`): what lets an example check its state's interface against its schema at compile time, so
 * the two cannot drift apart. Type-level only; the checker of a value is `_json-schema-state.ts`.
 */
import type { JsonObject, JsonValue } from "./_data.js";

/**
 * The type of the values a JSON Schema (of the subset, written `as const`) accepts: `anyOf` is a
 * union, `enum` its members, `properties` an object whose `required` keys are required and the others
 * optional, `items` an array of them; an object without `properties` is any {@link JsonObject}, and a
 * schema without `type` any {@link JsonValue}.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
 * type Counter = JsonSchemaType<typeof schema>; // { n: number }
 * ```
 */
export type JsonSchemaType<S> = S extends { readonly anyOf: readonly (infer Branch)[] }
  ? JsonSchemaType<Branch>
  : S extends { readonly enum: readonly (infer Member)[] }
    ? Member
    : S extends { readonly type: infer Type }
      ? Type extends readonly (infer Each)[]
        ? TypeNamed<Each, S>
        : TypeNamed<Type, S>
      : JsonValue;

type TypeNamed<Name, S> = Name extends "string"
  ? string
  : Name extends "number" | "integer"
    ? number
    : Name extends "boolean"
      ? boolean
      : Name extends "null"
        ? null
        : Name extends "array"
          ? S extends { readonly items: infer Items }
            ? JsonSchemaType<Items>[]
            : JsonValue[]
          : Name extends "object"
            ? ObjectOf<S>
            : never;

type ObjectOf<S> = S extends { readonly properties: infer Properties }
  ? Flat<
      { -readonly [K in keyof Properties & RequiredOf<S>]: JsonSchemaType<Properties[K]> } & {
        -readonly [K in Exclude<keyof Properties, RequiredOf<S>>]?: JsonSchemaType<Properties[K]>;
      }
    >
  : JsonObject;

type RequiredOf<S> = S extends { readonly required: readonly (infer Key)[] } ? Key : never;

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * `true` when `A` and `B` accept the same values (each assignable to the other), else `false`.
 *
 * @example
 * ```ts
 * type Yes = SameShape<{ n: number }, { readonly n: number }>; // true
 * type No = SameShape<{ n: number }, { n?: number }>; // false
 * ```
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
