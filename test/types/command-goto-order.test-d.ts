/**
 * A builder node whose Command goto depends on the state (`s.urgent ? END : "b"`, issue 18 §1)
 * compiles with its `ends` when the node needs no contextual parameter type (annotated, or taking
 * none), sync or async: it was inferred before its `ends`, and the goto widened to `string`. A goto
 * outside the ends is still an error.
 */
import { describe, it } from "vitest";
import { Command, END, START, StateGraph } from "../../src/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}
const graph = new StateGraph<Ticket>().addNode("a", () => new Command({ update: { urgent: false } }));

describe("a state-dependent goto in the builder", () => {
  it("compiles annotated, unannotated, without parameter, sync or async", () => {
    graph
      .addNode("b", (s: Ticket) => new Command({ goto: s.urgent ? END : "a" }), { ends: ["a", END] })
      .addEdge(START, "b")
      .addEdge("a", END)
      .compile();
    graph
      .addNode("b", (s) => new Command({ goto: s.urgent ? END : "a" }), { ends: ["a", END] })
      .addEdge(START, "b")
      .addEdge("a", END)
      .compile();
    graph
      .addNode("b", async () => new Command({ update: { log: ["b"] }, goto: Math.random() < 0.5 ? END : "a" }), { ends: ["a", END] })
      .addEdge(START, "b")
      .addEdge("a", END)
      .compile();
  });

  it("does not compile for a goto outside the ends, or without ends", () => {
    // @ts-expect-error - "c" is not one of b's ends
    graph.addNode("b", (s: Ticket) => new Command({ goto: s.urgent ? END : "c" }), { ends: ["a", END] });
    // @ts-expect-error - b declares no ends
    graph.addNode("b", async (s: Ticket) => new Command({ goto: s.urgent ? END : "a" }));
  });
});
