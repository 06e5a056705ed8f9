/**
 * MemoryCheckpointer on the small-checkpoint model: each checkpoint keeps of its trace and routes only
 * what its superstep added, so the text a checkpoint takes does not grow with the thread; reads
 * assemble the lists (history lazily, entry by entry).
 */
import { describe, expect, it } from "vitest";
import { MemoryCheckpointer, type Checkpoint } from "../../src/persistence/index.js";
import { tickerGraph as ticker } from "../helpers/graphs.js";

async function perCheckpoint(length: number): Promise<number> {
  const checkpointer = new MemoryCheckpointer();
  await ticker(length).invoke({ n: 0 }, { threadId: "t", checkpointer, maxSteps: 20_000, recursionLimit: 20_000 });
  const { checkpoints, bytes } = checkpointer.stats("t");
  expect(checkpoints).toBe(length + 1);
  return bytes / checkpoints;
}

describe("MemoryCheckpointer keeps small checkpoints", () => {
  it("takes a flat amount of text per checkpoint at 10, 500 and 2k checkpoints (within 1.5×)", async () => {
    const [short, long, longer] = [await perCheckpoint(10), await perCheckpoint(500), await perCheckpoint(2000)];
    expect(long / short).toBeLessThan(1.5);
    expect(longer / short).toBeLessThan(1.5);
    // A whole-checkpoint store would hold a thousand trace entries per checkpoint on average at 2k.
    expect(longer).toBeLessThan(1000);
  }, 60_000);

  it("reads every checkpoint whole: latest, get, and a history whose lists are assembled when first read", async () => {
    const checkpointer = new MemoryCheckpointer();
    const result = await ticker(300).invoke({ n: 0 }, { threadId: "t", checkpointer, maxSteps: 1000, recursionLimit: 1000 });
    const history = await checkpointer.list("t");
    expect(Object.getOwnPropertyDescriptor(history[0], "trace")?.get).toBeTypeOf("function");
    expect(history.map((c) => c.trace.length)).toEqual(Array.from({ length: 301 }, (_, i) => 300 - i));
    expect(history.map((c) => c.routes.length)).toEqual(Array.from({ length: 301 }, (_, i) => 300 - i));
    expect(history[0]?.trace).toEqual(result.trace);
    expect(history[0]?.routes).toEqual(result.routes);
    expect(await checkpointer.latest("t")).toEqual(history[0]);
    // Out of order, from a cold start (another thread read in between).
    await ticker(3).invoke({ n: 0 }, { threadId: "other", checkpointer });
    expect(await checkpointer.get("t", history[150]?.id as string)).toEqual(history[150]);
    // Lists handed out are copies: changing one changes nothing stored.
    ((history[0] as Checkpoint).trace as string[]).push("tampered");
    expect((await checkpointer.latest("t"))?.trace).toEqual(result.trace);
  });

  it("a new input on the thread stores a trace that continues nothing, and a fork shares its parent's", async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = ticker(3);
    await graph.invoke({ n: 0 }, { threadId: "t", checkpointer });
    const [, , second] = await checkpointer.list("t");
    await graph.invoke(null, { threadId: "t", checkpointer, checkpointId: second?.id as string });
    await graph.invoke({ n: 1 }, { threadId: "t", checkpointer });
    const lengths = (await checkpointer.list("t")).map((c) => c.trace.length);
    // Oldest first: the first run (0…3), the fork from its checkpoint after one tick (2, 3), the new run (0…2).
    expect(lengths.reverse()).toEqual([0, 1, 2, 3, 2, 3, 0, 1, 2]);
  });
});
