/**
 * With a state schema, arbitrary node updates either commit only states the schema accepts, or fail
 * with INVALID_STATE and commit nothing: the thread's last checkpoint is the error's state, which the
 * schema accepts, and the failed superstep is still to run.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { GraphExecutionError } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { Counter, counterGraph, counterStart, counterUpdate } from "./_counter-schema.js";
import { propertyParams } from "./arbitraries.js";

describe("a state schema's checks", () => {
  test.prop([fc.tuple(counterUpdate, counterUpdate, counterUpdate)], propertyParams(150))(
    "arbitrary updates commit only states the schema accepts, or fail with INVALID_STATE committing nothing",
    async ([left, right, last]) => {
      const graph = counterGraph([left, right, last]);
      const checkpointer = new MemoryCheckpointer();
      const outcome = await graph.invoke(counterStart, { threadId: "p", checkpointer }).then(
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
