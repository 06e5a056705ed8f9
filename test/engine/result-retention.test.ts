/**
 * What a finished run's result holds (issue 37: a million steps' result held 154 MB): the steps' route
 * keys and superstep sizes in 4-byte id columns (engine/id-column.ts, step-record.ts), one shared
 * object per distinct route (engine/route-log.ts), and `routes` copied out on first read. The result
 * reads exactly as before.
 */
import { describe, expect, it } from "vitest";
import { IdColumn } from "../../src/engine/id-column.js";
import { RouteLog } from "../../src/engine/route-log.js";
import { END, START, StateGraph } from "../../src/index.js";

interface Loop {
  n: number;
  seen: number[];
}

/** START → tick, tick routes "again" to itself until n reaches `laps`; every 5th lap it also goes to "side" (a list of keys). */
function loop(laps: number) {
  return new StateGraph<Loop>({ reducers: { seen: (a: number[], b: number[]) => [...a, ...b] } })
    .addNode("tick", (state) => ({ n: state.n + 1 }))
    .addNode("side", (state) => ({ seen: [state.n] }))
    .addEdge(START, "tick")
    .addConditionalEdges(
      "tick",
      (state): "again" | "done" | ("again" | "side")[] => (state.n >= laps ? "done" : state.n % 5 === 0 ? ["again", "side"] : "again"),
      {
        again: "tick",
        side: "side",
        done: END,
      },
    )
    .addEdge("side", END)
    .compile();
}

describe("a run's result", () => {
  it("copies routes out on first read: one object per choice, the same list on every read, assignable", async () => {
    const result = await loop(3).invoke({ n: 0, seen: [] });
    const descriptor = Object.getOwnPropertyDescriptor(result, "routes");
    expect(descriptor?.enumerable).toBe(true);
    expect(typeof descriptor?.get).toBe("function");
    const routes = result.routes;
    expect(routes).toEqual([
      { from: "tick", key: "again", to: "tick" },
      { from: "tick", key: "again", to: "tick" },
      { from: "tick", key: "done", to: END },
    ]);
    expect(result.routes).toBe(routes);
    // The run keeps the route "again" once; the caller gets an object per choice, its own.
    expect(routes[0]).not.toBe(routes[1]);
    (routes[0] as { key: string }).key = "changed";
    expect(routes[1]?.key).toBe("again");
    expect((await loop(3).invoke({ n: 0, seen: [] })).routes[0]?.key).toBe("again");
    expect(JSON.parse(JSON.stringify(result)).routes).toHaveLength(3);
    Object.assign(result, { routes: [] });
    expect(result.routes).toEqual([]);
  });

  it("keeps every step's node, route key (a list's too) and superstep past the columns' first growth", async () => {
    const result = await loop(40).invoke({ n: 0, seen: [] }, { recursionLimit: 100 });
    expect(result.trace.length).toBeGreaterThan(40);
    expect(result.steps.map((step) => step.node)).toEqual(result.trace);
    const routes = result.steps.map((step) => step.route);
    expect(routes.filter((route) => Array.isArray(route))).toHaveLength(7);
    expect(routes.filter((route) => route === "again")).toHaveLength(40 - 7 - 1);
    expect(result.steps.filter((step) => step.node === "side").map((step) => step.state.n)).toEqual([6, 11, 16, 21, 26, 31, 36]);
    expect(result.state.seen).toEqual([5, 10, 15, 20, 25, 30, 35]);
  });
});

describe("RouteLog", () => {
  it("shares a route taken again, keeps a goto apart from a router's key of the same name, and hands out copies", () => {
    const log = new RouteLog();
    log.push({ from: "a", key: "b", to: "c" });
    log.push({ from: "a", key: "b", to: "c" });
    log.push({ from: "a", key: "b", to: "b", goto: true });
    const shared = log.shared();
    expect(shared[0]).toBe(shared[1]);
    expect(shared[2]).toEqual({ from: "a", key: "b", to: "b", goto: true });
    const copies = log.copies();
    expect(copies).toEqual(shared);
    expect(copies[0]).not.toBe(shared[0]);
    expect(log.length).toBe(3);
  });
});

describe("IdColumn", () => {
  it("reads back every entry in order as it grows, storing each distinct value once", () => {
    const column = new IdColumn<string | undefined>();
    const values = Array.from({ length: 100 }, (_, index) => (index % 7 === 0 ? undefined : `n${index % 3}`));
    for (const value of values) column.push(value);
    expect(column.length).toBe(100);
    expect(Array.from({ length: 100 }, (_, index) => column.at(index))).toEqual(values);
  });
});
