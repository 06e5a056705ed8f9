/**
 * The Standard Schema types the library reads (`@standard-schema/spec`, the interface zod 4, valibot and
 * arktype implement): a graph's state schema and an interrupt's answer schema share this one definition.
 * Types only: the spec package ships no code the library calls.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";

export type { StandardJSONSchemaV1, StandardSchemaV1 };

/**
 * A Standard Schema of a graph's state: an object schema of zod 4 (`z.object`), valibot (`v.object`),
 * arktype (`type({ … })`) or any library that implements Standard Schema 1.x. Its output type is the
 * state the nodes read; its input type is what `invoke` takes.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Ticket = z.object({ amount: z.number(), resolved: z.boolean().default(false) });
 * const schema: StateSchema = Ticket;
 * ```
 */
export type StateSchema<Input extends object = object, Output extends object = Input> = StandardSchemaV1<Input, Output>;

/** The state a {@link StateSchema} holds: its output type. */
export type StateOf<Schema extends StandardSchemaV1> = StandardSchemaV1.InferOutput<Schema>;

/** What `invoke` takes for a {@link StateSchema}: its input type. */
export type InputOf<Schema extends StandardSchemaV1> = StandardSchemaV1.InferInput<Schema>;

/** A graph's state schema, read once at `compile()`: what each run-time check calls. */
export interface StateCheck {
  /** The schema as given (for exporters and `tsg check`). */
  readonly schema: StandardSchemaV1;
  readonly validate: StandardSchemaV1.Props["validate"];
}
