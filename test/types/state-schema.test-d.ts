/**
 * A state declared with a Standard Schema (issue 39 §1): `stateGraph(schema)({ reducers })` and
 * `defineGraph(schema)({ … })` infer the state from the schema, with zod 4, valibot and arktype: the
 * nodes read the schema's output type, `invoke` takes its input type, reducers are checked against its
 * fields, and a graph declared with a plain interface keeps its types.
 */
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { append, END, START, defineGraph, stateGraph, type CompiledGraph, type RunResult } from "../../src/index.js";

interface Ticket {
  amount: number;
  resolved: boolean;
  notes: string[];
}

const zodTicket = z.object({ amount: z.number(), resolved: z.boolean().default(false), notes: z.array(z.string()) });
const valibotTicket = v.object({ amount: v.number(), resolved: v.optional(v.boolean(), false), notes: v.array(v.string()) });
const arktypeTicket = type({ amount: "number", resolved: "boolean = false", notes: "string[]" });

describe("stateGraph(schema)", () => {
  it("infers the state from a zod 4 schema: nodes read its output, invoke takes its input", () => {
    const graph = stateGraph(zodTicket)({ reducers: { notes: append } })
      .addNode("settle", (s) => {
        expectTypeOf(s).toEqualTypeOf<{ amount: number; resolved: boolean; notes: string[] }>();
        return { resolved: true, notes: ["settled"] };
      })
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
    graph.invoke({ amount: 1, notes: [] }); // resolved has a default: the input may leave it out
    expectTypeOf(graph.invoke({ amount: 1, notes: [] })).resolves.toEqualTypeOf<
      RunResult<{ amount: number; resolved: boolean; notes: string[] }, "settle">
    >();
    // @ts-expect-error - amount is a number in the schema
    graph.invoke({ amount: "1", notes: [] });
  });

  it("infers the state from a valibot schema", () => {
    const graph = stateGraph(valibotTicket)({ reducers: { notes: append } })
      .addNode("settle", (s) => {
        expectTypeOf(s.resolved).toEqualTypeOf<boolean>();
        return { amount: s.amount + 1 };
      })
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
    graph.invoke({ amount: 1, notes: [] });
    // @ts-expect-error - notes is a list of strings
    graph.invoke({ amount: 1, notes: [1] });
  });

  it("infers the state from an arktype schema", () => {
    const graph = stateGraph(arktypeTicket)()
      .addNode("settle", (s) => {
        expectTypeOf(s.amount).toEqualTypeOf<number>();
        expectTypeOf(s.notes).toEqualTypeOf<string[]>();
        return { resolved: true };
      })
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
    graph.invoke({ amount: 1, notes: [] });
  });

  it("checks node updates and reducers against the schema's fields", () => {
    stateGraph(zodTicket)()
      // @ts-expect-error - the node returns a string where the state holds a number
      .addNode("bad", () => ({ amount: "42" }));
    // @ts-expect-error - reducers names a field the schema does not have
    stateGraph(zodTicket)({ reducers: { note: append } });
  });

  it("reports a parallel write of a field without a reducer, as with an interface", () => {
    const builder = stateGraph(zodTicket)({ reducers: { notes: append } })
      .addNode("a", () => ({ amount: 1 }))
      .addNode("b", () => ({ amount: 2 }));
    // @ts-expect-error - "a" and "b" both write amount in one superstep, and amount has no reducer
    builder.addEdge(START, ["a", "b"]);
  });

  it("refuses a schema of something other than an object", () => {
    // @ts-expect-error - the state is an object
    stateGraph(z.string());
  });
});

describe("defineGraph(schema)", () => {
  it("infers the state and the input from the schema", () => {
    const graph = defineGraph(zodTicket)({
      nodes: {
        settle: (s) => {
          expectTypeOf(s.resolved).toEqualTypeOf<boolean>();
          return { resolved: true };
        },
      },
      edges: [
        [START, "settle"],
        ["settle", END],
      ],
    });
    graph.invoke({ amount: 1, notes: [] });
    // @ts-expect-error - amount is missing
    graph.invoke({ notes: [] });
  });
});

describe("a plain interface keeps working unchanged", () => {
  it("types invoke's input as the interface", () => {
    const graph = stateGraph<Ticket>()({ reducers: { notes: append } })
      .addNode("settle", () => ({ resolved: true }))
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Ticket, "settle">>();
    // @ts-expect-error - resolved is required by the interface
    graph.invoke({ amount: 1, notes: [] });
  });
});
