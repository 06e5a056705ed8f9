/**
 * Per-field schemas (`fieldSchemas`, issue 39): each value an update writes to a field with a schema
 * is validated on its own, before its reducer merges it, where data enters the state (a new run's
 * input, a thread's input, each node's update, a `Command` update, an `updateState` edit), with zod 4,
 * valibot, arktype and a hand-written Standard Schema; a refusal commits nothing.
 */
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  append,
  Command,
  defineGraph,
  END,
  GraphValidationError,
  InvalidOptionError,
  InvalidUpdateError,
  START,
  stateGraph,
  type FieldSchemasFor,
} from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState } from "../../src/xstate/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { executionFailure } from "../helpers/execution-failure.js";
import type { StandardSchemaV1 } from "../../src/engine/state-schema.js";
import { openAndSettle, type Ticket } from "./_schemas.js";

/** A non-negative amount, written by hand against the Standard Schema interface (no library). */
const handAmount: StandardSchemaV1<unknown, number> = {
  "~standard": {
    version: 1,
    vendor: "hand",
    validate: (value) =>
      typeof value === "number" && value >= 0 ? { value } : { issues: [{ message: "expected a non-negative number" }] },
  },
};

/** `amount` a non-negative number and `notes` a list of non-empty strings, per library. */
const fieldSchemas: readonly (readonly [string, FieldSchemasFor<Ticket>])[] = [
  ["zod", { amount: z.number().nonnegative(), notes: z.array(z.string().min(1)) }],
  ["valibot", { amount: v.pipe(v.number(), v.minValue(0)), notes: v.array(v.pipe(v.string(), v.minLength(1))) }],
  ["arktype", { amount: type("number >= 0"), notes: type("string > 0").array() }],
  ["a hand-written Standard Schema", { amount: handAmount }],
];

const start: Ticket = { amount: 1, resolved: false, notes: [] };

/** open → settle → END (see `openAndSettle`), the state a plain interface with field schemas. */
function ticketGraph(schemas: FieldSchemasFor<Ticket>, planted: unknown = 2, compile: { interruptBefore?: "settle"[] } = {}) {
  const declared = stateGraph<Ticket>()({ reducers: { notes: append }, fields: ["amount", "resolved", "notes"], fieldSchemas: schemas });
  return openAndSettle(declared, planted, compile);
}

describe.each(fieldSchemas)("field schemas (%s)", (_library, schemas) => {
  it("runs a graph whose updates the field schemas accept", async () => {
    expect((await ticketGraph(schemas).invoke(start)).state).toEqual({ amount: 2, resolved: false, notes: ["opened", "settled"] });
  });

  it("refuses a node's update the field's schema refuses with INVALID_FIELD, naming the node and the field, committing none of it", async () => {
    const error = await executionFailure(ticketGraph(schemas, -5).invoke(start));
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error.code).toBe("INVALID_FIELD");
    expect(error.node).toBe("settle");
    expect(error.message).toMatch(/^invoke: the update of "settle" does not fit the field schemas \(1 issue\); nothing was committed/);
    expect(error.message).toContain("amount (got -5):");
    expect(error.state).toEqual({ amount: 1, resolved: false, notes: ["opened"] });
    expect(error.trace).toEqual(["open"]);
  });

  it("refuses an input field with INVALID_INPUT, on a new run and on a thread", async () => {
    const plain = await executionFailure(ticketGraph(schemas).invoke({ ...start, amount: -1 }));
    expect(plain.code).toBe("INVALID_INPUT");
    expect(plain.message).toContain("the input does not fit the field schemas");
    const checkpointer = new MemoryCheckpointer();
    const graph = ticketGraph(schemas);
    await graph.invoke(start, { threadId: "t", checkpointer });
    const before = await graph.getState("t", { checkpointer });
    const threaded = await executionFailure(graph.invoke({ amount: -1 }, { threadId: "t", checkpointer }));
    expect(threaded.code).toBe("INVALID_INPUT");
    expect((await graph.getState("t", { checkpointer }))?.id).toBe(before?.id);
  });

  it("checks an updateState edit and a Command update the same way, committing nothing", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = ticketGraph(schemas, 2, { interruptBefore: ["settle"] });
    await graph.invoke(start, { threadId: "t", checkpointer });
    const paused = await graph.getState("t", { checkpointer });
    const edit = await executionFailure(graph.updateState("t", { amount: -3 }, { checkpointer }));
    expect(edit.code).toBe("INVALID_FIELD");
    expect(edit.message).toContain("amount (got -3)");
    const command = await executionFailure(graph.invoke(new Command({ update: { amount: -4 } }), { threadId: "t", checkpointer }));
    expect(command.code).toBe("INVALID_FIELD");
    expect((await graph.getState("t", { checkpointer }))?.id).toBe(paused?.id);
    expect((await graph.invoke(null, { threadId: "t", checkpointer })).state.amount).toBe(2);
  });

  it("refuses on XState and LangGraph.js with the same code", async () => {
    for (const run of [runOnXState, runOnLangGraph] as const) {
      const error = await executionFailure(run(ticketGraph(schemas, -5), start));
      expect(error.code).toBe("INVALID_FIELD");
      expect(error.state).toEqual({ amount: 1, resolved: false, notes: ["opened"] });
    }
  });
});

