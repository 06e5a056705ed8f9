/**
 * The Checkpointer contract: one suite, declared for every store. MemoryCheckpointer and
 * SqliteCheckpointer run it (checkpointer-contract.test.ts); a new store (PostgresCheckpointer, yours)
 * calls {@link describeCheckpointerContract} from its own test file and passes these tests before the
 * engine may use it. Not a test file itself: it declares tests when called.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import {
  CheckpointConflictError,
  PersistenceError,
  type Checkpoint,
  type Checkpointer,
  type PruneOptions,
  type PruneResult,
} from "../../src/persistence/index.js";
import { Command } from "../../src/index.js";
import { nestedGraph, nestedInput } from "../helpers/nested-graphs.js";
import { describeIdContract } from "./contract-ids.js";

let counter = 0;

/** A checkpoint with plausible fields and a fresh id; `overrides` set what a test is about. */
export function checkpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  counter += 1;
  return {
    id: `cp-${counter}`,
    parentId: null,
    threadId: "t1",
    step: 0,
    state: { n: counter, items: ["a", { nested: [1, null, true] }] },
    next: ["work"],
    tasks: [{ node: "work", sent: false }],
    trace: [],
    routes: [],
    supersteps: 0,
    joins: [],
    createdAt: new Date(0).toISOString(),
    metadata: { source: "input", writes: [] },
    ...overrides,
  };
}

/** Saves checkpoints one after another on their threads, each expecting the previous one. */
export async function saveChain(checkpointer: Checkpointer, ...checkpoints: Checkpoint[]): Promise<void> {
  const latest = new Map<string, string>();
  for (const c of checkpoints) {
    await checkpointer.save(c, latest.get(c.threadId) ?? null);
    latest.set(c.threadId, c.id);
  }
}

/**
 * Declares the contract's tests for one store: call it at the top level of a test file. Each test gets
 * a fresh, empty store from `makeCheckpointer` and hands it to `cleanup` afterwards (also when it fails).
 *
 * @example
 * ```ts
 * describeCheckpointerContract("PostgresCheckpointer", () => PostgresCheckpointer.connect(url, { schema: fresh() }), (c) => c.close());
 * ```
 */
