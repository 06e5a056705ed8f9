import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";
import { MAX_COPY_DEPTH } from "../../../src/engine/clone.js";
import { findNonJson } from "../../../src/engine/json-check.js";

/** `{ next: { next: … } }`, `levels` deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < levels; i++) {
    const child: Record<string, unknown> = {};
    node.next = child;
    node = child;
  }
  return root;
}

describe("findNonJson", () => {
  it("names the path to the value, through arrays and keys that are not identifiers, from the root and key given", () => {
    const value = { "a b": [1, { c: Number.NaN }] };
    expect(findNonJson(value, "state", "odd key")?.path).toBe('state["odd key"]["a b"][1].c');
    expect(findNonJson(value, "update")?.path).toBe('update["a b"][1].c');
    expect(findNonJson(Number.NaN, "state", "n")?.path).toBe("state.n");
    expect(findNonJson({ ok: [1, "two", null] }, "state", "n")).toBeUndefined();
  });

  it("accepts nesting up to the engine's copy depth", () => {
    expect(findNonJson(nested(MAX_COPY_DEPTH - 1), "input")).toBeUndefined();
  });

  it("reports nesting past the copy depth, far past the stack, as a problem instead of overflowing", () => {
    const problem = findNonJson(nested(200_000), "input");
    expect(problem?.what).toBe(`nested deeper than ${MAX_COPY_DEPTH} levels (or part of a cycle)`);
    expect(problem?.path.startsWith("input.next.next")).toBe(true);
  });

  it("reports a cycle instead of looping", () => {
    const cyclic: Record<string, unknown> = { items: [] };
    (cyclic.items as unknown[]).push(cyclic);
    expect(findNonJson(cyclic, "input")?.what).toMatch(/or part of a cycle/);
  });
});

describe("a threaded run with a hostile input", () => {
  it("refuses a very deep input with NOT_SERIALIZABLE before anything is written", async () => {
    const graph = new StateGraph<{ tree: Record<string, unknown> }>({ fields: ["tree"] })
      .addNode("a", () => ({}))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    const error = await graph.invoke({ tree: nested(100_000) }, { threadId: "t1", checkpointer }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NOT_SERIALIZABLE" });
    expect((error as Error).message).toMatch(/^invoke: cannot checkpoint "input\.tree\.next/);
    expect(await checkpointer.list("t1")).toEqual([]);
  });
});
