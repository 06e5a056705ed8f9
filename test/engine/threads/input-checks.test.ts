/**
 * A threaded `invoke` JSON-checks its input once, as it comes in: the input checkpoint does not check
 * the same data again (a copy of a checked input, or a thread's state read from its store). The JSON
 * checks are counted by wrapping json-check.ts; only the walks over the input's own payload count.
 */
import { describe, expect, it, vi } from "vitest";

const counted = vi.hoisted(() => {
  const marked = (value: unknown, depth = 0): boolean => {
    if (depth > 4 || typeof value !== "object" || value === null) return false;
    if ((value as { marker?: unknown }).marker === "payload") return true;
    return Object.values(value).some((item) => marked(item, depth + 1));
  };
  return { checks: 0, marked };
});

vi.mock("../../../src/engine/json-check.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/engine/json-check.js")>();
  return {
    ...original,
    checkJson: (value: unknown, root: string, api: string) => {
      if (counted.marked(value)) counted.checks += 1;
      return original.checkJson(value, root, api);
    },
    findNonJson: (value: unknown, path: string, key?: string) => {
      if (counted.marked(value)) counted.checks += 1;
      return original.findNonJson(value, path, key);
    },
  };
});

const { append, END, START, StateGraph } = await import("../../../src/index.js");
const { MemoryCheckpointer } = await import("../../../src/persistence/index.js");

interface Payload {
  payload: { marker: string }[];
  log: string[];
  n: number;
}

const graph = new StateGraph<Payload>({ reducers: { log: append } })
  .addNode("a", (s) => ({ n: s.n + 1 }))
  .addEdge(START, "a")
  .addEdge("a", END)
  .compile();

const input = (): Payload => ({ payload: [{ marker: "payload" }], log: [], n: 0 });

describe("a threaded invoke checks its input once", () => {
  it("on a new thread", async () => {
    counted.checks = 0;
    await graph.invoke(input(), { threadId: "new", checkpointer: new MemoryCheckpointer() });
    expect(counted.checks).toBe(1);
  });

  it("on a thread that has state (the input merged onto it)", async () => {
    const checkpointer = new MemoryCheckpointer();
    await graph.invoke({ payload: [], log: [], n: 0 }, { threadId: "kept", checkpointer });
    counted.checks = 0;
    await graph.invoke(input(), { threadId: "kept", checkpointer });
    expect(counted.checks).toBe(1);
  });

  it("a field a reducer merged the input into is new data: it is checked, as a node's update would be", async () => {
    // A reducer whose result is not JSON: the input is, and the thread's state is, but what they merge into is not.
    const odd = new StateGraph<{ log: unknown[] }>({ reducers: { log: (a: unknown[], b: unknown[]) => [...a, ...b, () => "odd"] } })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    await odd.invoke({ log: ["x"] }, { threadId: "merged", checkpointer });
    await expect(odd.invoke({ log: ["y"] }, { threadId: "merged", checkpointer })).rejects.toMatchObject({ code: "NOT_SERIALIZABLE" });
  });
});
