/**
 * A `defineGraph` node whose Command goto depends on the state (`s.urgent ? END : "a"`, issue 18 §1)
 * compiles with its `ends`, whatever the order of the nodes, sync or async, annotated or not, beside a
 * node returning `new Command({ update })` (with or without goto). A node function that needs no
 * contextual parameter type was inferred before `ends`, and such a goto was widened to `string`.
 * A goto outside the node's ends is still an error, with a sentence.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { CheckedNodes } from "../../src/builder/define-types.js";
import { append, Command, defineGraph, END, START, type CompiledGraph } from "../../src/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}
const define = defineGraph<Ticket>();
const edges = [
  [START, "b"],
  ["a", END],
] as const;

describe("a state-dependent goto in defineGraph", () => {
  it("compiles after a node returning new Command({ update }), and before it", () => {
    const after = define({
      nodes: {
        a: () => new Command({ update: { urgent: false } }),
        b: (s) => new Command({ goto: s.urgent ? END : "a" }),
      },
      edges,
      ends: { b: ["a", END] },
    });
    const before = define({
      nodes: {
        b: (s) => new Command({ goto: s.urgent ? END : "a" }),
        a: () => new Command({ update: { urgent: false } }),
      },
      edges,
      ends: { b: ["a", END] },
    });
    expectTypeOf(after).toEqualTypeOf<CompiledGraph<Ticket, "a" | "b">>();
    expectTypeOf(before).toEqualTypeOf<CompiledGraph<Ticket, "a" | "b">>();
  });

  it("compiles async, with a block body, beside a Command with update and goto", () => {
    define({
      reducers: { log: append },
      nodes: {
        a: async () => new Command({ update: { log: ["a"] }, goto: END }),
        b: async (s) => {
          return new Command({ update: { log: ["b"] }, goto: s.urgent ? END : "a" });
        },
      },
      edges: [[START, "b"]],
      ends: { a: [END], b: ["a", END] },
    });
  });

  it("compiles when the node annotates its parameter or takes none, and with ends first", () => {
    define({
      nodes: {
        a: () => new Command({ update: { urgent: false } }),
        b: (s: Ticket) => new Command({ goto: s.urgent ? END : "a" }),
      },
      edges,
      ends: { b: ["a", END] },
    });
    define({
      ends: { b: ["a", END] },
      nodes: {
        b: () => new Command({ goto: Math.random() < 0.5 ? END : "a" }),
        a: async () => new Command({ update: { urgent: false } }),
      },
      edges,
    });
  });
});

describe("a state-dependent goto outside the node's ends", () => {
  it("does not compile, in either order, annotated or not, sync or async", () => {
    define({
      nodes: {
        a: () => new Command({ update: { urgent: false } }),
        // @ts-expect-error - "c" is not one of b's ends
        b: (s) => new Command({ goto: s.urgent ? END : "c" }),
        c: () => undefined,
      },
      edges: [...edges, ["c", END]],
      ends: { b: ["a", END] },
    });
    define({
      nodes: {
        // @ts-expect-error - "c" is not one of b's ends
        b: async (s: Ticket) => new Command({ goto: s.urgent ? END : "c" }),
        a: () => new Command({ update: { urgent: false } }),
        c: () => undefined,
      },
      edges: [...edges, ["c", END]],
      ends: { b: ["a", END] },
    });
  });

  it("does not compile for a node that declares no ends", () => {
    define({
      nodes: {
        a: () => new Command({ update: { urgent: false } }),
        // @ts-expect-error - b declares no ends
        b: (s) => new Command({ goto: s.urgent ? END : "a" }),
      },
      edges,
    });
  });

  it("says which goto its ends do not list", () => {
    type Nodes = { readonly b: (s: Ticket) => Command<undefined, Ticket, "a" | "c"> };
    type Ends = { readonly b: readonly ["a"] };
    type Checked = CheckedNodes<Ticket, Nodes, Ends>["b"];
    expectTypeOf<Checked>().toHaveProperty(
      'defineGraph: node "b" returns a Command with goto "c", which its ends do not list; add it to ends: { b: [...] }',
    );
  });
});
