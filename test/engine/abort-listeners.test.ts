/**
 * Many tasks waiting on one signal share one abort listener: retrying more than ten parallel `Send`s,
 * or running many async nodes under a caller's signal, never prints Node's
 * MaxListenersExceededWarning (issue 37 §1).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Send, append, stateGraph } from "../../src/index.js";

interface Fan {
  items: number[];
  done: number[];
}

const N = 30;

function fanOut(work: (item: number, attempt: number) => Promise<Partial<Fan>> | Partial<Fan>, retry: boolean) {
  const attempts = new Map<number, number>();
  return stateGraph<Fan>()({ reducers: { done: append } })
    .addNode("split", () => ({}))
    .addNode(
      "work",
      (s: Fan & { item?: number }) => {
        const item = s.item ?? -1;
        const attempt = (attempts.get(item) ?? 0) + 1;
        attempts.set(item, attempt);
        return work(item, attempt);
      },
      retry ? { retry: { maxAttempts: 3, initialInterval: 5, jitter: false } } : {},
    )
    .addEdge("__start__", "split")
    .addConditionalEdges("split", (s) => s.items.map((item) => new Send("work", { ...s, item })), ["work"])
    .addEdge("work", "__end__")
    .compile();
}

const items = Array.from({ length: N }, (_, i) => i);
let warnings: string[] = [];
const record = (warning: Error): void => {
  warnings.push(`${warning.name}: ${warning.message}`);
};

beforeEach(() => {
  warnings = [];
  process.on("warning", record);
});
afterEach(() => {
  process.off("warning", record);
});

/** Lets a warning emitted during the run reach its listener (Node emits it on the next tick). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("one abort listener per signal", () => {
  it(`retrying ${N} parallel Sends at once prints no MaxListenersExceededWarning`, async () => {
    const graph = fanOut((item, attempt) => {
      if (attempt === 1) throw new Error(`flaky ${item}`);
      return { done: [item] };
    }, true);
    const result = await graph.invoke({ items, done: [] });
    await settle();
    expect(result.state.done.toSorted((a, b) => a - b)).toEqual(items);
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });

  it(`${N} async nodes under a caller's signal print no MaxListenersExceededWarning`, async () => {
    const graph = fanOut(async (item) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { done: [item] };
    }, false);
    const controller = new AbortController();
    const result = await graph.invoke({ items, done: [] }, { signal: controller.signal });
    await settle();
    expect(result.state.done).toHaveLength(N);
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });

  it("a retry wait still ends when the run aborts", async () => {
    const graph = fanOut(() => {
      throw new Error("always");
    }, true);
    const controller = new AbortController();
    const running = graph.invoke({ items, done: [] }, { signal: controller.signal }).catch((error: unknown) => error);
    setTimeout(() => controller.abort(new Error("stop")), 2);
    expect(await running).toMatchObject({ code: "ABORTED" });
  });
});
