/**
 * With a state schema, arbitrary node updates either commit only states the schema accepts, or fail
 * with INVALID_STATE and commit nothing: the thread's last checkpoint is the error's state, which the
 * schema accepts, and the failed superstep is still to run. Half the cases are accepted by construction,
 * so both branches run (the test counts them).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { GraphExecutionError } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { Counter, counterFieldSchemas, counterGraph, counterStart, counterUpdateOrUnknown, counterUpdates } from "./_counter-schema.js";
import { propertyParams } from "./arbitraries.js";

describe("a state schema's checks", () => {
  it("arbitrary updates commit only states the schema accepts, or fail with INVALID_STATE committing nothing; both occur", async () => {
    const outcomes = { accepted: 0, refused: 0 };
    const params = propertyParams(150);
    await fc.assert(
      fc.asyncProperty(counterUpdates, async (updates) => {
        const graph = counterGraph(updates);
        const checkpointer = new MemoryCheckpointer();
        const outcome = await graph.invoke(counterStart, { threadId: "p", checkpointer }).then(
          (result) => ({ ok: true as const, state: result.state }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        const history = await graph.getStateHistory("p", { checkpointer });
        for (const checkpoint of history) expect(Counter.safeParse(checkpoint.state).success).toBe(true);
        if (outcome.ok) {
          outcomes.accepted += 1;
          expect(Counter.safeParse(outcome.state).success).toBe(true);
          return;
        }
        outcomes.refused += 1;
        const { error } = outcome;
        expect(error).toBeInstanceOf(GraphExecutionError);
        if (!(error instanceof GraphExecutionError)) return;
        // Sibling updates that collide on a field without a reducer, or a non-list given to append, fail before the schema is asked.
        expect(["INVALID_STATE", "CONCURRENT_WRITE", "REDUCER_FAILED"]).toContain(error.code);
        const latest = history[0];
        expect(latest?.state).toEqual(error.state);
        expect(latest?.next.length).toBeGreaterThan(0);
      }),
      params,
    );
    // Both branches of the property ran (a replayed counterexample runs one case: nothing to count).
    if (params.path === undefined && params.numRuns >= 20) {
      expect(outcomes.accepted).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    }
  });
});

/**
 * The same property with unknown fields among the updates and a field schema for `label` (its updates
 * refused alone, `INVALID_FIELD`), on each engine that applies the schemas: a run commits only states
 * the schema accepts, or fails with a coded refusal whose state is the last committed one (START's
 * when `left` or `right` was refused, the first superstep's when `last` was), and a thread keeps it as
 * its last checkpoint.
 */
describe("a state schema and a field schema, on invoke, a thread and LangGraph.js", () => {
  const refusals = ["INVALID_STATE", "INVALID_FIELD", "UNDECLARED_FIELD", "CONCURRENT_WRITE", "REDUCER_FAILED"];
  const planted = fc.tuple(counterUpdateOrUnknown, counterUpdateOrUnknown, counterUpdateOrUnknown);

  /** The state committed before the refused node's superstep. */
  async function committedBefore(node: string, [left, right]: readonly [unknown, unknown, unknown]): Promise<unknown> {
    if (node !== "last") return counterStart;
    return (await counterGraph([left, right, {}], counterFieldSchemas).invoke(counterStart)).state;
  }

  async function expectAcceptedOrRefused(
    run: Promise<{ state: unknown }>,
    updates: readonly [unknown, unknown, unknown],
  ): Promise<GraphExecutionError | undefined> {
    const outcome = await run.then(
      (result) => ({ ok: true as const, state: result.state }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (outcome.ok) {
      expect(Counter.safeParse(outcome.state).success).toBe(true);
      return undefined;
    }
    const { error } = outcome;
    expect(error).toBeInstanceOf(GraphExecutionError);
    if (!(error instanceof GraphExecutionError)) return undefined;
    expect(refusals).toContain(error.code);
    expect(error.state).toEqual(await committedBefore(error.node, updates));
    return error;
  }

  test.prop([planted], propertyParams(40))("invoke", async (updates) => {
    await expectAcceptedOrRefused(counterGraph(updates, counterFieldSchemas).invoke(counterStart), updates);
  });

  test.prop([planted], propertyParams(40))("a threaded invoke keeps the refused run's last state as its checkpoint", async (updates) => {
    const graph = counterGraph(updates, counterFieldSchemas);
    const checkpointer = new MemoryCheckpointer();
    const error = await expectAcceptedOrRefused(graph.invoke(counterStart, { threadId: "p", checkpointer }), updates);
    if (error === undefined) return;
    // The checkpoint as stored: getState would also show the refused superstep's finished siblings' kept writes.
    const latest = await checkpointer.latest("p");
    expect(latest?.state).toEqual(error.state);
    expect(latest?.tasks.length).toBeGreaterThan(0);
  });

  test.prop([planted], propertyParams(15))("runOnLangGraph", async (updates) => {
    await expectAcceptedOrRefused(runOnLangGraph(counterGraph(updates, counterFieldSchemas), counterStart), updates);
  });
});
