/**
 * Loop bounds read a checkpoint written before they existed (fixtures/schema-v5.sqlite, made by
 * make-schema-fixture.mjs with the schema-5 build): the visit counts are the snapshot's trace, which every
 * checkpoint carries, so no store schema changed. The "finished" thread's checkpoint after the first
 * `inc` (trace ["inc"], next task inc) resumes under a bound on inc that counts that earlier visit.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, END, GraphLimitError, START, StateGraph } from "../../src/index.js";
import type { CounterState } from "../helpers/graphs.js";
import { onDriver, openSqlite, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

/** The fixture's counter graph (inc until n = 2, then done), with a bound on inc. */
const boundedCounter = (bound: { max: number; exit?: "done" }) =>
  new StateGraph<CounterState>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: [`inc ${s.n + 1}`] }), { bound })
    .addNode("done", () => ({ note: "finished" }))
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (s) => (s.n < 2 ? "again" : "stop"), { again: "inc", stop: "done" })
    .addEdge("done", END)
    .compile();

/** The id of the "finished" thread's checkpoint whose trace is ["inc"]. */
const AFTER_FIRST_INC = "13cbe30e-992f-4356-b5c3-94b203988bb3";

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("a loop bound on a checkpoint written before bounds"), () => {
  const resume = async (bound: { max: number; exit?: "done" }) => {
    const file = join(dir, "v5.sqlite");
    copyFileSync(join(import.meta.dirname, "fixtures", "schema-v5.sqlite"), file);
    const checkpointer = openSqlite(file);
    try {
      return await boundedCounter(bound)
        .invoke(null, { threadId: "finished", checkpointer, checkpointId: AFTER_FIRST_INC })
        .catch((error: unknown) => error);
    } finally {
      checkpointer.close();
    }
  };

  it("counts the visit the old checkpoint recorded: max 1 goes to the exit", async () => {
    const result = await resume({ max: 1, exit: "done" });
    expect(result).toMatchObject({ status: "done", trace: ["inc", "done"], state: { n: 1, note: "finished" } });
  });

  it("max 1 without an exit is LOOP_BOUND, naming inc", async () => {
    const error = await resume({ max: 1 });
    expect(error).toBeInstanceOf(GraphLimitError);
    expect(error).toMatchObject({ code: "LOOP_BOUND", node: "inc", trace: ["inc"] });
  });

  it("max 2 lets the second visit run", async () => {
    const result = await resume({ max: 2 });
    expect(result).toMatchObject({ status: "done", trace: ["inc", "inc", "done"], state: { n: 2 } });
  });
});
