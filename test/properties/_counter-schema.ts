/**
 * The state-schema properties' graph: a zod 4 schema, updates planted with any JSON, and the
 * START → [left, right] → last → END graph whose nodes return them. Shared by the mini engine's
 * property (state-schema.property.test.ts) and the LangGraph runner's (driver-equivalence.test.ts).
 */
import { fc } from "@fast-check/vitest";
import { z } from "zod";
import { append, END, START, stateGraph } from "../../src/index.js";
import { json } from "./arbitraries.js";

export const Counter = z.object({ count: z.number().int().min(0), label: z.string().max(5), tags: z.array(z.string()) });
export const counterStart = { count: 0, label: "", tags: [] };
/** What a node claims to return: typed fields, none surely written (the values are planted, any JSON). */
type Planted = Partial<z.output<typeof Counter>>;

/** A field's planted value: mostly well-typed (3 in 4), else any JSON value. */
const planted = <T>(typed: fc.Arbitrary<T>) => fc.oneof({ arbitrary: typed, weight: 3 }, { arbitrary: json, weight: 1 });
const plantedFields = {
  count: planted(fc.nat()),
  label: planted(fc.string({ maxLength: 7 })),
  tags: planted(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
};

/** An update of some of the fields, each value either well-typed or any JSON value. */
export const counterUpdate = fc.record(plantedFields, { requiredKeys: [] });

/**
 * Three updates the schema accepts together: `left` and `right` write different fields without a
 * reducer (no CONCURRENT_WRITE), every value well-typed and in range, so the run commits.
 */
const acceptedUpdates = fc.tuple(
  fc.record({ count: fc.nat(), tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }) }, { requiredKeys: [] }),
  fc.record({ label: fc.string({ maxLength: 5 }), tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }) }, { requiredKeys: [] }),
  fc.record({ count: fc.nat(), label: fc.string({ maxLength: 5 }) }, { requiredKeys: [] }),
);

/**
 * The updates of START → [left, right] → last, half of them (by weight) accepted by construction and
 * half planted: planted updates alone reach an accepted state rarely (2 in 300 runs), so without the
 * accepted half the property's success branch would go almost untested.
 */
export const counterUpdates = fc.oneof(
  { arbitrary: acceptedUpdates, weight: 1 },
  { arbitrary: fc.tuple(counterUpdate, counterUpdate, counterUpdate), weight: 1 },
);

/** A {@link counterUpdate} that now and then (1 in 10) also writes a field the state does not have. */
export const counterUpdateOrUnknown = fc
  .tuple(counterUpdate, fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: json, weight: 1 }))
  .map(([update, unknown]) => (unknown === undefined ? update : { ...update, unknown }));

/** `label`'s own schema: its updates are checked alone, before the merge (`INVALID_FIELD`). */
export const counterFieldSchemas = { label: Counter.shape.label };

/**
 * START → [left, right] → last → END, each node returning its planted update; `fields` declared
 * (LangGraph.js needs them); with `fieldSchemas`, `label`'s updates checked on their own too.
 */
export function counterGraph([left, right, last]: readonly [unknown, unknown, unknown], fieldSchemas?: typeof counterFieldSchemas) {
  return stateGraph(Counter)({ reducers: { tags: append }, fields: ["count", "label", "tags"], ...(fieldSchemas && { fieldSchemas }) })
    .addNode("left", () => left as Planted)
    .addNode("right", () => right as Planted)
    .addNode("last", () => last as Planted)
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], "last")
    .addEdge("last", END)
    .compile();
}
