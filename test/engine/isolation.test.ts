import { describe, expect, it } from "vitest";
import { append, END, START, StateGraph } from "../../src/index.js";
import { counterInput, singleNodeGraph, type CounterState } from "../helpers/graphs.js";

describe("isolation by copy", () => {
  it("a node that mutates its input changes neither the caller's input nor the run's state", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("vandal", (s) => {
        s.n = 99;
        s.nested.items.push(1);
        s.log.push("sneaky");
        return { note: "ok" };
      })
      .addNode("reader", (s) => ({ note: `n=${s.n} items=${s.nested.items.length} log=${s.log.length}` }))
      .addEdge(START, "vandal")
      .addEdge("vandal", "reader")
      .addEdge("reader", END)
      .compile();
    const input = counterInput();
    const { state } = await graph.invoke(input);
    expect(input).toEqual(counterInput());
    expect(state.note).toBe("n=0 items=0 log=0");
    expect(state.nested.items).toEqual([]);
  });

  it("a router gets a copy: mutating it cannot change the state", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ n: 1 }))
      .addNode("b", (s) => ({ note: `n=${s.n} items=${s.nested.items.join(",")}` }))
      .addEdge(START, "a")
      .addConditionalEdges(
        "a",
        (s) => {
          s.n = 42;
          s.nested.items.push(7);
          return "next";
        },
        { next: "b" },
      )
      .addEdge("b", END)
      .compile();
    const { state } = await graph.invoke(counterInput());
    expect(state.note).toBe("n=1 items=");
  });

  it("the engine keeps its own copy of an update: mutating the returned object later changes nothing", async () => {
    const kept: { nested?: { items: number[] } } = {};
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => {
        kept.nested = { items: [1] };
        return { nested: kept.nested };
      })
      .addNode("b", (s) => {
        kept.nested?.items.push(2);
        return { note: String(s.nested.items.length) };
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const { state } = await graph.invoke(counterInput());
    expect(state.nested.items).toEqual([1]);
    expect(state.note).toBe("1");
  });

  it("a reducer gets detached values: mutating its arguments cannot reach the state", async () => {
    const seen: string[][] = [];
    const mutatingAppend = (current: string[], update: string[]) => {
      seen.push(current);
      current.push("MUTATED");
      return [...current.filter((x) => x !== "MUTATED"), ...update];
    };
    const graph = new StateGraph<CounterState>({ reducers: { log: mutatingAppend } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const { state, steps } = await graph.invoke({ ...counterInput(), log: ["start"] });
    expect(state.log).toEqual(["start", "a", "b"]);
    expect(steps[0]?.state.log).toEqual(["start", "a"]);
  });

  it("returned steps are detached: mutating one does not affect later steps or the final state", async () => {
    const graph = new StateGraph<CounterState>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"], nested: { items: [1] } }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const { state, steps } = await graph.invoke(counterInput());
    const [first, second] = steps;
    first?.state.log.push("x");
    first?.state.nested.items.push(9);
    first?.update.log?.push("y");
    expect(second?.state.log).toEqual(["a", "b"]);
    expect(second?.state.nested.items).toEqual([1]);
    expect(state.nested.items).toEqual([1]);
  });

  it("a streamed step can be mutated without changing what the next node sees", async () => {
    const graph = new StateGraph<CounterState>()
      .addNode("a", () => ({ nested: { items: [1] } }))
      .addNode("b", (s) => ({ note: s.nested.items.join(",") }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile();
    const notes: (string | null)[] = [];
    for await (const step of graph.stream(counterInput())) {
      step.state.nested.items.push(666);
      notes.push(step.state.note);
    }
    expect(notes.at(-1)).toBe("1");
  });

  it("one compiled graph runs many times and shares nothing between runs", async () => {
    const graph = singleNodeGraph((s) => ({ log: [`run with n=${s.n}`], n: s.n + 1 }));
    const first = await graph.invoke(counterInput());
    first.state.log.push("tampered");
    const second = await graph.invoke(counterInput());
    expect(second.state.log).toEqual(["run with n=0"]);
    expect(second.state.n).toBe(1);
  });
});

describe("user reducers", () => {
  it("get a detached update: mutating it changes neither the state nor the step record", async () => {
    const vandal = (current: string[], update: string[]) => {
      const next = [...current, ...update];
      update.length = 0;
      update.push("HACKED");
      return next;
    };
    const graph = new StateGraph<CounterState>({ reducers: { log: vandal } })
      .addNode("a", () => ({ log: ["a"] }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const { state, steps } = await graph.invoke({ ...counterInput(), log: ["start"] });
    expect(state.log).toEqual(["start", "a"]);
    expect(steps[0]?.update).toEqual({ log: ["a"] });
  });
});
