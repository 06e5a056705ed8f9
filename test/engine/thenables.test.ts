/**
 * This file builds thenables on purpose (biome's noThenProperty is ignored for each one).
 *
 * One definition of a thenable (src/_thenable.ts), as `await` decides it: an object or a function with a
 * callable `then`. The engine awaits what a node returns when it is one, and only then; before, the engine
 * took a function with a `then` for a plain (invalid) update while the reducers' merge awaited it.
 */
import { describe, expect, it } from "vitest";
import { isThenable } from "../../src/_thenable.js";
import { END, START, StateGraph } from "../../src/index.js";

interface Counter {
  count: number;
}

/** A callable thenable: a function whose `then` resolves to `value`, as a library's lazy task may be. */
function callableThenable<T>(value: T): PromiseLike<T> {
  const task = () => value;
  // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about
  return Object.assign(task, { then: (resolve: (v: T) => unknown) => resolve(value) }) as unknown as PromiseLike<T>;
}

describe("isThenable", () => {
  it("answers as await does: objects and functions with a callable then, nothing else", () => {
    expect(isThenable(Promise.resolve(1))).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about
    expect(isThenable({ then: () => undefined })).toBe(true);
    expect(isThenable(callableThenable(1))).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about
    expect(isThenable({ then: 1 })).toBe(false);
    expect(isThenable(() => undefined)).toBe(false);
    expect(isThenable(null)).toBe(false);
    expect(isThenable({ count: 1 })).toBe(false);
  });
});

describe("a node that returns a thenable", () => {
  it("is awaited when the thenable is a function, as when it is an object", async () => {
    const graph = new StateGraph<Counter>({ fields: ["count"] })
      .addNode("a", () => callableThenable({ count: 1 }) as unknown as Promise<Partial<Counter>>)
      .addNode(
        "b",
        // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about
        () => ({ then: (resolve: (v: Partial<Counter>) => void) => resolve({ count: 2 }) }) as unknown as Promise<Partial<Counter>>,
      )
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const { state, steps } = await graph.invoke({ count: 0 });
    expect(state).toEqual({ count: 2 });
    expect(steps.map((step) => step.update)).toEqual([{ count: 1 }, { count: 2 }]);
  });
});
