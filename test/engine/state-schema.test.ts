/**
 * A graph whose state is a Standard Schema: every state that enters the run is validated before it is
 * committed (the input, each superstep's merge, a Command update, an updateState edit), with each of
 * zod 4, valibot and arktype; a refusal commits nothing and leaves a thread's last checkpoint as it was.
 */
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { z } from "zod";
import { append, Command, END, GraphValidationError, START, stateGraph, stateJsonSchemaOf, stateSchemaOf } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { executionFailure } from "../helpers/execution-failure.js";
import { runOnXState } from "../../src/xstate/index.js";
import type { StandardSchemaV1 } from "../../src/engine/state-schema.js";
import { arktypeTicket, openAndSettle, type Ticket, ticketSchemas, valibotTicket, zodTicket } from "./_schemas.js";

const start: Ticket = { amount: 1, resolved: false, notes: [] };

/** open → settle → END; `settle` writes `planted` as the amount (a model's output, say). */
function ticketGraph(schema: StandardSchemaV1<Ticket, Ticket>, planted: unknown = 2, compile: { interruptBefore?: "settle"[] } = {}) {
  return openAndSettle(stateGraph(schema)({ reducers: { notes: append } }), planted, compile);
}

describe.each(ticketSchemas)("a state schema (%s)", (_library, schema) => {
  it("runs a graph whose states the schema accepts", async () => {
    const { state } = await ticketGraph(schema).invoke(start);
    expect(state).toEqual({ amount: 2, resolved: false, notes: ["opened", "settled"] });
  });

  it("refuses an input of the wrong type with INVALID_INPUT, naming the path, the value and the schema's message", async () => {
    const error = await executionFailure(ticketGraph(schema).invoke({ ...start, amount: "42" } as never));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^invoke: the input does not fit the state schema \(1 issue\); nothing was committed/);
    expect(error.message).toContain('amount (got "42"):');
    expect(error.trace).toEqual([]);
  });

  it("refuses a superstep whose merged state the schema refuses with INVALID_STATE, committing none of it", async () => {
    const error = await executionFailure(ticketGraph(schema, "42").invoke(start));
    expect(error.code).toBe("INVALID_STATE");
    expect(error.node).toBe("settle");
    expect(error.message).toContain('the state merged from the update of "settle" does not fit the state schema');
    expect(error.message).toContain('amount (got "42")');
    // The last committed state: open's, without settle's note.
    expect(error.state).toEqual({ amount: 1, resolved: false, notes: ["opened"] });
    expect(error.trace).toEqual(["open"]);
  });

  it("names every node whose update was merged in a parallel superstep", async () => {
    const graph = stateGraph(schema)({ reducers: { notes: append } })
      .addNode("left", () => ({ notes: ["left"] }))
      .addNode("right", () => ({ resolved: "yes" as unknown as boolean }))
      .addEdge(START, ["left", "right"])
      .addEdge("left", END)
      .addEdge("right", END)
      .compile();
    const error = await executionFailure(graph.invoke(start));
    expect(error.code).toBe("INVALID_STATE");
    expect(error.message).toContain('the state merged from the updates of "left", "right"');
    expect(error.state).toEqual(start);
  });

  it("cuts a long offending value to a readable length", async () => {
    const error = await executionFailure(ticketGraph(schema, "x".repeat(100_000)).invoke(start));
    expect(error.code).toBe("INVALID_STATE");
    expect(error.message).toContain("(100,000 characters)");
    expect(error.message.length).toBeLessThan(1_000);
  });

  it("on a thread, checks the input merged with the thread's state and keeps the last checkpoint", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = ticketGraph(schema);
    await graph.invoke(start, { threadId: "t", checkpointer });
    const before = await graph.getState("t", { checkpointer });
    const error = await executionFailure(graph.invoke({ resolved: "no" } as never, { threadId: "t", checkpointer }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain('resolved (got "no")');
    expect((await graph.getState("t", { checkpointer }))?.id).toBe(before?.id);
  });

  it("on a thread, a refused superstep leaves the last checkpoint intact", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = ticketGraph(schema, "42");
    const error = await executionFailure(graph.invoke(start, { threadId: "t", checkpointer }));
    expect(error.code).toBe("INVALID_STATE");
    const latest = await graph.getState("t", { checkpointer });
    expect(latest?.state).toEqual({ amount: 1, resolved: false, notes: ["opened"] });
    expect(latest?.next).toEqual(["settle"]);
  });

  it("checks an updateState edit and a Command update the same way, committing nothing", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = ticketGraph(schema, 2, { interruptBefore: ["settle"] });
    await graph.invoke(start, { threadId: "t", checkpointer });
    const paused = await graph.getState("t", { checkpointer });
    const edit = await executionFailure(graph.updateState("t", { amount: "x" } as never, { checkpointer }));
    expect(edit.code).toBe("INVALID_STATE");
    expect(edit.message).toContain('amount (got "x")');
    const command = await executionFailure(
      graph.invoke(new Command({ update: { resolved: 3 } as never }), { threadId: "t", checkpointer }),
    );
    expect(command.code).toBe("INVALID_STATE");
    expect(command.message).toContain("resolved (got 3)");
    expect((await graph.getState("t", { checkpointer }))?.id).toBe(paused?.id);
    const { state } = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(state).toEqual({ amount: 2, resolved: false, notes: ["opened", "settled"] });
  });

  it("on XState, refuses the input and a superstep with the same codes", async () => {
    expect((await executionFailure(runOnXState(ticketGraph(schema), { ...start, amount: "1" } as never))).code).toBe("INVALID_INPUT");
    const error = await executionFailure(runOnXState(ticketGraph(schema, "42"), start));
    expect(error.code).toBe("INVALID_STATE");
    expect(error.state).toEqual({ amount: 1, resolved: false, notes: ["opened"] });
  });
});

