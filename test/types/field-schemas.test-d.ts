/**
 * Per-field schemas (issue 39): `fieldSchemas` takes, per field of the state (inferred from a state
 * schema or given as a type), a Standard Schema whose output the field can hold, with zod 4, valibot and
 * arktype; `z.object`'s `shape` fits as it is. A schema of the wrong type, or for a field the state does
 * not have, does not compile.
 */
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { append, END, START, defineGraph, stateGraph, type FieldSchemasFor } from "../../src/index.js";

interface Ticket {
  amount: number;
  resolved: boolean;
  notes: string[];
}

const zodTicket = z.object({ amount: z.number(), resolved: z.boolean(), notes: z.array(z.string()) });

describe("fieldSchemas", () => {
  it("takes a schema per field from zod 4, valibot and arktype, on a state given as a type", () => {
    stateGraph<Ticket>()({ fieldSchemas: { amount: z.number().nonnegative(), notes: v.array(v.string()), resolved: type("boolean") } });
    // @ts-expect-error - amount is a number: a string schema's output does not fit it
    stateGraph<Ticket>()({ fieldSchemas: { amount: z.string() } });
    // @ts-expect-error - "amout" is not a field of the state
    stateGraph<Ticket>()({ fieldSchemas: { amout: z.number() } });
  });

  it("takes a z.object's shape, on the state the same schema infers", () => {
    const graph = stateGraph(zodTicket)({ reducers: { notes: append }, fieldSchemas: zodTicket.shape })
      .addNode("settle", (s) => {
        expectTypeOf(s).toEqualTypeOf<Ticket>();
        return { amount: s.amount + 1 };
      })
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
    graph.invoke({ amount: 1, resolved: false, notes: [] });
    // @ts-expect-error - notes holds strings
    stateGraph(zodTicket)({ fieldSchemas: { notes: z.array(z.number()) } });
  });

  it("is typed the same way in defineGraph", () => {
    defineGraph<Ticket>()({
      fieldSchemas: { amount: v.pipe(v.number(), v.minValue(0)) },
      nodes: { settle: () => ({ resolved: true }) },
      edges: [
        [START, "settle"],
        ["settle", END],
      ],
    });
    defineGraph<Ticket>()({
      // @ts-expect-error - resolved is a boolean
      fieldSchemas: { resolved: type("string") },
      nodes: { settle: () => ({ resolved: true }) },
      edges: [
        [START, "settle"],
        ["settle", END],
      ],
    });
  });

  it("FieldSchemasFor: every key optional, each a Standard Schema of the field's type", () => {
    expectTypeOf<{ amount: z.ZodNumber }>().toExtend<FieldSchemasFor<Ticket>>();
    expectTypeOf<{}>().toExtend<FieldSchemasFor<Ticket>>();
    expectTypeOf<{ amount: z.ZodString }>().not.toExtend<FieldSchemasFor<Ticket>>();
  });
});
