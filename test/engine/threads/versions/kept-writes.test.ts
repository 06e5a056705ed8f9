/**
 * A kept pending write (a task that finished in a superstep a sibling's failure left uncommitted) on a
 * new version (issue 42 §2): it is a partial update of the old state. With a `writes` migration it is
 * migrated and its task does not run again; without one it is kept as it is when the state's shape did not
 * change (no `state` migration), and dropped, its task run again on the migrated state, when it did.
 */
import { describe, expect, it } from "vitest";
import { append, END, migrateFrom, START, StateGraph } from "../../../../src/index.js";
import { MemoryCheckpointer, PersistenceError } from "../../../../src/persistence/index.js";

type V1 = { log: string[] };
type V2 = { entries: string[] };
const v1Spec = { nodes: ["left", "right"] } as const;
const toV2 = (old: V1): V2 => ({ entries: old.log });

/** Version 1: left and right in one superstep; right fails the first time. A thread stopped there keeps left's write. */
async function failedThread(): Promise<MemoryCheckpointer> {
  const checkpointer = new MemoryCheckpointer();
  const graph = new StateGraph<V1>({ reducers: { log: append } })
    .addNode("left", () => ({ log: ["left"] }))
    .addNode("right", () => {
      throw new Error("right failed");
    })
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], END)
    .compile();
  await graph.invoke({ log: [] }, { threadId: "t", checkpointer }).catch(() => undefined);
  expect((await checkpointer.latest("t"))?.pendingWrites?.[0]).toMatchObject({ node: "left", update: { log: ["left"] } });
  return checkpointer;
}

/** Version 2 of the same graph over V2's state (migrated by toV2), recording which nodes ran; `writes` as given. */
function v2Graph(ran: string[], writes?: (update: Partial<V1>, node: "left" | "right") => Partial<V2>) {
  return new StateGraph<V2>({ reducers: { entries: append } })
    .addNode("left", () => (ran.push("left"), { entries: ["left v2"] }))
    .addNode("right", () => (ran.push("right"), { entries: ["right v2"] }))
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], END)
    .compile({ version: 2, migrations: [migrateFrom(v1Spec, { from: 1, state: toV2, ...(writes === undefined ? {} : { writes }) })] });
}

describe("a kept write on a new version", () => {
  it("goes through the writes migration, and its task does not run again", async () => {
    const checkpointer = await failedThread();
    const ran: string[] = [];
    const graph = v2Graph(ran, (update) => ({ entries: update.log ?? [] }));
    const result = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(ran).toEqual(["right"]);
    expect(result.state).toEqual({ entries: ["left", "right v2"] });
  });

  it("is dropped when the state migrates and no writes migration is declared: its task runs again on the migrated state", async () => {
    const checkpointer = await failedThread();
    const ran: string[] = [];
    const result = await v2Graph(ran).invoke(null, { threadId: "t", checkpointer });
    expect(ran.sort()).toEqual(["left", "right"]);
    expect(result.state.entries.sort()).toEqual(["left v2", "right v2"]);
  });

  it("is kept as it is when the state does not migrate", async () => {
    const checkpointer = await failedThread();
    const ran: string[] = [];
    const graph = new StateGraph<V1>({ reducers: { log: append } })
      .addNode("left", () => (ran.push("left"), { log: ["left v2"] }))
      .addNode("right", () => (ran.push("right"), { log: ["right v2"] }))
      .addEdge(START, ["left", "right"])
      .addEdge(["left", "right"], END)
      .compile({ version: 2, migrations: [migrateFrom(v1Spec, { from: 1 })] });
    const result = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(ran).toEqual(["right"]);
    expect(result.state).toEqual({ log: ["left", "right v2"] });
  });

  it("a writes migration that returns no update object is MIGRATION_FAILED, and nothing is written", async () => {
    const checkpointer = await failedThread();
    const before = await checkpointer.list("t");
    const graph = v2Graph([], () => JSON.parse("null"));
    const error = await graph.invoke(null, { threadId: "t", checkpointer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect(error).toMatchObject({ code: "MIGRATION_FAILED" });
    expect((error as Error).message).toContain("the writes migration from version 1 threw on checkpoint");
    expect((error as Error).message).toContain('it returned null for the kept write of "left", not an update object');
    expect(await checkpointer.list("t")).toEqual(before);
  });
});
