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

/** An update of some of the fields, each value either well-typed or any JSON value. */
export const counterUpdate = fc.record(
  {
    count: fc.oneof(fc.nat(), json),
    label: fc.oneof(fc.string({ maxLength: 7 }), json),
    tags: fc.oneof(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), json),
  },
  { requiredKeys: [] },
);

/** START → [left, right] → last → END, each node returning its planted update; `fields` declared (LangGraph.js needs them). */
export function counterGraph([left, right, last]: readonly [unknown, unknown, unknown]) {
  return stateGraph(Counter)({ reducers: { tags: append }, fields: ["count", "label", "tags"] })
    .addNode("left", () => left as Planted)
    .addNode("right", () => right as Planted)
    .addNode("last", () => last as Planted)
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], "last")
    .addEdge("last", END)
    .compile();
}
