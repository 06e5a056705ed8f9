import { describe, expect, it } from "vitest";
import { MAX_COPY_DEPTH } from "../../src/engine/clone.js";
import { cloneState, isPlainObject } from "../../src/engine/index.js";
import { END, GraphError, InvalidOptionError, START, StateGraph } from "../../src/index.js";

describe("cloneState", () => {
  it("copies nested plain objects and arrays, sharing nothing", () => {
    const source = { a: [{ b: 1 }], c: { d: [1, 2] }, e: null, f: "x", g: undefined };
    const copy = cloneState(source);
    expect(copy).toEqual(source);
    expect(copy.a).not.toBe(source.a);
    expect(copy.a[0]).not.toBe(source.a[0]);
    expect(copy.c.d).not.toBe(source.c.d);
  });

  it("keeps an own __proto__ key as data, never as the prototype", () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = cloneState(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "x"]);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("copies null-prototype objects, Dates and Maps", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: [1] });
    const copy = cloneState({ bare, when: new Date(0), map: new Map([["k", 1]]) });
    expect(Object.getPrototypeOf(copy.bare)).toBeNull();
    expect(copy.bare.a).not.toBe(bare.a);
    expect(copy.when).toEqual(new Date(0));
    expect(copy.map.get("k")).toBe(1);
  });

  it("shares what it cannot copy by reference: functions, class instances, a Map of functions", () => {
    const client = new (class Client {
      fn = () => 1;
    })();
    const handlers = new Map([["go", () => 2]]);
    const fn = () => 3;
    const copy = cloneState({ client, handlers, fn, plain: { a: 1 } });
    expect(copy.client).toBe(client);
    expect(copy.handlers).toBe(handlers);
    expect(copy.fn).toBe(fn);
    expect(copy.plain).toEqual({ a: 1 });
  });

  it("deep-copies what structuredClone copies: Dates, Maps, Sets, typed arrays, boxed values", () => {
    const source = {
      when: new Date(5),
      map: new Map([["k", { v: 1 }]]),
      set: new Set([1]),
      bytes: new Uint8Array([1, 2]),
      boxed: Object(7) as number,
    };
    const copy = cloneState(source);
    expect(copy).toEqual(source);
    for (const key of Object.keys(source) as (keyof typeof source)[]) expect(copy[key]).not.toBe(source[key]);
  });

  it("keeps the holes of a sparse array", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point of the test
    const copy = cloneState({ list: [1, , 3, undefined] });
    expect(1 in copy.list).toBe(false);
    expect(3 in copy.list).toBe(true);
    expect(copy.list).toHaveLength(4);
  });

  it.each([
    [
      "a cycle",
      () => {
        const a: Record<string, unknown> = { b: { c: [] as unknown[] } };
        (a["b"] as { c: unknown[] }).c.push(a);
        return a;
      },
      /^cloneState: value\.b\.c\[0\] contains a cycle \(it leads back to value\)/,
    ],
    ["nesting deeper than the limit", () => nested(MAX_COPY_DEPTH + 5), /^cloneState: value[.a]+…[.a]+ nests deeper than 1000 levels/],
    ["nesting far deeper than the stack", () => nested(100_000), /nests deeper than 1000 levels/],
    [
      "a getter that throws",
      () => ({
        x: {
          get boom() {
            throw new Error("nope");
          },
        },
      }),
      /^cloneState: value\.x\.boom cannot be read: nope/,
    ],
    [
      "a revoked Proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return { p: proxy };
      },
      /^cloneState: /,
    ],
  ])("refuses %s with a coded error naming the path", (_label, make, message) => {
    const value = make();
    let error: unknown;
    try {
      cloneState(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message.length).toBeLessThan(700);
  });
});

describe("the copy's own unwinding (a value nested too deep) never reaches a caller", () => {
  const deep = () => nested(MAX_COPY_DEPTH + 5);

  it("cloneState throws the coded InvalidOptionError, never the error the copy unwinds with", () => {
    let error: unknown;
    try {
      cloneState(deep());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("invoke refuses such an input with INVALID_INPUT, and a node's update with UNCOPYABLE_UPDATE", async () => {
    const graph = new StateGraph<{ doc: Record<string, unknown> }>()
      .addNode("write", (state) => (Object.keys(state.doc).length === 0 ? { doc: deep() } : {}))
      .addEdge(START, "write")
      .addEdge("write", END)
      .compile();
    const input = graph.invoke({ doc: deep() });
    await expect(input).rejects.toBeInstanceOf(GraphError);
    await expect(input).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const update = graph.invoke({ doc: {} });
    await expect(update).rejects.toBeInstanceOf(GraphError);
    await expect(update).rejects.toMatchObject({ code: "UNCOPYABLE_UPDATE" });
  });
});

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("isPlainObject", () => {
  it.each([
    [{}, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    [new Date(), false],
    ["x", false],
  ])("%o → %s", (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});
