/**
 * `durability: "async"`: the checkpoints of a threaded run are stored behind it, several in one
 * `saveMany`, and the run returns (or pauses, or throws) only once they are stored. The same run in
 * sync and async mode leaves the same thread; a store failure behind the run fails the run.
 * `durability: "exit"`: nothing is stored until the run ends, pauses or fails, then all of it at once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, END, GraphExecutionError, InvalidOptionError, START, StateGraph, sum } from "../../src/index.js";
import {
  PersistenceError,
  SqliteCheckpointer,
  type Checkpoint,
  type Checkpointer,
  type SqliteDriverName,
} from "../../src/persistence/index.js";
import { parallelGraph, parallelInput, storesUnderTest } from "./_helpers.js";

/** A store that counts the calls it gets, and can fail the next save. */
class Counting implements Checkpointer {
  readonly calls: string[] = [];
  failNext: Error | undefined;
  constructor(readonly inner: Checkpointer) {
    const many = inner.saveMany?.bind(inner);
    if (many === undefined) return;
    this.saveMany = async (checkpoints, expected) => {
      this.calls.push(`saveMany ${checkpoints.length}`);
      this.#fail();
      return many(checkpoints, expected);
    };
  }
  async save(checkpoint: Checkpoint, expected: string | null) {
    this.calls.push("save");
    this.#fail();
    return this.inner.save(checkpoint, expected);
  }
  saveMany?: NonNullable<Checkpointer["saveMany"]>;
  latest = (threadId: string) => this.inner.latest(threadId);
  get = (threadId: string, id: string) => this.inner.get(threadId, id);
  list = (threadId: string) => this.inner.list(threadId);
  deleteThread = (threadId: string) => this.inner.deleteThread(threadId);
  putWrites: Checkpointer["putWrites"] = (...args) => {
    this.calls.push("putWrites");
    return this.inner.putWrites(...args);
  };
  #fail() {
    const error = this.failNext;
    this.failNext = undefined;
    if (error !== undefined) throw error;
  }
}

const stores = storesUnderTest("durability.sqlite");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a thread's history says, without ids and times. */
const shapeOf = (history: readonly Checkpoint[]) =>
  history.map((c) => ({
    step: c.step,
    state: c.state,
    next: c.next,
    trace: c.trace,
    source: c.metadata.source,
    writes: c.metadata.writes,
  }));

