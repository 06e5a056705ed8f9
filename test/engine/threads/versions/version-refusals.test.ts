/**
 * What a graph refuses of another version's thread, writing nothing (issue 42 §3): a checkpoint of a
 * newer version (a rollback), a version it declares no migration from, a migration that throws or
 * whose state the schema refuses; and `compile({ migrations })` that cannot lead into the graph.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  append,
  END,
  InvalidOptionError,
  type MigrationDeclaration,
  migrateFrom,
  type SpecWithNodes,
  START,
  StateGraph,
  stateGraph,
} from "../../../../src/index.js";
import { type Checkpointer, MemoryCheckpointer, PersistenceError } from "../../../../src/persistence/index.js";
import { type LogState, unevenBranches } from "../../../helpers/defer-graphs.js";

type Counter = { n: number; log: string[] };
const v1Spec = { nodes: ["inc", "done"] } as const;

/** START → inc → done → END at `version`, paused before done; `migrations` as given. */
const counter = (version: number, migrations: MigrationDeclaration<Counter, Counter, "inc" | "done", "inc" | "done">[] = []) =>
  new StateGraph<Counter>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: ["inc"] }))
    .addNode("done", () => ({ log: ["done"] }))
    .addEdge(START, "inc")
    .addEdge("inc", "done")
    .addEdge("done", END)
    .compile({ version, interruptBefore: ["done"], migrations: migrations.map((m) => migrateFrom(v1Spec, m)) });

async function pausedThread(version: number): Promise<Checkpointer> {
  const checkpointer = new MemoryCheckpointer();
  await counter(version).invoke({ n: 0, log: [] }, { threadId: "t", checkpointer });
  return checkpointer;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("a checkpoint of a newer version (a rollback)", () => {
  it("is refused with GRAPH_VERSION_NEWER by resume, new input, updateState and getState, writing nothing", async () => {
    const checkpointer = await pausedThread(2);
    const before = await checkpointer.list("t");
    const old = counter(1);
    for (const attempt of [
      old.invoke(null, { threadId: "t", checkpointer }),
      old.invoke({ n: 5, log: [] }, { threadId: "t", checkpointer }),
      old.updateState("t", { n: 9 }, { checkpointer }),
      old.getState("t", { checkpointer }),
    ]) {
      const error = await failure(attempt);
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code: "GRAPH_VERSION_NEWER", threadId: "t" });
      expect((error as Error).message).toMatch(
        /^(invoke|updateState|getState): checkpoint ".*" of thread "t" was written by version 2 of the graph, and this graph is version 1/,
      );
    }
    expect(await checkpointer.list("t")).toEqual(before);
  });
});

describe("migrating a version-1 thread", () => {
  it("without a migration from version 1: MIGRATION_MISSING, naming what to declare", async () => {
    const checkpointer = await pausedThread(1);
    const error = await failure(counter(3, [{ from: 2 }]).invoke(null, { threadId: "t", checkpointer }));
    expect(error).toMatchObject({ code: "MIGRATION_MISSING" });
    expect((error as Error).message).toContain("declares no migration from version 1");
    expect((error as Error).message).toContain("migrateFrom(specOfVersion1, { from: 1, state, nodes })");
    expect(await checkpointer.list("t")).toHaveLength(2);
  });

  it("whose state migration throws: MIGRATION_FAILED with the error as cause, nothing written", async () => {
    const checkpointer = await pausedThread(1);
    const broken = new Error("no n");
    const state = () => {
      throw broken;
    };
    const error = await failure(counter(2, [{ from: 1, state }]).invoke(null, { threadId: "t", checkpointer }));
    expect(error).toMatchObject({ code: "MIGRATION_FAILED", cause: broken });
    expect((error as Error).message).toContain("the state migration from version 1 threw");
    expect(await checkpointer.list("t")).toHaveLength(2);
  });

  it("whose migrated state the state schema refuses: MIGRATION_FAILED; what it accepts is what resumes", async () => {
    const checkpointer = await pausedThread(1);
    const schema = z.object({ n: z.number(), log: z.array(z.string()), level: z.enum(["low", "high"]) });
    const graph = (level: string) =>
      stateGraph(schema)({ reducers: { log: append } })
        .addNode("inc", (s) => ({ n: s.n + 1, log: ["inc"] }))
        .addNode("done", (s) => ({ log: [`done ${s.level}`] }))
        .addEdge(START, "inc")
        .addEdge("inc", "done")
        .addEdge("done", END)
        .compile({
          version: 2,
          migrations: [migrateFrom(v1Spec, { from: 1, state: (old: Counter) => ({ ...old, level: level as "low" }) })],
        });
    const error = await failure(graph("medium").invoke(null, { threadId: "t", checkpointer }));
    expect(error).toMatchObject({ code: "MIGRATION_FAILED" });
    expect((error as Error).message).toMatch(/migrated to version 2, has a state the state schema refuses: .*level/s);
    expect(await checkpointer.list("t")).toHaveLength(2);
    const done = await graph("high").invoke(null, { threadId: "t", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { n: 1, level: "high", log: ["inc", "done high"] } });
  });
});

describe("compile({ migrations }) and migrateFrom", () => {
  it.each([
    [() => counter(2, [{ from: 2 }]), "compile: migrations[0] migrates from version 2, not older than this graph's version 2"],
    [() => counter(3, [{ from: 1 }, { from: 1 }]), "compile: two migrations from version 1"],
    [
      () => counter(2, [{ from: 1, nodes: { inc: "nope" as "inc" } }]),
      'compile: the migration from version 1 maps "inc" to "nope", which this graph does not have',
    ],
    // A spec read from JSON: its names are strings, so only the run-time check can tell.
    [
      () => migrateFrom(JSON.parse(JSON.stringify(v1Spec)) as SpecWithNodes, { from: 1, nodes: { gone: "inc" } }),
      'migrateFrom: nodes maps "gone", which the old graph (version 1) does not have',
    ],
    [() => migrateFrom(v1Spec, { from: 0 }), "migrateFrom: from must be the old version, a whole number from 1; got"],
  ])("refuses a bad declaration with INVALID_OPTION (%#)", (declare, message) => {
    expect(declare).toThrow(InvalidOptionError);
    expect(declare).toThrow(message);
  });
});

describe("a deferred node waiting, removed by the new version and mapped nowhere", () => {
  it("is listed as a resume point (UNMAPPED_RESUME_POINT, deferred[0]), and nothing is written", async () => {
    const checkpointer = new MemoryCheckpointer();
    await unevenBranches(true, { interruptBefore: ["a2"] }).invoke({ log: [] }, { threadId: "t", checkpointer });
    expect((await checkpointer.latest("t"))?.deferred?.map((task) => task.node)).toEqual(["reduce"]);
    const before = await checkpointer.list("t");
    // Version 2 drops the reduce: a2 and b go to END.
    const v2 = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("a2", () => ({ log: ["a2"] }))
      .addEdge(START, ["a", "b"])
      .addEdge("a", "a2")
      .addEdge(["a2", "b"], END)
      .compile({ version: 2, migrations: [migrateFrom(unevenBranches().spec, { from: 1 })] });
    const error = await failure(v2.invoke(null, { threadId: "t", checkpointer }));
    expect(error).toMatchObject({ code: "UNMAPPED_RESUME_POINT", threadId: "t" });
    expect((error as Error).message).toContain('  - deferred[0]: the next task, "reduce" (before:reduce)');
    expect(await checkpointer.list("t")).toEqual(before);
  });
});
