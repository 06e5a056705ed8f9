/**
 * One state declared with each Standard Schema library the tests cover (zod 4, valibot, arktype): a
 * ticket `{ amount: number, resolved: boolean, notes: string[] }`, with `notes` an `append` field.
 */
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";
import { append, END, START, stateGraph } from "../../src/index.js";
import type { StandardSchemaV1 } from "../../src/engine/state-schema.js";

/** The state every schema below describes. */
export interface Ticket {
  amount: number;
  resolved: boolean;
  notes: string[];
}

export const zodTicket = z.object({ amount: z.number(), resolved: z.boolean(), notes: z.array(z.string()) });
export const valibotTicket = v.object({ amount: v.number(), resolved: v.boolean(), notes: v.array(v.string()) });
export const arktypeTicket = type({ amount: "number", resolved: "boolean", notes: "string[]" });

/** Each library's ticket schema, by name, for `it.each`. */
export const ticketSchemas: readonly (readonly [string, StandardSchemaV1<Ticket, Ticket>])[] = [
  ["zod", zodTicket],
  ["valibot", valibotTicket],
  ["arktype", arktypeTicket],
];

const ticketBuilder = () => stateGraph<Ticket>()({ reducers: { notes: append } });

/**
 * open → settle → END on a ticket builder (`notes` an `append` field): `open` notes it opened,
 * `settle` writes `planted` as the amount (a model's output, say) and notes it settled.
 */
export function openAndSettle(
  builder: ReturnType<typeof ticketBuilder>,
  planted: unknown = 2,
  compile: { interruptBefore?: "settle"[] } = {},
) {
  return builder
    .addNode("open", () => ({ notes: ["opened"] }))
    .addNode("settle", () => ({ amount: planted as number, notes: ["settled"] }))
    .addEdge(START, "open")
    .addEdge("open", "settle")
    .addEdge("settle", END)
    .compile(compile);
}
