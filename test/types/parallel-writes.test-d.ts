/**
 * Parallel-write conflicts at compile time (issue 18 §3): two nodes the graph starts in one superstep
 * that both surely write a field without a reducer are an error where the edge or route is declared;
 * what the compiler cannot be sure of stays silent (the run-time check remains).
 */
import { describe, expectTypeOf, it } from "vitest";
import type { SureKeys } from "../../src/builder/parallel-writes.js";
import type { RouteError } from "../../src/builder/types.js";
import { append, Command, END, Send, START, StateGraph } from "../../src/index.js";

interface S {
  count: number;
  note: string | null;
  docs: string[];
}

const nodes = new StateGraph<S>()
  .addNode("plan", () => ({}))
  .addNode("a", (s) => ({ count: s.count + 1 }))
  .addNode("b", async () => ({ count: 2, note: "b" }))
  .addNode("maybe", (s) => (s.count > 0 ? { count: 1 } : {}))
  .addNode("d", () => ({ note: "d" }));

describe("a fan-out", () => {
  it("rejects two targets that both write a field without a reducer", () => {
    // @ts-expect-error - "a" and "b" both write count
    nodes.addEdge("plan", ["a", "b"]);
    // @ts-expect-error - "b" and "d" both write note (END in the list is no writer)
    nodes.addEdge(START, ["b", "d", END]);
  });

  it("accepts targets that write different fields, or a field on some paths only", () => {
    nodes.addEdge("plan", ["a", "d"]);
    nodes.addEdge("plan", ["a", "maybe", "d"]);
    expectTypeOf<SureKeys<{ count: number } | { count?: undefined }>>().toEqualTypeOf<never>();
    expectTypeOf<SureKeys<{ count: number; note: null } | { count: number }>>().toEqualTypeOf<"count">();
  });

  it("accepts a target that returns early on some path, or returns only a Command (issue 35 §1)", () => {
    const early = new StateGraph<S>()
      .addNode("plan", () => ({}))
      .addNode("web", (s) => {
        if (s.count > 3) return;
        return { note: "web" };
      })
      .addNode("papers", async (s) => (s.count > 3 ? undefined : { note: "papers" }))
      .addNode("steer", (s) => (s.count > 0 ? new Command({ goto: "web" }) : { note: "steer" }), { ends: ["web"] });
    early.addEdge("plan", ["web", "papers", "steer"]);
    // Fields named like a Command's members are no writes of a Command without update.
    const commands = new StateGraph<{ goto: string; resume: string; update: string }>()
      .addNode("a", () => new Command({ goto: END }), { ends: [END] })
      .addNode("b", () => new Command({ goto: END }), { ends: [END] })
      .addNode("c", () => ({ goto: "x", resume: "y", update: "z" }));
    commands.addEdge(START, ["a", "b", "c"]);
  });

  it("reads a Command's update as the writes it surely makes (issue 35 §2)", () => {
    const steered = new StateGraph<S>()
      .addNode("plan", () => ({}))
      .addNode("steer", (s) => new Command({ update: { note: "steer" }, goto: s.count > 0 ? "d" : END }), { ends: ["d", END] })
      .addNode("asyncSteer", async () => new Command({ update: { count: 1, note: "async" } }))
      .addNode("partly", (s) => (s.count > 0 ? new Command({ update: { note: "partly" } }) : {}))
      .addNode("typed", (): Command<unknown, S, never> => new Command({ update: { note: "typed" } }))
      .addNode("d", () => ({ note: "d" }));
    // @ts-expect-error - "steer" writes note through its Command's update, as "d" does
    steered.addEdge("plan", ["steer", "d"]);
    // @ts-expect-error - an async node's Command: "asyncSteer" and "d" both write note
    steered.addEdge("plan", ["asyncSteer", "d"]);
    // A Command's update on some paths only, or a Command whose type is written (its update unknown), is no sure write.
    steered.addEdge("plan", ["partly", "typed", "d"]);
    const partial: Partial<S> = { note: "x" };
    new StateGraph<S>()
      .addNode("held", () => new Command({ update: partial }))
      .addNode("d", () => ({ note: "d" }))
      .addEdge(START, ["held", "d"]);
  });

  it("rejects Sends to one writer of a field without a reducer from a list of any length (issue 35 §2)", () => {
    const mapped = new StateGraph<S, "docs">({ reducers: { docs: append } })
      .addNode("plan", () => ({}))
      .addNode("summarize", (input: { doc: string }) => ({ note: input.doc }))
      .addNode("collect", (input: { doc: string }) => ({ docs: [input.doc] }));
    expectTypeOf(mapped.addConditionalEdges("plan", (s) => s.docs.map((doc) => new Send("summarize", { doc })), ["summarize"])).toEqualTypeOf<
      RouteError<`the router for "plan" can send "summarize" more than once in one superstep (a list of Sends), and it writes "note", which has no reducer; give "note" a reducer (reducers: { note: … }), or write it from one of them`>
    >();
    // A writer of reducer fields only (the map-reduce idiom), and a tuple of one Send, pass.
    mapped.addConditionalEdges("plan", (s) => s.docs.map((doc) => new Send("collect", { doc })), ["collect"]);
    mapped.addConditionalEdges("plan", (s): [Send<"summarize", { doc: string }>] => [new Send("summarize", { doc: s.docs.join() })], ["summarize"]);
  });

  it("stays silent for the sources of a join, which may arrive in different supersteps", () => {
    nodes.addEdge(START, "a").addEdge(["a", "b"], "d");
  });

  it("stays silent when the state has reducers: the builder cannot tell which fields they cover", () => {
    new StateGraph<S>({ reducers: { docs: append } })
      .addNode("a", () => ({ count: 1 }))
      .addNode("b", () => ({ count: 2 }))
      .addEdge(START, ["a", "b"]);
  });
});

describe("a list-form route", () => {
  it("rejects two destinations one list can hold that both write a field without a reducer", () => {
    expectTypeOf(nodes.addConditionalEdges("plan", (s) => (s.count > 0 ? (["a", "b"] as ("a" | "b")[]) : []), ["a", "b"])).toEqualTypeOf<
      RouteError<`the router for "plan" can start "a" and "b" in one superstep, and both write "count", which has no reducer; give "count" a reducer (reducers: { count: … }), or write it from one of them`>
    >();
    const sends = nodes.addConditionalEdges("plan", (s) => [new Send("a", s), new Send("b", s)], ["a", "b"]);
    // @ts-expect-error - Sends to "a" and "b" start both: the result is a RouteError
    sends.addEdge("a", END);
  });

  it("accepts lists that never hold both, and destinations that write different fields", () => {
    nodes.addConditionalEdges("plan", (s): "a"[] | "b"[] => (s.count > 0 ? ["a"] : ["b"]), ["a", "b"]).addEdge("a", END);
    nodes.addConditionalEdges("plan", (s) => (s.count > 0 ? (["a", "d"] as ("a" | "d")[]) : []), ["a", "d"]).addEdge("a", END);
  });
});

describe("orderedMerge", () => {
  it("names fields of the state", () => {
    new StateGraph<S>({ reducers: { docs: append }, orderedMerge: ["docs"] });
    // @ts-expect-error - "dcos" is not a field
    new StateGraph<S>({ reducers: { docs: append }, orderedMerge: ["dcos"] });
  });
});
