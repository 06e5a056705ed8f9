/**
 * With a state schema, arbitrary node updates either commit only states the schema accepts, or fail
 * with INVALID_STATE and commit nothing: the thread's last checkpoint is the error's state, which the
 * schema accepts, and the failed superstep is still to run.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { z } from "zod";
import { append, END, GraphExecutionError, START, stateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { json, propertyParams } from "./arbitraries.js";

const Counter = z.object({ count: z.number().int().min(0), label: z.string().max(5), tags: z.array(z.string()) });
const start = { count: 0, label: "", tags: [] };
/** What a node claims to return: typed fields, none surely written (the values are planted, any JSON). */
type Planted = Partial<z.output<typeof Counter>>;

/** An update of some of the fields, each value either well-typed or any JSON value. */
const update = fc.record(
  {
    count: fc.oneof(fc.nat(), json),
    label: fc.oneof(fc.string({ maxLength: 7 }), json),
    tags: fc.oneof(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), json),
  },
  { requiredKeys: [] },
);

describe("a state schema's checks", () => {
  test.prop([fc.tuple(update, update, update)], propertyParams(150))(
    "arbitrary updates commit only states the schema accepts, or fail with INVALID_STATE committing nothing",
    async ([left, right, last]) => {
      const graph = stateGraph(Counter)({ reducers: { tags: append } })
        .addNode("left", () => left as Planted)
        .addNode("right", () => right as Planted)
        .addNode("last", () => last as Planted)
        .addEdge(START, ["left", "right"])
        .addEdge(["left", "right"], "last")
        .addEdge("last", END)
        .compile();
      const checkpointer = new MemoryCheckpointer();
      const outcome = await graph.invoke(start, { threadId: "p", checkpointer }).then(
        (result) => ({ ok: true as const, state: result.state }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const history = await graph.getStateHistory("p", { checkpointer });
      for (const checkpoint of history) expect(Counter.safeParse(checkpoint.state).success).toBe(true);
      if (outcome.ok) {
        expect(Counter.safeParse(outcome.state).success).toBe(true);
        return;
      }
      const { error } = outcome;
      expect(error).toBeInstanceOf(GraphExecutionError);
      if (!(error instanceof GraphExecutionError)) return;
      // Sibling updates that collide on a field without a reducer, or a non-list given to append, fail before the schema is asked.
      expect(["INVALID_STATE", "CONCURRENT_WRITE", "REDUCER_FAILED"]).toContain(error.code);
      const latest = history[0];
      expect(latest?.state).toEqual(error.state);
      expect(latest?.next.length).toBeGreaterThan(0);
    },
  );
});