export function describeCheckpointerContract<C extends Checkpointer>(
  name: string,
  makeCheckpointer: () => C | Promise<C>,
  cleanup: (checkpointer: C) => void | Promise<void> = () => undefined,
): void {
  describeIdContract(name, makeCheckpointer, cleanup);
  describe(`${name}: the Checkpointer contract`, () => {
    let store: C;
    beforeEach(async () => {
      store = await makeCheckpointer();
    });
    afterEach(async () => {
      await cleanup(store);
    });

    it("knows nothing of a thread that has no checkpoint", async () => {
      expect(await store.latest("nobody")).toBeUndefined();
      expect(await store.get("nobody", "cp-1")).toBeUndefined();
      expect(await store.list("nobody")).toEqual([]);
    });

    it("returns what was saved, as an equal value", async () => {
      const saved = checkpoint({
        routes: [{ from: "a", key: "go", to: "b" }],
        joins: [["x"]],
        metadata: { source: "loop", writes: ["a"], user: { who: "me" } },
      });
      await store.save(saved, null);
      expect(await store.latest("t1")).toEqual(saved);
      expect(await store.get("t1", saved.id)).toEqual(saved);
    });

    it("keeps Send inputs in the tasks", async () => {
      const saved = checkpoint({
        next: ["sum", "sum"],
        tasks: [
          { node: "sum", sent: true, input: { doc: 1 } },
          { node: "sum", sent: true, input: [2] },
        ],
      });
      await store.save(saved, null);
      expect((await store.latest("t1"))?.tasks).toEqual(saved.tasks);
    });

    it("lists a thread's checkpoints newest first, and honours limit", async () => {
      const a = checkpoint({ step: 0 });
      const b = checkpoint({ step: 1, parentId: a.id });
      const c = checkpoint({ step: 2, parentId: b.id });
      await saveChain(store, a, b, c);
      expect((await store.list("t1")).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
      expect((await store.list("t1", { limit: 2 })).map((x) => x.id)).toEqual([c.id, b.id]);
      expect((await store.latest("t1"))?.id).toBe(c.id);
    });

    it("finds a checkpoint by id only within its own thread", async () => {
      const a = checkpoint({ threadId: "t1" });
      await store.save(a, null);
      expect(await store.get("t2", a.id)).toBeUndefined();
    });

    it("refuses a save whose expected latest is stale, storing nothing", async () => {
      const a = checkpoint();
      const b = checkpoint({ parentId: a.id, step: 1 });
      await saveChain(store, a, b);
      const late = checkpoint({ parentId: a.id, step: 1 });
      const error = await store.save(late, a.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointConflictError);
      expect(error).toMatchObject({ code: "CHECKPOINT_CONFLICT", threadId: "t1", expectedLatestId: a.id, actualLatestId: b.id });
      expect((await store.list("t1")).map((x) => x.id)).toEqual([b.id, a.id]);
    });

    it("refuses a second first checkpoint of a thread (expected latest null)", async () => {
      await store.save(checkpoint(), null);
      await expect(store.save(checkpoint(), null)).rejects.toBeInstanceOf(CheckpointConflictError);
      expect(await store.list("t1")).toHaveLength(1);
    });

    it("refuses a first save that expects a checkpoint the thread does not have", async () => {
      await expect(store.save(checkpoint(), "cp-missing")).rejects.toMatchObject({ code: "CHECKPOINT_CONFLICT", actualLatestId: null });
    });

    it("keeps threads independent", async () => {
      const a = checkpoint({ threadId: "t1" });
      const b = checkpoint({ threadId: "t2" });
      await saveChain(store, a, b);
      expect((await store.latest("t1"))?.id).toBe(a.id);
      expect((await store.latest("t2"))?.id).toBe(b.id);
      expect(await store.list("t1")).toHaveLength(1);
    });

    it("keeps both branches when a checkpoint forks from an older one", async () => {
      const a = checkpoint({ step: 0 });
      const b = checkpoint({ step: 1, parentId: a.id });
      await saveChain(store, a, b);
      const fork = checkpoint({ step: 1, parentId: a.id });
      await store.save(fork, b.id);
      expect((await store.latest("t1"))?.id).toBe(fork.id);
      expect((await store.get("t1", b.id))?.parentId).toBe(a.id);
      expect((await store.list("t1")).map((x) => x.id)).toEqual([fork.id, b.id, a.id]);
    });

    it("deletes one thread and nothing else", async () => {
      await saveChain(store, checkpoint({ threadId: "t1" }), checkpoint({ threadId: "t2" }));
      await store.deleteThread("t1");
      expect(await store.latest("t1")).toBeUndefined();
      expect(await store.list("t1")).toEqual([]);
      expect(await store.latest("t2")).toBeDefined();
      await store.save(checkpoint({ threadId: "t1" }), null);
      expect(await store.list("t1")).toHaveLength(1);
    });

    it("deletes a thread's subgraph threads with it (thread␟namespace, any depth), and no other thread", async () => {
      const sep = "\u001f";
      const ids = ["t1", `t1${sep}sub:cp:0`, `t1${sep}sub:cp:0${sep}inner:cp:1`, "t1x", `t1x${sep}sub:cp:0`, "t1 ", "t"];
      for (const threadId of ids) await store.save(checkpoint({ threadId }), null);
      await store.putWrites(`t1${sep}sub:cp:0`, ((await store.latest(`t1${sep}sub:cp:0`)) as Checkpoint).id, [
        { task: 0, node: "work", update: { n: 1 } },
      ]);
      await store.deleteThread("t1");
      const left = [];
      for (const threadId of ids) if ((await store.latest(threadId)) !== undefined) left.push(threadId);
      expect(left).toEqual(["t1x", `t1x${sep}sub:cp:0`, "t1 ", "t"]);
      // A thread saved again under a deleted child's id starts with no pending writes.
      const again = checkpoint({ threadId: `t1${sep}sub:cp:0` });
      await store.save(again, null);
      expect((await store.latest(again.threadId))?.pendingWrites).toBeUndefined();
    });

    it("hands out detached copies: mutating them, or the saved object, changes nothing stored", async () => {
      const saved = checkpoint();
      const expected = structuredClone(saved);
      await store.save(saved, null);
      (saved.state as { n: number }).n = -1;
      const read = await store.latest("t1");
      if (read === undefined) throw new Error("nothing saved");
      (read.state as { n: number }).n = -2;
      (read.trace as string[]).push("x");
      expect(await store.latest("t1")).toEqual(expected);
    });

    it("stores a JSON round trip: an undefined property is dropped", async () => {
      await store.save(checkpoint({ state: { kept: 1, dropped: undefined } }), null);
      expect(Object.keys((await store.latest("t1"))?.state ?? {})).toEqual(["kept"]);
    });

    it.each([
      ["-1", -1],
      ["0", 0],
      ["1.5", 1.5],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ['"2"', "2"],
      ["null", null],
    ])("refuses limit %s with INVALID_OPTION naming limit, the same in every store", async (shown, limit) => {
      await store.save(checkpoint(), null);
      const error = (await store.list("t1", { limit: limit as number }).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error.message).toMatch(/^\w+Checkpointer\.list: limit must be a positive integer /);
      expect(error.message).toContain(`; got ${shown}. Leave it out for every checkpoint.`);
    });

    // Optional in the interface: a store that has saveMany passes these.
    describe("several checkpoints at once (saveMany)", () => {
      const many = (): NonNullable<Checkpointer["saveMany"]> => {
        if (store.saveMany === undefined) throw new Error("no saveMany");
        return store.saveMany.bind(store);
      };
      const chain = (parent: Checkpoint | null, length: number, threadId = "t1"): Checkpoint[] => {
        const made: Checkpoint[] = [];
        for (let i = 0; i < length; i++) {
          const before = made.at(-1) ?? parent;
          made.push(
            checkpoint({
              threadId,
              parentId: before?.id ?? null,
              step: before === null ? 0 : before.step + 1,
              trace: [...(before?.trace ?? []), `n${i}`],
              routes: [{ from: `n${i}`, key: "k", to: "x" }],
              metadata: { source: before === null ? "input" : "loop", writes: [] },
            }),
          );
        }
        return made;
      };

      it("stores a chain in order, the last one the latest, each read back whole", async (context) => {
        if (store.saveMany === undefined) context.skip();
        const first = chain(null, 3);
        await many()(first, null);
        const second = chain(first.at(-1) as Checkpoint, 2);
        await many()(second, (first.at(-1) as Checkpoint).id);
        const all = [...first, ...second];
        expect((await store.list("t1")).map((c) => c.id)).toEqual(all.map((c) => c.id).reverse());
        expect(await store.latest("t1")).toEqual(second.at(-1));
        for (const c of all) expect(await store.get("t1", c.id)).toEqual(c);
      });

      it("keeps the pending writes a checkpoint of the chain carries", async (context) => {
        if (store.saveMany === undefined) context.skip();
        const [a, b] = chain(null, 2) as [Checkpoint, Checkpoint];
        const paused = { ...b, pendingWrites: [{ task: 0, node: "work", update: { done: true } }] };
        await many()([a, paused], null);
        expect((await store.latest("t1"))?.pendingWrites).toEqual(paused.pendingWrites);
        expect(await store.get("t1", a.id)).not.toHaveProperty("pendingWrites");
      });

      it("stores none of them when the expected latest is stale", async (context) => {
        if (store.saveMany === undefined) context.skip();
        const [a, b] = chain(null, 2) as [Checkpoint, Checkpoint];
        await saveChain(store, a, b);
        const late = chain(a, 3);
        const error = await many()(late, a.id).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: "CHECKPOINT_CONFLICT", expectedLatestId: a.id, actualLatestId: b.id });
        await expect(many()(chain(null, 2), null)).rejects.toBeInstanceOf(CheckpointConflictError);
        expect((await store.list("t1")).map((c) => c.id)).toEqual([b.id, a.id]);
      });

      it("refuses a list that is not one thread's chain, storing nothing", async (context) => {
        if (store.saveMany === undefined) context.skip();
        const [a, b] = chain(null, 2) as [Checkpoint, Checkpoint];
        await expect(many()([a, { ...b, parentId: "elsewhere" }], null)).rejects.toBeInstanceOf(InvalidOptionError);
        await expect(many()([a, { ...b, threadId: "t2" }], null)).rejects.toBeInstanceOf(InvalidOptionError);
        await expect(many()([], null)).rejects.toBeInstanceOf(InvalidOptionError);
        expect(await store.list("t1")).toEqual([]);
      });
    });

    describe("subgraph interrupts (a child's checkpoints on its own thread under its parent's)", () => {
      it("a run paused three levels deep resumes inside the innermost child, shows its state, and leaves no child thread", async () => {
        const runs = new Map<string, number>();
        const graph = nestedGraph(3, runs, "parallel");
        const paused = await graph.invoke(nestedInput, { threadId: "nested", checkpointer: store });
        if (paused.status !== "interrupted") throw new Error("expected a pause");
        const [x, y] = paused.interrupt.interrupts ?? [];
        const shown = await graph.getState("nested", { checkpointer: store, subgraphs: true });
        expect(shown?.tasks[0]?.state?.tasks[0]?.state).toMatchObject({ next: ["3.x", "3.y"], state: { log: ["1.a", "2.a", "3.a"] } });
        await graph.invoke(new Command({ resume: { [x?.id as string]: "1" } }), { threadId: "nested", checkpointer: store });
        const done = await graph.invoke(new Command({ resume: { [y?.id as string]: "2" } }), { threadId: "nested", checkpointer: store });
        expect(done.state).toEqual({
          log: ["1.a", "2.a", "3.a", "3.x", "3.y", "3.b", "2.b", "1.b"],
          answers: ["3.x=1", "3.y=2"],
        });
        expect([runs.get("1.a"), runs.get("2.a"), runs.get("3.a"), runs.get("3.x"), runs.get("3.y")]).toEqual([1, 1, 1, 2, 3]);
        const ns = x?.ns ?? [];
        expect(ns).toHaveLength(2);
        expect(await store.latest(`nested\u001f${ns[0]}`)).toBeUndefined();
        expect(await store.latest(`nested\u001f${ns[0]}\u001f${ns[1]}`)).toBeUndefined();
      });

      it("an edit of the innermost paused child is its thread's latest; the resume continues from it, and both levels go", async () => {
        const runs = new Map<string, number>();
        const graph = nestedGraph(3, runs);
        await graph.invoke(nestedInput, { threadId: "edited", checkpointer: store });
        const innermost = (await graph.getState("edited", { checkpointer: store, subgraphs: true }))?.tasks[0]?.state?.tasks[0]?.state;
        const threadId = innermost?.threadId as string;
        const edit = await graph.updateState(threadId, { answers: ["by hand"] }, { checkpointer: store });
        expect(await store.latest(threadId)).toEqual(edit);
        expect(edit).toMatchObject({ parentId: innermost?.id, subgraphUpdate: { log: ["3.a"], answers: ["by hand"] } });
        expect(edit.interrupts?.map((pending) => pending.id)).toEqual(["3.ask:2:0:0"]);
        const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "edited", checkpointer: store });
        expect(done.state.answers).toEqual(["by hand", "3.ask=yes"]);
        expect([runs.get("1.a"), runs.get("2.a"), runs.get("3.a"), runs.get("3.ask")]).toEqual([1, 1, 1, 2]);
        expect(await store.latest(threadId)).toBeUndefined();
        await expect(graph.updateState(threadId, { answers: [] }, { checkpointer: store })).rejects.toMatchObject({
          code: "SUBGRAPH_NOT_FOUND",
        });
      });

      it("bulkUpdateState of the innermost paused child stores its supersteps together, each continuing the one before; the resume continues from the last", async () => {
        const runs = new Map<string, number>();
        const graph = nestedGraph(3, runs);
        await graph.invoke(nestedInput, { threadId: "bulk", checkpointer: store });
        const innermost = (await graph.getState("bulk", { checkpointer: store, subgraphs: true }))?.tasks[0]?.state?.tasks[0]?.state;
        const threadId = innermost?.threadId as string;
        const last = await graph.bulkUpdateState(
          threadId,
          [{ updates: [{ values: { answers: ["by hand"] } }] }, { updates: [{ values: { log: ["edited"] } }] }],
          { checkpointer: store },
        );
        const [second, first] = await store.list(threadId, { limit: 2 });
        expect(second).toEqual(last);
        expect(first).toMatchObject({ parentId: innermost?.id, subgraphUpdate: { log: ["3.a"], answers: ["by hand"] } });
        expect(last).toMatchObject({ parentId: first?.id, subgraphUpdate: { log: ["3.a", "edited"], answers: ["by hand"] } });
        expect(last.interrupts?.map((pending) => pending.id)).toEqual(["3.ask:2:0:0"]);
        // A batch whose second superstep is refused stores nothing.
        await expect(
          graph.bulkUpdateState(
            threadId,
            [{ updates: [{ values: { answers: ["x"] } }] }, { updates: [{ values: { answers: "not a list" } as never }] }],
            {
              checkpointer: store,
            },
          ),
        ).rejects.toBeInstanceOf(Error);
        expect(await store.latest(threadId)).toEqual(last);
        const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "bulk", checkpointer: store });
        expect(done.state.answers).toEqual(["by hand", "3.ask=yes"]);
        expect(done.state.log).toContain("edited");
      });

      it("getState and getStateHistory read each paused level's own thread, two levels down; once the run ends, SUBGRAPH_NOT_FOUND", async () => {
        const graph = nestedGraph(3, new Map());
        await graph.invoke(nestedInput, { threadId: "read", checkpointer: store });
        const middle = (await graph.getState("read", { checkpointer: store, subgraphs: true }))?.tasks[0]?.state;
        const innermost = middle?.tasks[0]?.state;
        if (middle === undefined || innermost === undefined) throw new Error("expected both levels");
        expect(await graph.getState(middle.threadId, { checkpointer: store, subgraphs: true })).toEqual(middle);
        const state = await graph.getState(innermost.threadId, { checkpointer: store });
        expect(state).toEqual(await store.latest(innermost.threadId));
        expect(state).toMatchObject({ next: ["3.ask"], trace: ["3.a"], interrupts: [{ id: "3.ask:2:0:0" }] });
        const history = await graph.getStateHistory(innermost.threadId, { checkpointer: store });
        expect(history).toEqual(await store.list(innermost.threadId));
        expect(history.map((c) => [c.metadata.source, c.parentId])).toEqual([
          ["interrupt", history[1]?.id],
          ["loop", history[2]?.id],
          ["input", null],
        ]);
        expect(await graph.getStateHistory(innermost.threadId, { checkpointer: store, limit: 1 })).toEqual([state]);
        await graph.invoke(new Command({ resume: "yes" }), { threadId: "read", checkpointer: store });
        for (const threadId of [middle.threadId, innermost.threadId]) {
          await expect(graph.getState(threadId, { checkpointer: store })).rejects.toMatchObject({ code: "SUBGRAPH_NOT_FOUND", threadId });
          await expect(graph.getStateHistory(threadId, { checkpointer: store })).rejects.toMatchObject({ code: "SUBGRAPH_NOT_FOUND" });
        }
      });
    });

    describe("pending writes (putWrites)", () => {
      const two = () =>
        checkpoint({
          next: ["a", "b", "c"],
          tasks: [
            { node: "a", sent: false },
            { node: "b", sent: false },
            { node: "c", sent: true, input: { doc: 1 } },
          ],
        });

      it("keeps writes with their checkpoint, in task order, as latest, get and list read it", async () => {
        const a = two();
        await store.save(a, null);
        await store.putWrites("t1", a.id, [{ task: 2, node: "c", update: { n: 3, deep: { list: [1, null] } } }]);
        await store.putWrites("t1", a.id, [{ task: 0, node: "a", update: { n: 1 } }]);
        const expected = [
          { task: 0, node: "a", update: { n: 1 } },
          { task: 2, node: "c", update: { n: 3, deep: { list: [1, null] } } },
        ];
        expect((await store.latest("t1"))?.pendingWrites).toEqual(expected);
        expect((await store.get("t1", a.id))?.pendingWrites).toEqual(expected);
        expect((await store.list("t1"))[0]?.pendingWrites).toEqual(expected);
        expect({ ...(await store.latest("t1")), pendingWrites: undefined }).toEqual({ ...a, pendingWrites: undefined });
      });

      it("has no pendingWrites field on a checkpoint without writes, and keeps each checkpoint's own", async () => {
        const a = two();
        const b = checkpoint({ parentId: a.id, step: 1 });
        await saveChain(store, a, b);
        await store.putWrites("t1", a.id, [{ task: 1, node: "b", update: { n: 2 } }]);
        expect(await store.latest("t1")).not.toHaveProperty("pendingWrites");
        expect((await store.list("t1")).map((c) => c.pendingWrites?.map((w) => w.task))).toEqual([undefined, [1]]);
      });

      it("keeps the first write of a task: a second runner of the same superstep changes nothing", async () => {
        const a = two();
        await store.save(a, null);
        await store.putWrites("t1", a.id, [{ task: 0, node: "a", update: { n: 1 } }]);
        await store.putWrites("t1", a.id, [
          { task: 0, node: "a", update: { n: 99 } },
          { task: 1, node: "b", update: { n: 2 } },
        ]);
        expect((await store.latest("t1"))?.pendingWrites).toEqual([
          { task: 0, node: "a", update: { n: 1 } },
          { task: 1, node: "b", update: { n: 2 } },
        ]);
      });

      it("saves a checkpoint's pendingWrites with it, and returns them as saved", async () => {
        const a = { ...two(), pendingWrites: [{ task: 1, node: "b", update: { n: 2 } }] };
        await store.save(a, null);
        expect(await store.latest("t1")).toEqual(a);
      });

      it("copies what it is given: changing the write afterwards changes nothing stored", async () => {
        const a = two();
        await store.save(a, null);
        const write = { task: 0, node: "a", update: { list: [1] } };
        await store.putWrites("t1", a.id, [write]);
        write.update.list.push(2);
        const read = await store.latest("t1");
        const readUpdate = read?.pendingWrites?.[0]?.update as { list: number[] } | undefined;
        readUpdate?.list.push(3);
        expect((await store.latest("t1"))?.pendingWrites).toEqual([{ task: 0, node: "a", update: { list: [1] } }]);
      });

      it("refuses writes for a checkpoint the thread does not have (CHECKPOINT_NOT_FOUND), storing nothing", async () => {
        const a = two();
        await store.save(a, null);
        const error = await store.putWrites("t2", a.id, [{ task: 0, node: "a", update: {} }]).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PersistenceError);
        expect(error).toMatchObject({ code: "CHECKPOINT_NOT_FOUND", threadId: "t2", checkpointId: a.id });
        await expect(store.putWrites("t1", "cp-missing", [])).rejects.toMatchObject({ code: "CHECKPOINT_NOT_FOUND" });
        expect(await store.latest("t1")).toEqual(a);
      });

      it.each([
        ["not a list", { task: 0 }, "the writes must be a list"],
        ["a negative task", [{ task: -1, node: "a", update: {} }], "writes[0].task must be a whole number"],
        ["a fractional task", [{ task: 0.5, node: "a", update: {} }], "writes[0].task must be a whole number"],
        ["no node", [{ task: 0, update: {} }], "writes[0].node must be a node name"],
        ["a list update", [{ task: 0, node: "a", update: [] }], "writes[0].update must be a plain object"],
        ["a non-JSON value", [{ task: 0, node: "a", update: { when: new Date(0) } }], "writes[0].update.when is"],
        ["a bad second write", [{ task: 0, node: "a", update: {} }, null], "writes[1] must be an object"],
      ])("refuses %s with INVALID_WRITE naming it, storing nothing", async (_what, writes, message) => {
        const a = two();
        await store.save(a, null);
        const error = (await store.putWrites("t1", a.id, writes as never).catch((e: unknown) => e)) as PersistenceError;
        expect(error).toBeInstanceOf(PersistenceError);
        expect(error.code).toBe("INVALID_WRITE");
        expect(error.message).toMatch(/^\w+Checkpointer\.putWrites: /);
        expect(error.message).toContain(message);
        expect(await store.latest("t1")).toEqual(a);
      });

      it("deletes a thread's writes with the thread", async () => {
        const a = two();
        await store.save(a, null);
        await store.putWrites("t1", a.id, [{ task: 0, node: "a", update: { n: 1 } }]);
        await store.deleteThread("t1");
        const again = { ...two(), id: a.id };
        await store.save(again, null);
        expect(await store.latest("t1")).toEqual(again);
      });
    });

    describe("traces, routes and history across runs and forks", () => {
      it("reads every checkpoint's trace and routes as saved: a growing run, a new run, a fork, an update", async () => {
        const route = (n: number) => ({ from: `n${n}`, key: n % 2 === 0 ? "even" : "odd", to: `n${n + 1}` });
        const saved: Checkpoint[] = [];
        const push = async (c: Checkpoint) => {
          await store.save(c, saved.at(-1)?.id ?? null);
          saved.push(c);
        };
        await push(checkpoint({ step: 0 }));
        for (let i = 1; i <= 30; i++) {
          const parent = saved.at(-1) as Checkpoint;
          await push(checkpoint({ step: i, parentId: parent.id, trace: [...parent.trace, `n${i}`], routes: [...parent.routes, route(i)] }));
        }
        const middle = saved[12] as Checkpoint;
        // A fork from the middle, going another way; a new run (trace from scratch); an update (the same lists).
        await push(checkpoint({ step: 13, parentId: middle.id, trace: [...middle.trace, "other"], routes: [...middle.routes, route(99)] }));
        const forkTip = saved.at(-1) as Checkpoint;
        await push(checkpoint({ step: 14, parentId: forkTip.id, trace: [], routes: [{ from: "__start__", key: "go", to: "n1" }] }));
        const restart = saved.at(-1) as Checkpoint;
        await push(checkpoint({ step: 15, parentId: restart.id, trace: restart.trace, routes: restart.routes }));
        await push(checkpoint({ step: 16, parentId: (saved[30] as Checkpoint).id, trace: ["n1", "x", "n3"], routes: [] }));
        expect(await store.list("t1")).toEqual([...saved].reverse());
        expect(await store.list("t1", { limit: 3 })).toEqual(saved.slice(-3).reverse());
        for (const c of [saved[0], middle, forkTip, saved[30], saved.at(-1)])
          expect(await store.get("t1", (c as Checkpoint).id)).toEqual(c);
        expect(await store.latest("t1")).toEqual(saved.at(-1));
      });

      it("hands out detached lists from history too", async () => {
        const a = checkpoint({ trace: ["a"], routes: [{ from: "a", key: "k", to: "b" }] });
        const b = checkpoint({ parentId: a.id, step: 1, trace: ["a", "b"], routes: a.routes });
        await saveChain(store, a, b);
        const [first, second] = (await store.list("t1")) as [Checkpoint, Checkpoint];
        (first.trace as string[]).push("x");
        ((second.routes as unknown as { from: string }[])[0] as { from: string }).from = "changed";
        expect(await store.list("t1")).toEqual([b, a]);
        expect(await store.latest("t1")).toEqual(b);
      });
    });

    describe("retention (prune)", () => {
      // prune is optional in the interface: a store without it skips these tests (and says so).
      let prune: (first: string | PruneOptions, second?: PruneOptions) => Promise<PruneResult>;
      beforeEach((context) => {
        if (typeof store.prune !== "function") {
          context.skip();
          return;
        }
        prune = (store.prune as (first: string | PruneOptions, second?: PruneOptions) => Promise<PruneResult>).bind(store);
      });

      /** A thread of `count` checkpoints, each a day after the last, with growing traces. */
      async function thread(count: number, threadId = "t1"): Promise<Checkpoint[]> {
        const saved: Checkpoint[] = [];
        for (let i = 0; i < count; i++) {
          const parent = saved.at(-1);
          saved.push(
            checkpoint({
              threadId,
              step: i,
              parentId: parent?.id ?? null,
              trace: [...(parent?.trace ?? []), `n${i}`],
              routes: [...(parent?.routes ?? []), { from: `n${i}`, key: "k", to: `n${i + 1}` }],
              createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
            }),
          );
        }
        await saveChain(store, ...saved);
        return saved;
      }

      it("keepLast keeps the newest checkpoints, each reading exactly as before", async () => {
        const saved = await thread(10);
        expect(await prune("t1", { keepLast: 3 })).toEqual({ removed: 7 });
        expect(await store.list("t1")).toEqual(saved.slice(-3).reverse());
        expect(await store.latest("t1")).toEqual(saved.at(-1));
        expect(await store.get("t1", (saved[7] as Checkpoint).id)).toEqual(saved[7]);
        expect(await store.get("t1", (saved[6] as Checkpoint).id)).toBeUndefined();
        // The thread goes on from its latest: a new checkpoint after a prune reads whole too.
        const next = checkpoint({
          step: 10,
          parentId: (saved[9] as Checkpoint).id,
          trace: [...(saved[9] as Checkpoint).trace, "n10"],
          routes: (saved[9] as Checkpoint).routes,
        });
        await store.save(next, (saved[9] as Checkpoint).id);
        expect(await store.latest("t1")).toEqual(next);
        expect(await prune("t1", { keepLast: 1 })).toEqual({ removed: 3 });
        expect(await store.list("t1")).toEqual([next]);
      });

      it("olderThan keeps what was created since, and always the latest; both options keep what either keeps", async () => {
        const saved = await thread(6);
        expect(await prune("t1", { olderThan: new Date(Date.UTC(2026, 0, 5)) })).toEqual({ removed: 4 });
        expect((await store.list("t1")).map((c) => c.id)).toEqual([saved[5]?.id, saved[4]?.id]);
        expect(await prune("t1", { olderThan: "2030-01-01T00:00:00.000Z" })).toEqual({ removed: 1 });
        expect(await store.list("t1")).toEqual([saved[5]]);
        await store.deleteThread("t1");
        const again = await thread(6);
        expect(await prune("t1", { keepLast: 1, olderThan: "2026-01-05T00:00:00.000Z" })).toEqual({ removed: 4 });
        expect(await store.list("t1")).toEqual([again[5], again[4]]);
      });

      it("keeps a fork that continues a removed checkpoint readable, and its pending writes", async () => {
        const saved = await thread(5);
        const base = saved[1] as Checkpoint;
        const fork = checkpoint({ step: 2, parentId: base.id, trace: [...base.trace, "fork"], routes: base.routes });
        await store.save(fork, (saved[4] as Checkpoint).id);
        await store.putWrites("t1", fork.id, [{ task: 0, node: "work", update: { n: 1 } }]);
        await store.putWrites("t1", (saved[0] as Checkpoint).id, [{ task: 0, node: "work", update: { n: 0 } }]);
        expect(await prune("t1", { keepLast: 2 })).toEqual({ removed: 4 });
        expect(await store.latest("t1")).toEqual({ ...fork, pendingWrites: [{ task: 0, node: "work", update: { n: 1 } }] });
        expect(await store.get("t1", (saved[4] as Checkpoint).id)).toEqual(saved[4]);
      });

      it("prunes every thread without a thread id, and each keeps its own latest", async () => {
        const one = await thread(4, "a");
        const two = await thread(2, "b");
        expect(await prune({ keepLast: 1 })).toEqual({ removed: 4 });
        expect(await store.list("a")).toEqual([one.at(-1)]);
        expect(await store.list("b")).toEqual([two.at(-1)]);
        expect(await prune("nobody", { keepLast: 1 })).toEqual({ removed: 0 });
      });

      it.each([
        ["no options", ["t1"], "prune(threadId, options) or prune(options)"],
        ["no option to keep by", ["t1", {}], "say what to keep"],
        ["keepLast 0", ["t1", { keepLast: 0 }], "keepLast must be a positive integer"],
        ["keepLast 1.5", ["t1", { keepLast: 1.5 }], "keepLast must be a positive integer"],
        ["an invalid date", ["t1", { olderThan: new Date(Number.NaN) }], "olderThan must be a valid Date"],
        ["a string that is no date", ["t1", { olderThan: "yesterday" }], "olderThan must be a valid Date"],
        ["an unknown option", ["t1", { keepLast: 1, keepFirst: 2 }], 'unknown option "keepFirst"'],
        ["an empty thread id", ["", { keepLast: 1 }], "the thread id must be a non-empty string"],
      ])("refuses %s with INVALID_OPTION, removing nothing", async (_what, args, message) => {
        const saved = await thread(3);
        const error = (await (prune as (...a: unknown[]) => Promise<unknown>)(...args).catch((e: unknown) => e)) as Error;
        expect(error).toBeInstanceOf(InvalidOptionError);
        expect(error.message).toMatch(/^\w+Checkpointer\.prune: /);
        expect(error.message).toContain(message);
        expect(await store.list("t1")).toEqual([...saved].reverse());
      });
    });
  });
}
