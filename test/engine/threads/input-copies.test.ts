/**
 * A threaded `invoke` walks its input twice and no more: one JSON check (test/engine/threads/
 * input-checks.test.ts counts those alone) and one copy, the run's own (issue 34 §5). An input value
 * behind a counting getter is read once per walk over the input, so its reads count the checks and the
 * copies together. A plain `invoke`, which stores nothing, walks it once: its copy. A copy of that copy
 * would not read the getter, so the copies of the input's data until the first node's body runs are
 * also counted, by wrapping clone.ts's `cloneState` (read through property descriptors: no getter
 * fires). A plain `invoke` makes two: the run's copy of the input, and the first node's own view of the
 * state. A threaded one makes those two and no more.
 */
import { describe, expect, it, vi } from "vitest";

const copies = vi.hoisted(() => {
  /** Whether `value` holds the test's payload item (the caller's, or a copy of it), read without firing a getter. */
  const holdsPayload = (value: unknown, depth = 0): boolean => {
    if (depth > 4 || typeof value !== "object" || value === null) return false;
    const marker = Object.getOwnPropertyDescriptor(value, "marker");
    if (marker !== undefined && (marker.get !== undefined || marker.value === "payload")) return true;
    return Object.keys(value).some((key) => {
      const field = Object.getOwnPropertyDescriptor(value, key);
      return field !== undefined && "value" in field && holdsPayload(field.value, depth + 1);
    });
  };
  return { beforeNodes: 0, nodeStarted: false, holdsPayload };
});

vi.mock("../../../src/engine/clone.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/engine/clone.js")>();
  return {
    ...original,
    cloneState: <T>(value: T): T => {
      if (!copies.nodeStarted && copies.holdsPayload(value)) copies.beforeNodes += 1;
      return original.cloneState(value);
    },
  };
});

const [{ append, END, START, StateGraph }, { MemoryCheckpointer }] = await Promise.all([
  import("../../../src/index.js"),
  import("../../../src/persistence/index.js"),
]);

/** The input's payload list is merged through `append` onto a thread that has state. */
interface Payload {
  payload: { marker: string }[];
  n: number;
}

const graph = new StateGraph<Payload>({ reducers: { payload: append } })
  .addNode("count", (s) => {
    copies.nodeStarted = true;
    return { n: s.n + 1 };
  })
  .addEdge(START, "count")
  .addEdge("count", END)
  .compile();

/** The copies a plain invoke makes of the input's data until its first node runs: the run's copy, and the node's view. */
const PLAIN_COPIES = 2;

/** An input whose one nested value counts how often it is read. */
function countingInput(): { readonly input: Payload; readonly reads: () => number } {
  copies.beforeNodes = 0;
  copies.nodeStarted = false;
  let reads = 0;
  const item = Object.defineProperty({}, "marker", {
    enumerable: true,
    get: () => {
      reads += 1;
      return "payload";
    },
  }) as { marker: string };
  return { input: { payload: [item], n: 0 }, reads: () => reads };
}

describe("a threaded invoke checks its input once and copies it once", () => {
  it("a plain invoke walks the input once: its copy (the standard)", async () => {
    const counting = countingInput();
    await graph.invoke(counting.input);
    expect(counting.reads()).toBe(1);
    expect(copies.beforeNodes).toBe(PLAIN_COPIES);
  });

  it("on a new thread: two walks, the JSON check and the copy", async () => {
    const counting = countingInput();
    await graph.invoke(counting.input, { threadId: "fresh", checkpointer: new MemoryCheckpointer() });
    expect(counting.reads()).toBe(2);
    expect(copies.beforeNodes).toBe(PLAIN_COPIES);
  });

  it("on a thread that has state: two walks too (merging it onto the thread's state does not walk it again)", async () => {
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke({ payload: [], n: 0 }, { threadId: "walked", checkpointer });
    const counting = countingInput();
    const { state } = await graph.invoke(counting.input, { threadId: "walked", checkpointer });
    expect(counting.reads()).toBe(2);
    expect(copies.beforeNodes).toBe(PLAIN_COPIES);
    // The run's own copy: a data property with the value read, not the caller's getter.
    expect(Object.getOwnPropertyDescriptor(state.payload[0], "marker")).toMatchObject({ value: "payload" });
  });
});
