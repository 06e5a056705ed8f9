/**
 * A `defineGraph` node that returns `new Command({ update })` without a `goto` (issue 18 §1): it needs
 * no `ends`, sync or async, as in the builder. A goto still names only the node's ends, and the update
 * only fields of the state, with their types.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, Command, defineGraph, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}
const define = defineGraph<Ticket>();
const line = [
  [START, "a"],
  ["a", END],
] as const;

describe("a defineGraph Command without goto", () => {
  it("compiles without ends: sync, async, reading the state, annotated, beside a plain update", () => {
    const graph = define({
      reducers: { log: append },
      nodes: {
        a: () => new Command({ update: { urgent: false } }),
        b: async () => new Command({ update: { log: ["b"] } }),
        c: (s) => (s.urgent ? new Command({ update: { urgent: false } }) : { log: ["calm"] }),
        // Not `urgent` too: "a" surely writes it in the same fan-out (a compile-time parallel write).
        d: async (s: Ticket) => new Command({ update: { log: [s.urgent ? "d urgent" : "d"] } }),
      },
      edges: [
        [START, ["a", "b", "c", "d"]],
        [["a", "b", "c", "d"], END],
      ],
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Ticket, "c" | "a" | "b" | "d">>();
  });

  it("compiles on a node that declares ends, and beside a node whose goto they list", () => {
    define({
      nodes: {
        a: () => new Command({ update: { urgent: true } }),
        b: (s) => new Command({ update: { urgent: !s.urgent }, goto: "a" }),
      },
      edges: [[START, "b"]],
      ends: { a: [END], b: ["a"] },
    });
  });

  it("compiles in the builder too", () => {
    new StateGraph<Ticket>()
      .addNode("a", async () => new Command({ update: { urgent: false } }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
  });
});

describe("a defineGraph Command that is still wrong", () => {
  it("does not compile for a goto to an undeclared destination", () => {
    define({
      // @ts-expect-error - "a" declares no ends, so its Command may not goto "b"
      nodes: { a: () => new Command({ update: { urgent: false }, goto: "b" }), b: () => undefined },
      edges: [...line, ["b", END]],
    });
    define({
      // @ts-expect-error - "b" is not one of a's ends
      nodes: { a: async () => new Command({ goto: "b" }), b: () => undefined },
      edges: [...line, ["b", END]],
      ends: { a: [END] },
    });
  });

  it("does not compile for an update of an unknown field or of the wrong type, sync or async", () => {
    define({
      // @ts-expect-error - "priority" is not a field of Ticket
      nodes: { a: () => new Command({ update: { priority: 1 } }) },
      edges: line,
    });
    define({
      // @ts-expect-error - "priority" is not a field of Ticket
      nodes: { a: async () => new Command({ update: { priority: 1 } }) },
      edges: line,
    });
    define({
      // @ts-expect-error - urgent is a boolean
      nodes: { a: () => new Command({ update: { urgent: "yes" } }) },
      edges: line,
    });
    define({
      // @ts-expect-error - urgent is a boolean
      nodes: { a: async () => new Command({ update: { urgent: "yes" } }) },
      edges: line,
    });
  });
});