describe("field schemas and reducers", () => {
  it("check what an append field's update writes (the items), before the reducer merges it", async () => {
    const graph = stateGraph<Ticket>()({ reducers: { notes: append }, fieldSchemas: { notes: z.array(z.string().min(1)) } })
      .addNode("note", () => ({ notes: [""] }))
      .addEdge(START, "note")
      .addEdge("note", END)
      .compile();
    const error = await executionFailure(graph.invoke(start));
    expect(error.code).toBe("INVALID_FIELD");
    expect(error.message).toContain('notes[0] (got ""):');
  });

  it("merge the schema's output (a transform), and report every refused field of one update", async () => {
    const graph = stateGraph<{ name: string; n: number }>()({ fieldSchemas: { name: z.string().trim(), n: z.number().int() } })
      .addNode("set", () => ({ name: "  tides  " }))
      .addEdge(START, "set")
      .addEdge("set", END)
      .compile();
    expect((await graph.invoke({ name: "x", n: 1 })).state).toEqual({ name: "tides", n: 1 });
    const bad = stateGraph<{ name: string; n: number }>()({ fieldSchemas: { name: z.string(), n: z.number().int() } })
      .addNode("set", () => ({ name: 3 as unknown as string, n: 1.5 }))
      .addEdge(START, "set")
      .addEdge("set", END)
      .compile();
    const error = await executionFailure(bad.invoke({ name: "x", n: 1 }));
    expect(error.message).toContain("(2 issues)");
    expect(error.message).toContain("name (got 3)");
    expect(error.message).toContain("n (got 1.5)");
  });

  it("run beside a whole-state schema: the update first, then the merged state", async () => {
    const Ticket = z.object({ amount: z.number(), resolved: z.boolean(), notes: z.array(z.string()) });
    const graph = defineGraph(Ticket)({
      reducers: { notes: append },
      fieldSchemas: { amount: z.number().max(100) },
      nodes: { settle: () => ({ amount: 500 }) },
      edges: [
        [START, "settle"],
        ["settle", END],
      ],
    });
    expect((await executionFailure(graph.invoke(start))).code).toBe("INVALID_FIELD");
  });
});

describe("compile() refuses field schemas it cannot run", () => {
  const build = (schemas: unknown, fields?: (keyof Ticket)[]) => () =>
    stateGraph<Ticket>()({ fieldSchemas: schemas as FieldSchemasFor<Ticket>, ...(fields === undefined ? {} : { fields: fields as never }) })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();

  it("a value that is not a Standard Schema, an asynchronous one, a field the graph does not declare: INVALID_STATE_SCHEMA", () => {
    expect(build({ amount: "number" })).toThrow(/INVALID_STATE_SCHEMA.*schema of field "amount" is not a Standard Schema/);
    expect(build({ amount: z.number().refine(async () => true) })).not.toThrow();
    expect(
      build({
        amount: v.pipeAsync(
          v.number(),
          v.checkAsync(async () => true),
        ),
      }),
    ).toThrow(/field "amount" validates asynchronously/);
    expect(build({ amout: z.number() }, ["amount", "resolved", "notes"])).toThrow(/fieldSchemas names "amout", which is not a field/);
    expect(build({ amount: z.number() })).not.toThrow(GraphValidationError);
  });

  it("fieldSchemas that is not an object: InvalidOptionError", () => {
    expect(build([z.number()])).toThrow(InvalidOptionError);
    expect(build([z.number()])).toThrow(/stateGraph: fieldSchemas must be an object/);
  });
});