const counter = () =>
  new StateGraph<{ n: number; log: string[] }>({ reducers: { log: append } })
    .addNode("a", (s) => ({ n: s.n + 1, log: ["a"] }))
    .addNode("b", (s) => ({ n: s.n * 10, log: ["b"] }))
    .addNode("c", (s) => ({ n: s.n + 2, log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END);

type Logged = { n: number; log: string[] };

/** a → b → c, each node made by `node(name)`. */
const chainOf = (node: (name: string) => (s: Logged) => Promise<Partial<Logged>>) =>
  new StateGraph<Logged>({ reducers: { log: append } })
    .addNode("a", node("a"))
    .addNode("b", node("b"))
    .addNode("c", node("c"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END);

/**
 * "one" and "two" in one superstep, summing into `value`; "two" awaits, then throws until `heal()`.
 * `calls.one` counts the runs of "one": whether its write was kept for the resume.
 */
function twoFailsOnce() {
  let twoFails = true;
  const calls = { one: 0 };
  const graph = new StateGraph<{ value: number }>({ reducers: { value: sum } })
    .addNode("one", () => {
      calls.one += 1;
      return { value: 2 };
    })
    .addNode("two", async () => {
      await sleep(2);
      if (twoFails) throw new Error("two broke");
      return { value: 3 };
    })
    .addEdge(START, ["one", "two"])
    .addEdge(["one", "two"], END)
    .compile();
  return { graph, calls, heal: () => void (twoFails = false) };
}

describe.each(stores)("durability on %s", (_name, open) => {
  let store: Checkpointer;
  let checkpointer: Counting;
  let close: () => void;
  beforeEach(() => {
    ({ checkpointer: store, close } = open());
    checkpointer = new Counting(store);
  });
  afterEach(() => close());

  it("leaves the same thread in async mode as in sync mode, stored before invoke returns", async () => {
    const graph = counter().compile();
    const sync = await graph.invoke({ n: 1, log: [] }, { threadId: "sync", checkpointer });
    const callsInSync = checkpointer.calls.length;
    const async = await graph.invoke({ n: 1, log: [] }, { threadId: "async", checkpointer, durability: "async" });
    expect(async.state).toEqual(sync.state);
    expect(async.trace).toEqual(["a", "b", "c"]);
    expect(shapeOf(await store.list("async"))).toEqual(shapeOf(await store.list("sync")));
    expect((await store.latest("async"))?.id).toBe(async.checkpointId);
    expect(callsInSync).toBe(4);
    // Synchronous nodes never yield to the event loop: the four checkpoints go to the store together.
    expect(checkpointer.calls.slice(callsInSync)).toEqual(store.saveMany === undefined ? ["save", "save", "save", "save"] : ["saveMany 4"]);
    // The thread continues as any other: a new input merges onto its state.
    const again = await graph.invoke({ n: 0, log: ["again"] }, { threadId: "async", checkpointer, durability: "async" });
    expect(again.state.log).toEqual(["a", "b", "c", "again", "a", "b", "c"]);
    expect((await store.list("async")).length).toBe(8);
  });

  it("async mode, synchronous nodes: the run's end stores its checkpoints at once, not a turn of the event loop later", async () => {
    const graph = counter().compile();
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const done = await graph.invoke({ n: 1, log: [] }, { threadId: "soon", checkpointer, durability: "async" });
    // Every call the run made (the latest read, the saves) settled without the event loop turning.
    expect(turned).toBe(false);
    expect((await store.latest("soon"))?.id).toBe(done.checkpointId);
    expect(checkpointer.calls).toEqual(store.saveMany === undefined ? ["save", "save", "save", "save"] : ["saveMany 4"]);
  });

  it("sync mode: each checkpoint is stored before the next superstep starts, on the store itself", async () => {
    // The store unwrapped: SqliteCheckpointer saves synchronously there (no promise between supersteps).
    const seen: number[] = [];
    const look = (name: string) => async (s: { n: number; log: string[] }) => {
      seen.push((await store.latest("seen"))?.step ?? -1);
      return { n: s.n + 1, log: [name] };
    };
    const graph = chainOf(look).compile();
    const done = await graph.invoke({ n: 0, log: [] }, { threadId: "seen", checkpointer: store });
    expect(seen).toEqual([0, 1, 2]);
    expect((await store.latest("seen"))?.id).toBe(done.checkpointId);
    expect((await store.list("seen")).map((c) => c.state.n)).toEqual([3, 2, 1, 0]);
  });

  it("stores behind a node that awaits, in order, and streams the same chunks", async () => {
    const graph = new StateGraph<{ n: number }>()
      .addNode("slow", async (s) => {
        await sleep(5);
        return { n: s.n + 1 };
      })
      .addNode("fast", (s) => ({ n: s.n * 2 }))
      .addEdge(START, "slow")
      .addEdge("slow", "fast")
      .addEdge("fast", END)
      .compile();
    const chunks: unknown[] = [];
    for await (const chunk of graph.stream({ n: 1 }, { threadId: "s", checkpointer, durability: "async", streamMode: "values" }))
      chunks.push(chunk);
    expect(chunks.at(-1)).toMatchObject({ state: { n: 4 } });
    expect((await store.list("s")).map((c) => c.step)).toEqual([2, 1, 0]);
    expect((await store.latest("s"))?.state).toEqual({ n: 4 });
  });

  it("keeps a parallel sibling's write for its superstep's checkpoint, stored first", async () => {
    const { graph, calls, heal } = twoFailsOnce();
    const thread = { threadId: "p", checkpointer, durability: "async" } as const;
    await expect(graph.invoke({ value: 1 }, thread)).rejects.toThrow("two broke");
    // Beside it, the reserved write that records two's failure (getState's tasks[1].error).
    expect((await store.latest("p"))?.pendingWrites).toEqual([
      { task: 0, node: "one", update: { value: 2 } },
      { task: 1, node: "two", update: { __tsg_error__: expect.objectContaining({ code: "NODE_FAILED" }) } },
    ]);
    heal();
    expect((await graph.invoke(null, thread)).state).toEqual({ value: 6 });
    expect(calls.one).toBe(1);
  });

  it("runs the parallel graph to the same thread as sync mode", async () => {
    const graph = parallelGraph();
    const sync = await graph.invoke(parallelInput(), { threadId: "ps", checkpointer });
    const async = await graph.invoke(parallelInput(), { threadId: "pa", checkpointer, durability: "async" });
    expect(async.state).toEqual(sync.state);
    expect(shapeOf(await store.list("pa"))).toEqual(shapeOf(await store.list("ps")));
  });

  it("fails the run with the store's error when a save behind it fails, keeping what was stored before", async () => {
    const graph = new StateGraph<{ n: number }>()
      .addNode("a", async (s) => {
        // Wait for the input's checkpoint to be handed to the store (the store checks failNext when it is
        // called), rather than for a fixed time: under load a timer can fire before the drain starts, and
        // the input's checkpoint would then travel in the failing batch.
        while (checkpointer.calls.length === 0) await sleep(1);
        return { n: s.n + 1 };
      })
      .addNode("b", async (s) => {
        checkpointer.failNext = new PersistenceError("DISK_FULL", "test: the disk is full");
        await sleep(5);
        return { n: s.n + 1 };
      })
      .addNode("c", (s) => ({ n: s.n + 1 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .compile();
    const error = await graph.invoke({ n: 0 }, { threadId: "x", checkpointer, durability: "async" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect((error as PersistenceError).code).toBe("DISK_FULL");
    // The input's checkpoint was stored while "a" waited; the one after "a" failed, and nothing after it was stored.
    expect((await store.list("x")).map((c) => c.step)).toEqual([0]);
  });

  it("calls the save of a store that overrides SqliteCheckpointer's (a subclass or a wrapper), in sync mode", async () => {
    if (!(store instanceof SqliteCheckpointer)) return;
    const file = store.file;
    const saves: number[] = [];
    class Logged extends SqliteCheckpointer {
      override async save(checkpoint: Checkpoint, expected: string | null): Promise<void> {
        saves.push(checkpoint.step);
        return super.save(checkpoint, expected);
      }
    }
    const logged = new Logged(file, { driver: store.driver as SqliteDriverName });
    // It inherits SqliteCheckpointer's methods, its own save in front.
    const wrapped = Object.assign(Object.create(store) as SqliteCheckpointer, {
      save: (checkpoint: Checkpoint, expected: string | null) => {
        saves.push(-checkpoint.step);
        return store.save(checkpoint, expected);
      },
      latest: store.latest.bind(store),
    });
    try {
      const graph = counter().compile();
      await graph.invoke({ n: 1, log: [] }, { threadId: "logged", checkpointer: logged });
      await graph.invoke({ n: 1, log: [] }, { threadId: "wrapped", checkpointer: wrapped });
    } finally {
      logged.close();
    }
    expect(saves).toEqual([0, 1, 2, 3, -0, -1, -2, -3]);
    expect((await store.list("logged")).length).toBe(4);
  });

  it("refuses a durability it does not know", async () => {
    const graph = counter().compile();
    const options = { threadId: "bad", checkpointer, durability: "on exit" } as unknown as { threadId: string };
    await expect(graph.invoke({ n: 1, log: [] }, options)).rejects.toThrow(InvalidOptionError);
    await expect(graph.invoke({ n: 1, log: [] }, options)).rejects.toThrow(/invoke: durability must be "sync".*"async".*or "exit"/);
    expect(checkpointer.calls).toEqual([]);
  });

  // What "async" and "exit" share: what committed before a failure or a pause is in the store when the
  // call returns (with "exit", all of it at once), and the thread resumes from it.
  describe.each(["async", "exit"] as const)('durability "%s"', (durability) => {
    it("stores what committed before a node failed, so invoke(null) resumes there", async () => {
      let fail = true;
      const graph = new StateGraph<{ n: number }>()
        .addNode("a", async (s) => {
          await sleep(1);
          return { n: s.n + 1 };
        })
        .addNode("b", (s) => {
          if (fail) throw new Error("b broke");
          return { n: s.n * 3 };
        })
        .addEdge(START, "a")
        .addEdge("a", "b")
        .addEdge("b", END)
        .compile();
      const thread = { threadId: "f", checkpointer, durability } as const;
      await expect(graph.invoke({ n: 1 }, thread)).rejects.toThrow(GraphExecutionError);
      expect((await store.latest("f"))?.next).toEqual(["b"]);
      fail = false;
      expect((await graph.invoke(null, thread)).state).toEqual({ n: 6 });
    });

    it("pauses at an interrupt with the interrupt's checkpoint stored, and resumes", async () => {
      const graph = counter().compile({ interruptBefore: ["b"] });
      const thread = { threadId: "i", checkpointer, durability } as const;
      const paused = await graph.invoke({ n: 1, log: [] }, thread);
      expect(paused.status).toBe("interrupted");
      expect((await store.latest("i"))?.id).toBe(paused.checkpointId);
      expect((await store.latest("i"))?.next).toEqual(["b"]);
      const done = await graph.invoke(null, thread);
      expect(done.state).toEqual({ n: 22, log: ["a", "b", "c"] });
      expect((await store.list("i")).map((c) => c.step)).toEqual([3, 2, 1, 0]);
    });
  });

  describe('durability "exit" alone', () => {
    /** a → b → c, each awaiting I/O first and noting what the store holds of the thread. */
    const awaiting = (seen: (number | undefined)[], threadId: string) => {
      const look = (name: string) => async (s: { n: number; log: string[] }) => {
        await sleep(2);
        seen.push((await store.list(threadId)).length);
        return { n: s.n + 1, log: [name] };
      };
      return chainOf(look);
    };

    it("stores nothing while the run goes on, even when its nodes await I/O, then every checkpoint at once", async () => {
      const seen: (number | undefined)[] = [];
      const graph = awaiting(seen, "x").compile();
      const first = await graph.invoke({ n: 0, log: [] }, { threadId: "x", checkpointer, durability: "exit" });
      expect(seen).toEqual([0, 0, 0]);
      expect(checkpointer.calls).toEqual(store.saveMany === undefined ? ["save", "save", "save", "save"] : ["saveMany 4"]);
      expect((await store.latest("x"))?.id).toBe(first.checkpointId);
      // The next run on the thread: the store holds the first run's 4 checkpoints until this one ends.
      seen.length = 0;
      const second = await graph.invoke({ n: 0, log: ["again"] }, { threadId: "x", checkpointer, durability: "exit" });
      expect(seen).toEqual([4, 4, 4]);
      expect(second.state).toEqual({ n: 3, log: ["a", "b", "c", "again", "a", "b", "c"] });
      expect((await store.list("x")).length).toBe(8);
    });

    it("stores nothing of the parent mid-run when a subgraph ran, and deletes the child's thread once the run is stored", async () => {
      const child = new StateGraph<{ n: number; log: string[] }>({ reducers: { log: append } })
        .addNode("inner", async (s) => {
          await sleep(1);
          return { n: s.n + 1, log: ["inner"] };
        })
        .addEdge(START, "inner")
        .addEdge("inner", END)
        .compile();
      const seen: number[] = [];
      const graph = new StateGraph<{ n: number; log: string[] }>({ reducers: { log: append } })
        .addNode("sub", child)
        .addNode("look", async (s) => {
          await sleep(1);
          seen.push((await store.list("s")).length);
          return { n: s.n * 10, log: ["look"] };
        })
        .addEdge(START, "sub")
        .addEdge("sub", "look")
        .addEdge("look", END)
        .compile();
      const done = await graph.invoke({ n: 1, log: [] }, { threadId: "s", checkpointer, durability: "exit" });
      expect(done.state).toEqual({ n: 20, log: ["inner", "look"] });
      expect(seen).toEqual([0]);
      expect((await store.list("s")).length).toBe(3);
      expect(checkpointer.calls.filter((call) => call.startsWith("save")).at(-1)).toBe(
        store.saveMany === undefined ? "save" : "saveMany 3",
      );
    });

    it("keeps no pending write mid-run: a failed parallel superstep runs whole again on resume", async () => {
      const { graph, calls, heal } = twoFailsOnce();
      const thread = { threadId: "p", checkpointer, durability: "exit" } as const;
      await expect(graph.invoke({ value: 1 }, thread)).rejects.toThrow("two broke");
      expect(checkpointer.calls).not.toContain("putWrites");
      expect((await store.latest("p"))?.pendingWrites).toBeUndefined();
      heal();
      expect((await graph.invoke(null, thread)).state).toEqual({ value: 6 });
      expect(calls.one).toBe(2);
    });
  });
});