describe("the state schema's output is what the state holds", () => {
  it("fills in the schema's defaults on the input", async () => {
    const graph = stateGraph(z.object({ topic: z.string(), events: z.array(z.string()).default([]) }))({ reducers: { events: append } })
      .addNode("draft", (s) => ({ events: [`drafted ${s.topic}`] }))
      .addEdge(START, "draft")
      .addEdge("draft", END)
      .compile();
    expect((await graph.invoke({ topic: "tides" })).state).toEqual({ topic: "tides", events: ["drafted tides"] });
  });
});

describe("compile() refuses a state schema it cannot run", () => {
  const build = (schema: unknown) => () =>
    stateGraph(schema as StandardSchemaV1<{ n: number }>)()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();

  it("refuses an asynchronous schema with INVALID_STATE_SCHEMA", () => {
    const error = (() => {
      try {
        build(v.objectAsync({ n: v.number() }))();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as GraphValidationError).problems.map((p) => p.code)).toEqual(["INVALID_STATE_SCHEMA"]);
    expect((error as GraphValidationError).message).toContain("validates asynchronously");
  });

  it("refuses a value that is not a Standard Schema with INVALID_STATE_SCHEMA", () => {
    expect(build({ n: "number" })).toThrow(/INVALID_STATE_SCHEMA.*not a Standard Schema/);
  });

  it("an async refinement the probe cannot reach fails the run with the phase's code, committing nothing", async () => {
    const schema = z.object({ n: z.number().refine(async () => true) });
    const graph = stateGraph(schema)()
      .addNode("a", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await executionFailure(graph.invoke({ n: 1 }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("validated asynchronously");
  });
});

describe("unknown fields, when the graph knows its fields", () => {
  const planting = (schema: StandardSchemaV1<Ticket, Ticket>, fields?: readonly (keyof Ticket)[]) =>
    stateGraph(schema)({ reducers: { notes: append }, ...(fields === undefined ? {} : { fields: [...fields] as never }) })
      .addNode("plant", () => ({ extra: true }) as never)
      .addEdge(START, "plant")
      .addEdge("plant", END)
      .compile();

  it.each([
    ["zod", zodTicket],
    ["arktype", arktypeTicket],
  ] as const)("are refused with the schema's fields from its JSON Schema (%s)", async (_library, schema) => {
    const graph = planting(schema);
    expect([...(graph.spec.fields ?? [])].sort()).toEqual(["amount", "notes", "resolved"]);
    expect((await executionFailure(graph.invoke(start))).code).toBe("UNDECLARED_FIELD");
    expect((await executionFailure(graph.invoke({ ...start, extra: 1 } as never))).code).toBe("INVALID_INPUT");
  });

  it("are refused with `fields` for a library without a JSON Schema (valibot)", async () => {
    expect(planting(valibotTicket).spec.fields).toBeUndefined();
    const graph = planting(valibotTicket, ["amount", "resolved", "notes"]);
    expect((await executionFailure(graph.invoke(start))).code).toBe("UNDECLARED_FIELD");
  });

  it("are let through a loose object schema, which asked for them", async () => {
    const graph = stateGraph(z.looseObject({ n: z.number() }))()
      .addNode("plant", () => ({ extra: true }) as never)
      .addEdge(START, "plant")
      .addEdge("plant", END)
      .compile();
    expect(graph.spec.fields).toBeUndefined();
    expect((await graph.invoke({ n: 1 })).state).toEqual({ n: 1, extra: true });
  });
});

describe("the validator, exposed", () => {
  it("stateSchemaOf gives the schema a graph was declared with (undefined for a type only), stateJsonSchemaOf its JSON Schema", () => {
    const graph = stateGraph(zodTicket)()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(stateSchemaOf(graph)).toBe(zodTicket);
    expect(stateSchemaOf(graph)?.["~standard"].validate({ ...start, amount: "1" })).toHaveProperty("issues");
    expect(stateJsonSchemaOf(graph)).toMatchObject({ type: "object", required: ["amount", "resolved", "notes"] });
    const plain = stateGraph<Ticket>()()
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect(stateSchemaOf(plain)).toBeUndefined();
  });
});
